// Real filesystems for the transfer tests: a move between two of them must really meet EXDEV, and
// a full disk must really answer ENOSPC. Where the machine cannot provide one, `skip` says why.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TwoFilesystems {
  /** A folder on tmpfs (/dev/shm): downloads go here. */
  shm: string;
  /** A folder under os.tmpdir(), on the disk: drives go here. */
  disk: string;
  /** Why cross-filesystem tests cannot run here, or null when they can. */
  skip: string | null;
  cleanup(): void;
}

export function twoFilesystems(tag: string): TwoFilesystems {
  const disk = mkdtempSync(join(tmpdir(), `mo-${tag}-`));
  let shm: string;
  try {
    shm = mkdtempSync(join('/dev/shm', `mo-${tag}-`));
  } catch (err) {
    shm = mkdtempSync(join(tmpdir(), `mo-${tag}-shm-`));
    return { shm, disk, skip: `cross-filesystem tests skipped: /dev/shm is not usable (${(err as Error).message})`, cleanup: () => clean(shm, disk) };
  }
  const same = statSync(shm).dev === statSync(disk).dev;
  const skip = same ? `cross-filesystem tests skipped: /dev/shm and ${tmpdir()} are one filesystem here (same st_dev)` : null;
  return { shm, disk, skip, cleanup: () => clean(shm, disk) };
}

function clean(...dirs: string[]) {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}

export interface SmallDisk {
  path: string;
  cleanup(): void;
}

/** A tmpfs of `bytes`, mounted for the test (needs root with CAP_SYS_ADMIN); null where that is refused. */
export function smallDisk(bytes: number): SmallDisk | null {
  const path = mkdtempSync(join(tmpdir(), 'mo-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', path], { stdio: 'ignore' });
  } catch {
    rmSync(path, { recursive: true, force: true });
    return null;
  }
  mkdirSync(join(path, 'Movies'));
  return {
    path,
    cleanup() {
      execFileSync('umount', [path], { stdio: 'ignore' });
      rmSync(path, { recursive: true, force: true });
    },
  };
}

/** chattr +i on ext4 and the like, so that even root cannot remove a file there; false where refused. */
export function makeImmutable(path: string, on: boolean): boolean {
  try {
    execFileSync('chattr', [on ? '+i' : '-i', path], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
