import { lstat } from 'node:fs/promises';
import { z } from 'zod';
import { TRANSFER_MODES } from '@mo/shared';
import { createNoteFolder } from '../fs/note-folder.ts';
import type { HistoryLog } from './history-log.ts';
import type { FileIdentity, PlacedFile } from './history-record.ts';

const identitySchema = z.object({ dev: z.number(), ino: z.number(), size: z.number(), mtime_ms: z.number() });
const plannedSchema = z.object({ source: z.string(), destination: z.string(), from: identitySchema });
const noteSchema = plannedSchema.extend({
  mode: z.enum(TRANSFER_MODES),
  sidecars: z.array(plannedSchema),
  created_dirs: z.array(z.string()),
  pass: z.string(),
});

export type PendingImport = z.infer<typeof noteSchema>;
type Planned = z.infer<typeof plannedSchema>;

export interface ImportJournal {
  /** Notes an import before its first file is placed; returns the function that drops the note. */
  begin(pending: PendingImport): Promise<() => Promise<void>>;
  /**
   * Records in the history each import a killed pass carried out but did not record, so that no
   * import goes unrecorded (and a moved one stays undoable). Call it under the pass lock, after the
   * transfer journal has settled any copy in flight.
   */
  recover(history: HistoryLog, at: string): Promise<number>;
}

const statOrNull = (path: string) => lstat(path).catch(() => null);

/**
 * Where `p` is now in the library as its import left it: the file at the destination has the
 * download's size and mtime (a rename, a link and a verified copy all keep them), and for a move the
 * download is gone from its path. null: not placed; the next pass plans it again.
 */
async function landed(p: Planned, move: boolean): Promise<PlacedFile | null> {
  const to = await statOrNull(p.destination);
  if (!to?.isFile() || to.size !== p.from.size || Math.abs(to.mtimeMs - p.from.mtime_ms) >= 1) return null;
  const source = await statOrNull(p.source);
  if (move && source && source.dev === p.from.dev && source.ino === p.from.ino && !(to.dev === p.from.dev && to.ino === p.from.ino)) return null;
  const identity: FileIdentity = { dev: to.dev, ino: to.ino, size: to.size, mtime_ms: to.mtimeMs };
  return { ...p, to: identity };
}

/** One JSON note per import in flight, in `dir` (under paths.data, shared by every worker). */
export function createImportJournal(dir: string): ImportJournal {
  const notes = createNoteFolder(dir, noteSchema);
  return {
    begin: (pending) => notes.add(pending),

    async recover(history, at) {
      let recorded = 0;
      for (const note of await notes.list()) {
        const n = note.value;
        const known = n && history.records().some((r) => r.source === n.source && r.destination === n.destination && r.from.ino === n.from.ino && r.from.size === n.from.size);
        const move = n?.mode === 'move';
        const video = n && !known ? await landed(n, move) : null;
        if (n && video) {
          const sidecars: PlacedFile[] = [];
          for (const s of n.sidecars) {
            const placed = await landed(s, move);
            if (placed) sidecars.push(placed);
          }
          const same = video.to.dev === n.from.dev && video.to.ino === n.from.ino;
          const method = !same ? 'copy' : move ? 'rename' : 'link';
          await history.recordImport({ ...video, at, mode: n.mode, method, sidecars, created_dirs: n.created_dirs, pass: n.pass });
          recorded++;
        }
        await note.drop();
      }
      return recorded;
    },
  };
}
