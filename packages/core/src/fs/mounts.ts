import { posix } from 'node:path';

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

/** `path` is `folder` or lies in it; both absolute and normalised. */
export const under = (path: string, folder: string) => folder === '/' || path === folder || path.startsWith(`${folder}/`);

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
