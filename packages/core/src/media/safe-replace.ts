import { constants, type Stats } from 'node:fs';
import { link, lstat, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { AppError } from '../errors.ts';
import { fsyncPath } from '../fs/fsync.ts';
import { pinFolder, type PinnedFolder } from './open-media.ts';

export interface FileStamp {
  ino: number;
  size: number;
  mtimeMs: number;
  mode: number;
  uid: number;
  gid: number;
}

export function statStamp(s: Stats): FileStamp {
  return { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, mode: s.mode & 0o7777, uid: s.uid, gid: s.gid };
}

export async function fileStamp(file: string): Promise<FileStamp> {
  return statStamp(await stat(file));
}

/**
 * Puts a verified `temp` in place of `target` in one rename, after checking that nobody changed
 * `target` since `before` was taken (another job on the same file would otherwise be undone
 * silently). The new file gets the old one's permissions and, where allowed, its owner.
 * `keepOld` runs once every check has passed, right before the rename (the old file linked into
 * the recycle bin): a failure there leaves `target` as it was.
 */
export async function replaceVerified(
  temp: string,
  target: string,
  before: FileStamp,
  verified: Pick<Stats, 'dev' | 'ino'>,
  keepOld?: () => Promise<void>,
): Promise<void> {
  // Through a descriptor of the temp itself, never its name: whoever may write the folder could
  // have put a link there since it was verified, and chmod and chown by name follow it.
  const { handle, made } = await openTemp(temp, verified);
  try {
    await handle.sync();
    const now = await fileStamp(target);
    if (now.ino !== before.ino || now.size !== before.size || now.mtimeMs !== before.mtimeMs) {
      throw new AppError('conflict', `${target} changed while it was being remuxed; left as it is now`);
    }
    await handle.chmod(before.mode);
    await handle.chown(before.uid, before.gid).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPERM') throw err;
    });
    // The name still leads to that file: no link is put in the target's place.
    if (!sameFile(await lstat(temp), made)) throw swapped(temp);
  } finally {
    await handle.close();
  }
  await keepOld?.();
  await rename(temp, target);
  await fsyncPath(dirname(target));
}

const swapped = (temp: string) =>
  new AppError('conflict', `${temp} is not the file that was verified now (a link or another file took its name); nothing was replaced`);

const sameFile = (a: Pick<Stats, 'dev' | 'ino'>, b: Pick<Stats, 'dev' | 'ino'>) => a.dev === b.dev && a.ino === b.ino;

/** The temp opened without following a link, and checked to be the file that was verified (`verified`, as ffprobe read it). */
async function openTemp(temp: string, verified: Pick<Stats, 'dev' | 'ino'>): Promise<{ handle: FileHandle; made: Stats }> {
  const handle = await open(temp, constants.O_RDONLY | constants.O_NOFOLLOW).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ELOOP') throw swapped(temp);
    throw err;
  });
  const made = await handle.stat().catch(async (err: unknown) => {
    await handle.close();
    throw err;
  });
  if (!made.isFile() || !sameFile(made, verified)) {
    await handle.close();
    throw swapped(temp);
  }
  return { handle, made };
}

/**
 * Puts a verified `temp` at `dest`, which must not exist: a hard link cannot overwrite, so a file
 * that appeared at `dest` meanwhile is kept and this fails instead.
 */
export async function placeVerified(temp: string, dest: string, verified: Pick<Stats, 'dev' | 'ino'>): Promise<void> {
  const exists = () => new AppError('conflict', `${dest} already exists; not overwritten`);
  // The file verified, whatever its name leads to by now (see replaceVerified).
  const { handle, made } = await openTemp(temp, verified);
  try {
    await handle.sync();
    if (!sameFile(await lstat(temp), made)) throw swapped(temp);
    try {
      await link(temp, dest);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw exists();
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
      // No hard links here (exFAT, some network shares): check, then rename, with a small window between.
      if (
        await stat(dest).then(
          () => true,
          () => false,
        )
      )
        throw exists();
      await rename(temp, dest);
    }
    // Swapped between the check and the link: what was put there is taken back.
    const placed = await lstat(dest);
    if (!sameFile(placed, made)) {
      if (!placed.isFile()) await unlink(dest);
      throw swapped(temp);
    }
    await unlink(temp).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  } finally {
    await handle.close();
  }
  await fsyncPath(dirname(dest));
}

/**
 * Deletes the source of a finished transcode through its folder held open, and only while its name
 * is still the file that was read (`ino`): a folder swapped for a link, or another file put in its
 * place, is left alone. True when it was removed or was already gone; false when it was left.
 */
export async function removeSource(file: string, ino: number): Promise<boolean> {
  let folder: PinnedFolder;
  try {
    folder = await pinFolder(dirname(file));
  } catch (err) {
    if (err instanceof AppError && err.code === 'not_found') return true;
    if (err instanceof AppError && err.code === 'forbidden') return false;
    throw err;
  }
  try {
    const name = folder.at(basename(file));
    const now = await lstat(name).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (now === null) return true;
    if (!now.isFile() || now.ino !== ino) return false;
    await unlink(name);
    await fsyncPath(dirname(name));
    return true;
  } finally {
    await folder.close();
  }
}
