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
   * place (same size and mtime as the untouched source) has its source removed. Only call it
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
    begin: (transfer: Transfer) => notes.add(transfer),

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
        // The copy is renamed into place only once verified, so a destination with the planned
        // size and mtime is that copy.
        const placed = destination !== null && sameStamp(destination, planned);
        // A copy for hardlink or copy mode keeps its source: placed, it is complete as it is.
        if (placed && !t.keep_source && source && sameStamp(source, planned)) {
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
