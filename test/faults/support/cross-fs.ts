import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CrossFilesystem {
  /** A folder on tmpfs (/dev/shm). */
  shm: string;
  /** A folder on the disk the temp folder is on. */
  disk: string;
  /** Why trials that need a copy across filesystems cannot run here; null when they can. */
  skip: string | null;
  cleanup(): void;
}

/**
 * Two folders on different filesystems, so that a move between them is a verified copy (the long
 * window a kill must land in). `what` names the trials in the skip reason.
 */
export function crossFilesystem(name: string, what: string): CrossFilesystem {
  let skip: string | null = null;
  let shm = '';
  let disk = '';
  try {
    shm = mkdtempSync(`/dev/shm/mo-faults-${name}-`);
    disk = mkdtempSync(join(tmpdir(), `mo-faults-${name}-`));
    if (statSync(shm).dev === statSync(disk).dev) skip = `${what} skipped: /dev/shm and ${tmpdir()} are one filesystem here, so nothing would copy`;
  } catch (err) {
    skip = `${what} skipped: /dev/shm is not usable (${(err as Error).message})`;
  }
  if (skip) console.warn(skip);
  return {
    shm,
    disk,
    skip,
    cleanup() {
      if (shm) rmSync(shm, { recursive: true, force: true });
      if (disk) rmSync(disk, { recursive: true, force: true });
    },
  };
}
