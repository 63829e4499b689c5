import { realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { Config } from '@mo/shared';
import { AppError } from '../errors.ts';

export interface GuardedPath {
  /** The path as asked for, normalised ("a/../b" folded); what answers echo back. */
  requested: string;
  /** Symlinks followed: the file every tool must open, so a swapped link cannot redirect it. */
  real: string;
}

export interface PathGuardOptions {
  /** Folders a path must lie in once symlinks are followed. */
  roots: readonly string[];
  /** Lower-case extensions with their dot that count as media. */
  extensions: readonly string[];
}

/** CONTRACT.md: media paths must lie under paths.downloads or a drive. */
export function mediaRoots(config: Pick<Config, 'paths' | 'drives'>): string[] {
  return [config.paths.downloads, ...config.drives.map((d) => d.path)];
}

function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  // "..x" is a name inside; only ".." itself or "../…" climbs out.
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

const bad = (message: string) => new AppError('bad_request', `path: ${message}`, { key: 'path' });

/**
 * The one check every endpoint that takes a file path goes through: 400 for a missing, relative,
 * NUL-carrying or non-media path, 403 outside the roots (symlinks followed), 404 when absent.
 * Outside paths get 403 whether or not they exist, so the answer says nothing about them.
 */
export async function guardMediaPath(raw: unknown, opts: PathGuardOptions): Promise<GuardedPath> {
  if (typeof raw !== 'string' || raw === '') throw bad('required');
  if (raw.includes('\0')) throw bad('must not contain NUL bytes');
  if (!isAbsolute(raw)) throw bad('must be an absolute path');
  const requested = resolve(raw);
  const roots = (await Promise.all(opts.roots.map((r) => realpath(r).catch(() => null)))).filter((r): r is string => r !== null);
  const nominallyInside = [...opts.roots, ...roots].some((r) => inside(requested, r));

  let real: string;
  try {
    real = await realpath(requested);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (!nominallyInside) throw new AppError('forbidden', 'path: outside the downloads folder and the media drives', { key: 'path' });
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new AppError('not_found', `path: no such file: ${requested}`, { key: 'path' });
    if (code === 'ELOOP') throw bad('too many levels of symbolic links');
    throw new AppError('forbidden', `path: cannot be read (${code ?? 'error'})`, { key: 'path' });
  }
  if (!roots.some((r) => inside(real, r))) {
    throw new AppError('forbidden', 'path: outside the downloads folder and the media drives', { key: 'path' });
  }
  // The file may go between realpath and stat (a folder renamed or swapped mid-request).
  const info = await stat(real).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') throw new AppError('not_found', `path: no such file: ${requested}`, { key: 'path' });
    throw err;
  });
  if (!info.isFile() || !opts.extensions.includes(extname(real).toLowerCase())) {
    throw bad(`not a media file (media files end in ${opts.extensions.join(', ')})`);
  }
  return { requested, real };
}
