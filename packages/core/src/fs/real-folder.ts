import { constants, lstatSync } from 'node:fs';
import { lstat, mkdir, open, type FileHandle } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fsyncPath } from './fsync.ts';
import type { Ownership } from './ownership.ts';

/** A folder on the way to a destination is a symbolic link: nothing is placed through it. */
export class LinkOnTheWayError extends Error {
  constructor(readonly link: string) {
    super(`${link} is a symbolic link: files are placed only through real folders`);
  }
}

/** A folder held open: names in it are reached through the descriptor, whatever its path leads to now. */
export interface RealFolder {
  /** `name` in this very folder, for open, link, rename, unlink and mkdir (none follows a link as their last part). */
  at(name: string): string;
  /** Flushes the folder's entries. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

function steps(root: string, dir: string): string[] {
  const rel = relative(resolve(root), resolve(dir));
  if (rel === '') return [];
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw new Error(`${dir} is not inside ${root}`);
  return rel.split(sep);
}

const code = (err: unknown) => (err as NodeJS.ErrnoException).code;

/**
 * Opens `dir` from `root` one folder at a time, each through the descriptor of the one above it
 * and without following a link, making (and giving to `owner`) those that are missing: a folder on
 * the way that is a link (`TV/Show/Season 02` -> `/etc`), even one swapped in while this runs, is
 * refused with LinkOnTheWayError rather than written through. `root` itself (a drive, the downloads
 * folder, as configured) may be a link.
 */
export async function openRealFolder(root: string, dir: string, owner: Ownership): Promise<RealFolder> {
  let path = resolve(root);
  let handle: FileHandle = await open(path, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    for (const name of steps(root, dir)) {
      const at = `/proc/self/fd/${handle.fd}/${name}`;
      const child = join(path, name);
      const openChild = () => open(at, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
      let next: FileHandle;
      try {
        next = await openChild();
      } catch (err) {
        if (code(err) === 'ENOTDIR') {
          const st = await lstat(at).catch(() => null);
          if (st?.isSymbolicLink()) throw new LinkOnTheWayError(child);
          throw new Error(`${child} is not a folder`);
        }
        if (code(err) !== 'ENOENT') throw err;
        // Made where the folder above is, whatever its path leads to now; EEXIST: made meanwhile.
        await mkdir(at).catch((e: unknown) => {
          if (code(e) !== 'EEXIST') throw e;
        });
        next = await openChild().catch(async (e: unknown) => {
          if (code(e) === 'ENOTDIR' && (await lstat(at).catch(() => null))?.isSymbolicLink()) throw new LinkOnTheWayError(child);
          throw e;
        });
        // Through the descriptor: whoever may write the folder above could swap the name for a link.
        if (owner.uid !== null || owner.gid !== null) await next.chown(owner.uid ?? -1, owner.gid ?? -1);
      }
      await handle.close();
      handle = next;
      path = child;
    }
  } catch (err) {
    await handle.close();
    throw err;
  }
  const held = handle;
  return {
    at: (name) => `/proc/self/fd/${held.fd}/${name}`,
    sync: () => fsyncPath(`/proc/self/fd/${held.fd}`),
    close: () => held.close(),
  };
}

/**
 * The first folder from `root` down to `dir` that is a symbolic link, or null: what a plan reports
 * before anything moves. openRealFolder checks again when the file is placed.
 */
export function linkOnTheWay(root: string, dir: string): string | null {
  let path = resolve(root);
  for (const name of steps(root, dir)) {
    path = join(path, name);
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st) return null;
    if (st.isSymbolicLink()) return path;
  }
  return null;
}
