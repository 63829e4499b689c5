import type { z } from 'zod';
import { initialState, stateSchema, type State } from '@mo/shared';
import { createStateStore, type StateStore } from '../state/state-store.ts';
import { migrateTranscodeRecords } from '../state/transcode-migration.ts';
import { createTranscodeRecords, transcodeChanges, type TranscodeRecords, type TranscodeRecordsView } from '../state/transcode-records.ts';
import type { DataDir } from './data-dir.ts';

const stateFileSchema = stateSchema.omit({ transcodes: true, transcoder_paused: true });
type StateFile = z.infer<typeof stateFileSchema>;

function withoutRecords(s: StateFile | State): StateFile {
  const { transcodes: _t, transcoder_paused: _p, ...rest } = s as State;
  return rest as StateFile;
}

function sameFields(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

function stateView(file: StateStore<StateFile>, records: TranscodeRecords): StateStore<State> {
  const merge = (s: StateFile, r: TranscodeRecordsView): State => ({
    ...withoutRecords(s),
    transcodes: r.transcodes as State['transcodes'],
    transcoder_paused: r.paused,
  });
  return {
    file: file.file,
    async read() {
      const [s, r] = await Promise.all([file.read(), records.read()]);
      return merge(s, r);
    },
    async update(fn) {
      let after: TranscodeRecordsView | undefined;
      const written = await file.update(async (s) => {
        let out: State | undefined;
        after = await records.update(async (r) => {
          out = await fn(merge(s, r));
          return transcodeChanges(r, { transcodes: out.transcodes, paused: out.transcoder_paused });
        });
        const rest = withoutRecords(out!);
        return sameFields(rest, withoutRecords(s)) ? s : rest;
      });
      return merge(written, after!);
    },
  };
}

export interface StateStores {
  /**
   * state.json and the transcode log seen as one State, as before the records moved out: an update
   * rewrites state.json only when something other than the records changed, and appends only the
   * records it replaced.
   */
  state: StateStore<State>;
  /** The transcode records and the pause flag. */
  transcodes: TranscodeRecords;
}

/** The stores of state.json and the transcode log, once records an older version left in state.json have moved. */
export async function openStateStores(data: DataDir): Promise<StateStores> {
  await migrateTranscodeRecords(data.path('state'), data.path('transcodes'));
  const transcodes = createTranscodeRecords(data.path('transcodes'));
  const file = createStateStore({ file: data.path('state'), schema: stateFileSchema, initial: () => withoutRecords(initialState()) });
  return { state: stateView(file, transcodes), transcodes };
}
