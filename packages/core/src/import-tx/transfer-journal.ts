import { rm, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { createNoteFolder } from '../fs/note-folder.ts';
import type { Transfer, TransferJournal } from '../fs/transfer.ts';
import { settleCopy } from './next-step.ts';
import { seenAt } from './seen.ts';
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
        const settled = settleCopy(t, { source: await seenAt(t.source), destination: await seenAt(t.destination) });
        if (settled.removeSource) {
          await unlink(t.source);
          await fsyncPath(dirname(t.source));
        }
        await note.drop();
        out.push({ source: t.source, destination: t.destination, outcome: settled.outcome });
      }
      return out;
    },
  };
}
