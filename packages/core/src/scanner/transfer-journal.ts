import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readFile, rm, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { removeStaleTempsIn, writeFileAtomic } from '../fs/atomic-write.ts';
import { sameStamp, type Transfer, type TransferJournal } from '../fs/transfer.ts';
import { fsyncPath } from '../fs/fsync.ts';
import { readdirIfExists } from '../fs/read-dir.ts';

const transferSchema = z.object({
  source: z.string(),
  destination: z.string(),
  temp: z.string(),
  size: z.number(),
  mtime_ms: z.number(),
});

export interface Recovered {
  source: string;
  destination: string;
  /** `completed`: the copy was in place, the source is now removed; `undone`: the temp file is gone, the source stays. */
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

async function readNote(note: string): Promise<Transfer | null> {
  try {
    return transferSchema.parse(JSON.parse(await readFile(note, 'utf8')));
  } catch {
    return null;
  }
}

/** One JSON note per copy in flight, in `dir` (under paths.data, shared by every worker). */
export function createTransferJournal(dir: string): FileTransferJournal {
  return {
    async begin(transfer: Transfer) {
      await mkdir(dir, { recursive: true });
      const note = join(dir, `${Date.now()}-${randomBytes(6).toString('hex')}.json`);
      await writeFileAtomic(note, JSON.stringify(transfer));
      return () => rm(note, { force: true });
    },

    async recover() {
      await removeStaleTempsIn(dir);
      const names = await readdirIfExists(dir);
      const out: Recovered[] = [];
      for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort()) {
        const note = join(dir, name);
        const t = await readNote(note);
        if (!t) {
          await rm(note, { force: true });
          continue;
        }
        await rm(t.temp, { force: true });
        const [source, destination] = await Promise.all([statOrNull(t.source), statOrNull(t.destination)]);
        const planned = { size: t.size, mtimeMs: t.mtime_ms };
        // The copy is renamed into place only once verified, so a destination with the planned
        // size and mtime is that copy.
        const placed = destination !== null && sameStamp(destination, planned);
        if (placed && source && sameStamp(source, planned)) {
          await unlink(t.source);
          await fsyncPath(dirname(t.source));
        }
        const outcome: Recovered['outcome'] = placed && !(await statOrNull(t.source)) ? 'completed' : 'undone';
        await rm(note, { force: true });
        out.push({ source: t.source, destination: t.destination, outcome });
      }
      return out;
    },
  };
}
