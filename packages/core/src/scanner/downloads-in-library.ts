import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Drive } from '@mo/shared';
import { AppError } from '../errors.ts';
import { locate, parseMountInfo, under, type Mount } from '../fs/mounts.ts';

/**
 * A downloads folder that is a library folder or lies in one: every pass would take the library's
 * own files for downloads and plan each onto itself, or move one whose folder is spelt otherwise
 * within the library. The settings route refuses such a folder; this stops a pass that the TOML
 * file, a link or a mount set up so. (A library folder inside the downloads is fine: the walk
 * never enters one.)
 */
export function downloadsInLibraryError(downloads: string, library: string): AppError {
  return new AppError(
    'conflict',
    `the downloads folder ${downloads} lies in the library folder ${library}: a pass would take the library's own files for downloads, so none ran`,
    { key: 'paths.downloads' },
  );
}

/** The library folder, of those given by path, that `downloads` is or lies in; null when none. */
export async function libraryFolderHolding(downloads: string, libraryFolders: readonly string[]): Promise<string | null> {
  const real = await realpath(downloads).catch(() => null);
  if (real === null) return null;
  const libraries = (await Promise.all(libraryFolders.map(async (path) => ({ path, real: await realpath(path).catch(() => null) })))).filter(
    (l): l is { path: string; real: string } => l.real !== null,
  );
  // By identity, up the downloads' own parents: links and a bind mount of a whole library folder.
  const ids = new Map<string, string>();
  for (const l of libraries) {
    const st = await stat(l.real).catch(() => null);
    if (st) ids.set(`${st.dev}:${st.ino}`, l.path);
  }
  for (let dir = real; ; dir = dirname(dir)) {
    const st = await stat(dir).catch(() => null);
    const library = st && ids.get(`${st.dev}:${st.ino}`);
    if (library) return library;
    if (dirname(dir) === dir) break;
  }
  return heldByMount(real, libraries, parseMountInfo(await readFile('/proc/self/mountinfo', 'utf8').catch(() => '')));
}

const trustsRoots = (m: Mount) => !/^nfs/.test(m.type);

/**
 * By where each lies on its filesystem: a bind mount of a folder inside a library folder, which
 * only a downloads folder under a mount of a folder (root not `/`) can be. NFS writes `/` as every
 * mount's root and shares one device among a server's exports: it says nothing here.
 */
export function heldByMount(downloads: string, libraries: readonly { path: string; real: string }[], mounts: readonly Mount[]): string | null {
  const at = locate(downloads, mounts);
  if (at === null || at.mount.root === '/' || !trustsRoots(at.mount)) return null;
  for (const l of libraries) {
    const lib = locate(l.real, mounts);
    if (lib !== null && trustsRoots(lib.mount) && lib.device === at.device && under(at.path, lib.path)) return l.path;
  }
  return null;
}

/** The library folders the config names on each drive. */
export function libraryFoldersOf(drives: readonly Drive[], folders: readonly string[]): string[] {
  return drives.flatMap((d) => folders.map((f) => join(d.path, f)));
}
