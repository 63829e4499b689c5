import { lstat, rm, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { createNoteFolder } from '../fs/note-folder.ts';
import { sameStamp, type Transfer, type TransferJournal } from '../fs/transfer.ts';
import { fsyncPath } from '../fs/fsync.ts';

const transferSchema = z.object({
  source: z.string(),
  destination: z.string(),
  temp: z.string(),
  size: z.number(),
  mtime_ms: z.number(),
  source_dev: z.number().optional(),
  source_ino: z.number().optional(),
  temp_dev: z.number().optional(),
  temp_ino: z.number().optional(),
  keep_source: z.boolean().optional(),
});

export interface Recovered {
  source: string;
  destination: string;
  /**
   * `completed`: the copy was in place, the source is now removed (kept, for a `keep_source`
   * copy); `undone`: the temp file is gone, the source stays.
   */
  outcome: 'completed' | 'undone';
}

export interface FileTransferJournal extends TransferJournal {
  /**
   * Settles every copy a killed process left: its temp file goes, and a copy that was already in
   * place (the temp's inode, with the size and mtime of the untouched source) has its source removed. Only call it
   * while no other pass runs (under the pass lock), or a live copy would lose its temp file.
   */
  recover(): Promise<Recovered[]>;
}

async function statOrNull(path: string) {
  return lstat(path).catch(() => null);
}

/** One JSON note per copy in flight, in `dir` (under paths.data, shared by every worker). */
export function createTransferJournal(dir: string): FileTransferJournal {
  const notes = createNoteFolder(dir, transferSchema);
  return {
    async begin(transfer: Transfer) {
      const drop = await notes.add(transfer);
      return { end: drop, tempMade: ({ dev, ino }) => drop.rewrite({ ...transfer, temp_dev: dev, temp_ino: ino }) };
    },

    async recover() {
      const out: Recovered[] = [];
      for (const note of await notes.list()) {
        const t = note.value;
        if (!t) {
          await note.drop();
          continue;
        }
        await rm(t.temp, { force: true });
        const [source, destination] = await Promise.all([statOrNull(t.source), statOrNull(t.destination)]);
        const planned = { size: t.size, mtimeMs: t.mtime_ms };
        // The copy is linked into place only once verified, so the temp's own inode at the
        // destination with the planned size and mtime is that copy. Any other file there (one
        // planted with the same size and mtime), or a note that never named its temp, is not.
        const placed =
          destination !== null && t.temp_ino !== undefined && destination.dev === t.temp_dev && destination.ino === t.temp_ino && sameStamp(destination, planned);
        const sourceAsPlanned =
          source !== null && sameStamp(source, planned) && (t.source_ino === undefined || (source.dev === t.source_dev && source.ino === t.source_ino));
        // A copy for hardlink or copy mode keeps its source: placed, it is complete as it is.
        if (placed && !t.keep_source && sourceAsPlanned) {
          await unlink(t.source);
          await fsyncPath(dirname(t.source));
        }
        const outcome: Recovered['outcome'] = placed && (t.keep_source || !(await statOrNull(t.source))) ? 'completed' : 'undone';
        await note.drop();
        out.push({ source: t.source, destination: t.destination, outcome });
      }
      return out;
    },
  };
}
