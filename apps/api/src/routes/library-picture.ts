import { createHash } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import type { Context } from 'hono';
import { AppError } from '@mo/core';
import { isInside } from '@mo/core/fs';

/** Posters are a few hundred kilobytes; a larger file beside a movie is not one worth sending to a thumbnail. */
export const MAX_PICTURE_BYTES = 8 * 1024 * 1024;

const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The image type the first bytes say, whatever the name says; null for anything else. */
export function pictureType(head: Uint8Array): 'image/jpeg' | 'image/png' | null {
  const starts = (magic: number[]) => magic.every((b, i) => head[i] === b);
  return starts(JPEG) ? 'image/jpeg' : starts(PNG) ? 'image/png' : null;
}

const gone = (path: string, why: string) => new AppError('not_found', `no picture served for ${path}: ${why}`);

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  return !!ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/**
 * Opens the picture only once its real path is known to lie inside a drive and to be a plain file
 * (so no device or FIFO elsewhere is ever opened), then proves the handle has that very file open
 * (same device and inode): a link swapped between the check and the open reads nothing outside.
 */
async function openInsideDrives(path: string, drives: readonly string[]): Promise<{ handle: FileHandle; size: number; stamp: string }> {
  let real: string;
  let named: Stats;
  try {
    real = await realpath(path);
    named = await stat(real);
  } catch {
    throw gone(path, 'it cannot be opened');
  }
  const roots = await Promise.all(drives.map((d) => realpath(d).catch(() => null)));
  if (!roots.some((r) => r !== null && isInside(real, r))) throw new AppError('forbidden', `the picture of ${path} resolves outside the drives`);
  if (!named.isFile()) throw gone(path, 'not a file');
  let handle: FileHandle;
  try {
    // Non-blocking and not through a link: the name was resolved above, and only that file is wanted.
    handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    throw gone(path, 'it changed while it was read');
  }
  try {
    const opened = await handle.stat();
    if (named.dev !== opened.dev || named.ino !== opened.ino || !opened.isFile()) throw gone(path, 'it changed while it was read');
    if (opened.size > MAX_PICTURE_BYTES) throw gone(path, `larger than ${MAX_PICTURE_BYTES} bytes`);
    return { handle, size: opened.size, stamp: `${opened.dev}:${opened.ino}:${opened.size}:${opened.mtimeMs}` };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** The picture's bytes with its type from its first bytes, cacheable a while and revalidated by ETag. */
export async function sendPicture(c: Context, path: string, drives: readonly string[]): Promise<Response> {
  const { handle, size, stamp } = await openInsideDrives(path, drives);
  try {
    const etag = `"${createHash('sha256').update(stamp).digest('base64url').slice(0, 27)}"`;
    const headers = { ETag: etag, 'Cache-Control': 'private, max-age=300', 'X-Content-Type-Options': 'nosniff' };
    if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    // No more than the size checked: the file may grow while it is read.
    const buf = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buf, 0, size, 0);
    const bytes = buf.subarray(0, bytesRead);
    const type = pictureType(bytes);
    if (!type) throw gone(path, 'not a JPEG or PNG image');
    return c.body(new Uint8Array(bytes), 200, { ...headers, 'Content-Type': type, 'Content-Security-Policy': "default-src 'none'" });
  } finally {
    await handle.close();
  }
}
