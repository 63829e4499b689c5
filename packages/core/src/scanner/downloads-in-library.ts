import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import type { Drive } from '@mo/shared';
import { AppError } from '../errors.ts';

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

/** Where a path lies on its filesystem: the device, the path from that filesystem's root, and the mount. */
export interface FsLocation {
  device: string;
  path: string;
  mount: Mount;
}

export interface Mount {
  /** The mount's own id: two bind mounts of one filesystem share `device` but not this. */
  id: string;
  device: string;
  /** The folder of the filesystem mounted there (`/` unless a bind mount of a folder). */
  root: string;
  point: string;
  type: string;
}

// mountinfo writes a space, tab, newline and backslash in a path as octal escapes.
const unescapeMountPath = (s: string) => s.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8)));

/** The mounts of a `/proc/self/mountinfo` text, in its order (a later mount hides an earlier one). */
export function parseMountInfo(text: string): Mount[] {
  const mounts: Mount[] = [];
  for (const line of text.split('\n')) {
    const f = line.split(' ');
    const dash = f.indexOf('-', 6);
    if (f.length < 5 || !/^\d+:\d+$/.test(f[2]!)) continue;
    mounts.push({ id: f[0]!, device: f[2]!, root: unescapeMountPath(f[3]!), point: unescapeMountPath(f[4]!), type: dash > 0 ? (f[dash + 1] ?? '') : '' });
  }
  return mounts;
}

const trustsRoots = (m: Mount) => !/^nfs/.test(m.type);
const under = (path: string, folder: string) => folder === '/' || path === folder || path.startsWith(`${folder}/`);

/**
 * A real path's filesystem and its path there, by the mount that holds it: a bind mount of a
 * library's subfolder (Docker's `/srv/media/Movies/downloads:/downloads`) is found inside the
 * library, which its own parent folders (those of the mount point) never show.
 */
export function locate(realPath: string, mounts: readonly Mount[]): FsLocation | null {
  let best: Mount | null = null;
  for (const m of mounts) if (under(realPath, m.point) && (best === null || m.point.length >= best.point.length)) best = m;
  if (best === null) return null;
  return { device: best.device, path: posix.join(best.root, posix.relative(best.point, realPath) || '.'), mount: best };
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
