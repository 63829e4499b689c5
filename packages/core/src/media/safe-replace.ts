import type { Stats } from 'node:fs';
import { chown, chmod, link, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AppError } from '../errors.ts';
import { fsyncPath } from '../fs/fsync.ts';

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
 */
export async function replaceVerified(temp: string, target: string, before: FileStamp): Promise<void> {
  await fsyncPath(temp);
  const now = await fileStamp(target);
  if (now.ino !== before.ino || now.size !== before.size || now.mtimeMs !== before.mtimeMs) {
    throw new AppError('conflict', `${target} changed while it was being remuxed; left as it is now`);
  }
  await chmod(temp, before.mode);
  await chown(temp, before.uid, before.gid).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPERM') throw err;
  });
  await rename(temp, target);
  await fsyncPath(dirname(target));
}

/**
 * Puts a verified `temp` at `dest`, which must not exist: a hard link cannot overwrite, so a file
 * that appeared at `dest` meanwhile is kept and this fails instead.
 */
export async function placeVerified(temp: string, dest: string): Promise<void> {
  await fsyncPath(temp);
  const exists = () => new AppError('conflict', `${dest} already exists; not overwritten`);
  try {
    await link(temp, dest);
    await unlink(temp);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw exists();
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
    // No hard links here (exFAT, some network shares): check, then rename, with a small window between.
    if (await stat(dest).then(() => true, () => false)) throw exists();
    await rename(temp, dest);
  }
  await fsyncPath(dirname(dest));
}
