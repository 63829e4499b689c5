import { lstat } from 'node:fs/promises';
import type { SeenPath } from '../history/undo-plan.ts';
import type { Seen } from './next-step.ts';

/** What stands at `path` now, for the recovery's decisions; null where nothing does or it cannot be read. */
export async function seenAt(path: string): Promise<Seen | null> {
  const st = await lstat(path).catch(() => null);
  return st && { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, isFile: st.isFile() };
}

/** The same for undo's plan, with the link count; only a path that is not there (or under a file) is null, any other error throws. */
export async function seenForUndo(path: string): Promise<SeenPath | null> {
  const st = await lstat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
    throw err;
  });
  return st && { dev: st.dev, ino: st.ino, nlink: st.nlink, size: st.size, mtimeMs: st.mtimeMs, isFile: st.isFile() };
}
