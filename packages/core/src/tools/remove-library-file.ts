import { lstat } from 'node:fs/promises';
import type { Config } from '@mo/shared';
import { isFinalError } from '../errors.ts';
import { mapPath, unmapPath, type PathMapping } from '../media/path-map.ts';
import { removeSource } from '../media/safe-replace.ts';
import { recycleFile, type Drive } from '../recycle/recycle-bin.ts';

/**
 * What became of a library file the service removed: gone (recycle_bin off), in the bin at
 * `recycled_to`, or left where it was, with why.
 */
export type Removal = { removed: true; recycled_to: string | null } | { removed: false; reason: string };

/** The configured drives as this box mounts them (transcoder.path_map), for the bin to find the file's drive. */
export function mountedDrives(cfg: Config, map: readonly PathMapping[] = []): Drive[] {
  return cfg.drives.map((d) => ({ name: d.name, path: mapPath(d.path, map) }));
}

/**
 * Removes a library file (`real`, as this box mounts it) only while its name is still inode `ino`:
 * with `library.recycle_bin` on it goes to its drive's bin, never away; a file the bin cannot take
 * (on no drive, a bin on another filesystem) is then left where it is, never deleted. A file
 * already gone counts as removed. `recycled_to` is named as the rest of the service knows it.
 */
export async function removeLibraryFile(opts: { real: string; ino: number; config: Config; map?: readonly PathMapping[] }): Promise<Removal> {
  const map = opts.map ?? [];
  if (!opts.config.library.recycle_bin) {
    return (await removeSource(opts.real, opts.ino))
      ? { removed: true, recycled_to: null }
      : { removed: false, reason: `${opts.real} is not the file that was checked any more (another took its name, or its folder is a link now)` };
  }
  const st = await lstat(opts.real).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (st === null) return { removed: true, recycled_to: null };
  try {
    const [item] = await recycleFile({ drives: mountedDrives(opts.config, map), file: opts.real, ino: opts.ino });
    return { removed: true, recycled_to: unmapPath(item!.path, map) };
  } catch (err) {
    if (isFinalError(err)) return { removed: false, reason: `library.recycle_bin is on and the bin could not take it: ${err.message}` };
    throw err;
  }
}
