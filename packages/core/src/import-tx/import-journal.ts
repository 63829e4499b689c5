import { lstat } from 'node:fs/promises';
import { z } from 'zod';
import { TRANSFER_MODES } from '@mo/shared';
import { createNoteFolder } from '../fs/note-folder.ts';
import type { HistoryLog } from '../history/history-log.ts';
import type { FileIdentity, PlacedFile } from '../history/history-record.ts';

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

const statOrNull = (path: string) => lstat(path).catch(() => null);

/**
 * Where `p` is now in the library as its import left it: the file at the destination is the
 * download's own inode (a rename, a link) or the one its copy was made on, with the download's size
 * and mtime, and for a move the download is gone from its path. Never another file of the same size
 * and mtime: the owner's own would be recorded as imported, and an undo would remove it.
 * null: not placed; the next pass plans it again.
 */
async function landed(p: Planned, move: boolean, placed?: ReadonlyMap<string, { dev: number; ino: number }>): Promise<PlacedFile | null> {
  const to = await statOrNull(p.destination);
  if (!to?.isFile() || to.size !== p.from.size || Math.abs(to.mtimeMs - p.from.mtime_ms) >= 1) return null;
  const own = to.dev === p.from.dev && to.ino === p.from.ino;
  const is = (id: { dev: number; ino: number } | undefined) => id !== undefined && to.dev === id.dev && to.ino === id.ino;
  if (!own && !is(p.made) && !is(placed?.get(p.destination))) return null;
  const source = await statOrNull(p.source);
  if (move && source && source.dev === p.from.dev && source.ino === p.from.ino && !own) return null;
  const { made: _made, ...planned } = p;
  const identity: FileIdentity = { dev: to.dev, ino: to.ino, size: to.size, mtime_ms: to.mtimeMs };
  return { ...planned, to: identity };
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
        const known = n && history.records().some((r) => r.source === n.source && r.destination === n.destination && r.from.ino === n.from.ino && r.from.size === n.from.size);
        const move = n?.mode === 'move';
        const video = n && !known ? await landed(n, move) : null;
        if (n && video) {
          const sidecars: PlacedFile[] = [];
          for (const s of n.sidecars) {
            const sidecar = await landed(s, move, placed);
            if (sidecar) sidecars.push(sidecar);
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
