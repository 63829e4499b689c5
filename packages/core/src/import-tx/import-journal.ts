import { z } from 'zod';
import { TRANSFER_MODES } from '@mo/shared';
import { createNoteFolder } from '../fs/note-folder.ts';
import type { HistoryLog } from '../history/history-log.ts';
import { nextStep, type FileOnDisk, type PlannedFile } from './next-step.ts';
import { seenAt } from './seen.ts';

const identitySchema = z.object({ dev: z.number(), ino: z.number(), size: z.number(), mtime_ms: z.number() });
const plannedSchema = z.object({
  source: z.string(),
  destination: z.string(),
  from: identitySchema,
  /** The inode a copy of this file was made on (noted before it is placed): only that file there is the copy. */
  made: z.object({ dev: z.number(), ino: z.number() }).optional(),
});
const noteSchema = plannedSchema.extend({
  mode: z.enum(TRANSFER_MODES),
  sidecars: z.array(plannedSchema),
  created_dirs: z.array(z.string()),
  pass: z.string(),
});

export type PendingImport = z.infer<typeof noteSchema>;
type Planned = z.infer<typeof plannedSchema>;

/** Drops the note of an import in flight. */
export type ImportTicket = (() => Promise<void>) & {
  /** Notes the inode a copy for `destination` (the video's or a sidecar's) is made on, before it is placed. */
  made(destination: string, id: { dev: number; ino: number }): Promise<void>;
};

export interface ImportJournal {
  /** Notes an import before its first file is placed. */
  begin(pending: PendingImport): Promise<ImportTicket>;
  /**
   * Records in the history each import a killed pass carried out but did not record, so that no
   * import goes unrecorded (and a moved one stays undoable). Call it under the pass lock, after the
   * transfer journal has settled any copy in flight. `placed`: the files the caller itself placed
   * since the kill (sidecars the killed pass left behind), by destination, with what they are now.
   */
  recover(history: HistoryLog, at: string, placed?: ReadonlyMap<string, { dev: number; ino: number }>): Promise<number>;
}

async function onDisk(f: PlannedFile, placed?: ReadonlyMap<string, { dev: number; ino: number }>): Promise<FileOnDisk> {
  const placedSince = placed?.get(f.destination);
  return { source: await seenAt(f.source), destination: await seenAt(f.destination), ...(placedSince ? { placedSince } : {}) };
}

/** One JSON note per import in flight, in `dir` (under paths.data, shared by every worker). */
export function createImportJournal(dir: string): ImportJournal {
  const notes = createNoteFolder(dir, noteSchema);
  return {
    async begin(pending) {
      const drop = await notes.add(pending);
      let value = pending;
      const made: ImportTicket['made'] = async (destination, id) => {
        const mark = <T extends Planned>(f: T): T => (f.destination === destination ? { ...f, made: { dev: id.dev, ino: id.ino } } : f);
        value = { ...mark(value), sidecars: value.sidecars.map(mark) };
        await drop.rewrite(value);
      };
      return Object.assign(() => drop(), { made });
    },

    async recover(history, at, placed) {
      let recorded = 0;
      for (const note of await notes.list()) {
        const n = note.value;
        if (n) {
          const step = nextStep(n, {
            recorded: history
              .records()
              .some((r) => r.source === n.source && r.destination === n.destination && r.from.ino === n.from.ino && r.from.size === n.from.size),
            video: await onDisk(n),
            sidecars: await Promise.all(n.sidecars.map((s) => onDisk(s, placed))),
          });
          if (step.step === 'record') {
            await history.recordImport({
              ...step.video,
              at,
              mode: n.mode,
              method: step.method,
              sidecars: step.sidecars,
              created_dirs: n.created_dirs,
              pass: n.pass,
            });
            recorded++;
          }
        }
        await note.drop();
      }
      return recorded;
    },
  };
}
