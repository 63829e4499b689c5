import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** `root` itself or a path below it; both absolute and normalised. "..x" is a name inside, not a climb. */
export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

export class UnresolvablePathError extends Error {}

/**
 * The real path of `path` with symlinks followed. A path that does not exist yet is its nearest
 * existing ancestor's real path plus the rest, since that ancestor decides where it would be made.
 * A dangling symlink on the way is refused: its target could be created anywhere later.
 */
export async function realPathOf(path: string): Promise<string> {
  const missing: string[] = [];
  let at = resolve(path);
  for (;;) {
    try {
      return join(await realpath(at), ...missing.reverse());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new UnresolvablePathError(`cannot be resolved (${code ?? 'error'})`);
      const link = await lstat(at).catch(() => null);
      if (link?.isSymbolicLink()) throw new UnresolvablePathError('holds a symbolic link to a missing target');
      if (at === '/') return join('/', ...missing.reverse());
      missing.push(basename(at));
      at = dirname(at);
    }
  }
}
