import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { transcodeStatusSchema } from '@mo/shared';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { createStateStore } from './state-store.ts';
import { recordsLines } from './transcode-records.ts';

const legacySchema = z.looseObject({
  transcodes: z.record(z.string(), transcodeStatusSchema).optional(),
  transcoder_paused: z.boolean().optional(),
});

/**
 * Moves the transcode records and the pause flag an older version kept in state.json into their
 * own log, under state.json's lock. The log is written whole (atomically) before the keys leave
 * state.json, and only while no log exists: a start killed between the two steps finds the log
 * there and just drops the keys, so no record is lost or doubled. Answers how many records moved.
 */
export async function migrateTranscodeRecords(stateFile: string, logFile: string): Promise<number> {
  if (!(await stat(stateFile).catch(() => null))) return 0;
  let moved = 0;
  const store = createStateStore({ file: stateFile, schema: legacySchema, initial: () => ({}) });
  await store.update(async (raw: z.infer<typeof legacySchema>) => {
    if (!Object.hasOwn(raw, 'transcodes') && !Object.hasOwn(raw, 'transcoder_paused')) return raw;
    const { transcodes = {}, transcoder_paused = false, ...rest }: z.infer<typeof legacySchema> = raw;
    if (!(await stat(logFile).catch(() => null))) {
      await writeFileAtomic(logFile, recordsLines({ transcodes, paused: transcoder_paused }));
      moved = Object.keys(transcodes).length;
    }
    return rest;
  });
  return moved;
}
