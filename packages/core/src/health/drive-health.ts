import { opendir } from 'node:fs/promises';
import { freeSpace } from '../fs/free-space.ts';
import type { DriveHealth } from './health-warnings.ts';

/**
 * How a drive's folder looks to the System page. A path that cannot be read is `missing`; an empty
 * folder is `empty`, because that is what a mount point shows while its disk is not mounted, and
 * files written there land on the disk underneath. Only the first entry is read, however large the drive.
 */
export async function driveHealth(drive: { name: string; path: string }): Promise<DriveHealth> {
  const space = await freeSpace(drive.path);
  if (space === null) return { name: drive.name, path: drive.path, state: 'missing', free_bytes: null, total_bytes: null };
  let empty = false;
  try {
    const dir = await opendir(drive.path);
    empty = (await dir.read()) === null;
    await dir.close();
  } catch {
    return { name: drive.name, path: drive.path, state: 'missing', free_bytes: null, total_bytes: null };
  }
  return { name: drive.name, path: drive.path, state: empty ? 'empty' : 'mounted', ...space };
}
