import { lstat } from 'node:fs/promises';
import type { Seen } from './next-step.ts';

/** What stands at `path` now, for the recovery's decisions; null where nothing does or it cannot be read. */
export async function seenAt(path: string): Promise<Seen | null> {
  const st = await lstat(path).catch(() => null);
  return st && { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, isFile: st.isFile() };
}
