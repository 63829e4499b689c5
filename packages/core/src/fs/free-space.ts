import { statfs } from 'node:fs/promises';

export interface FreeSpace {
  /** What an unprivileged writer may still use (statfs bavail); root's reserved blocks are not counted. */
  free_bytes: number;
  total_bytes: number;
}

/** null when the path cannot be read (an unmounted or missing drive). */
export async function freeSpace(path: string): Promise<FreeSpace | null> {
  try {
    const s = await statfs(path);
    return { free_bytes: s.bavail * s.bsize, total_bytes: s.blocks * s.bsize };
  } catch {
    return null;
  }
}
