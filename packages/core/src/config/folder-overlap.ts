import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { KeyIssue } from '../errors.ts';
import { parseMountInfo, type Mount } from '../fs/mounts.ts';
import { heldByMount } from '../scanner/downloads-in-library.ts';
import { isInside, realPathOf } from '../fs/real-path.ts';

/** One of the service's folders, by the settings key that names it. */
export interface NamedFolder {
  key: string;
  /** How a refusal speaks of it: "the data folder, which holds state.json and the API key". */
  what: string;
  path: string;
  /** Set by the patch to a path other than the config file's: only a pair with such a side is judged. */
  changed: boolean;
  /**
   * A downloads folder and a drive may overlap: the downloads-in-library rule judges those by the
   * library folders, which are all the scanner must not take for downloads.
   */
  kind: 'downloads' | 'drive' | 'other';
}

interface Located extends NamedFolder {
  real: string;
  /** Device and inode of the folder itself, when it exists. */
  id: string | null;
  /** Of the folder and each existing folder above it: what it lies in, whatever links or mounts say. */
  within: Set<string>;
}

const idOf = (st: { dev: number; ino: number }) => `${st.dev}:${st.ino}`;

async function locate(folder: NamedFolder): Promise<Located> {
  const real = await realPathOf(folder.path).catch(() => resolve(folder.path));
  const within = new Set<string>();
  let id: string | null = null;
  for (let dir = real; ; dir = dirname(dir)) {
    const st = await stat(dir).catch(() => null);
    if (st) {
      within.add(idOf(st));
      if (dir === real) id = idOf(st);
    }
    if (dirname(dir) === dir) break;
  }
  return { ...folder, real, id, within };
}

/** `a` is `b` or lies in it: by path, by identity up its own folders, or through a bind mount of a folder of `b`. */
function liesIn(a: Located, b: Located, mounts: readonly Mount[]): boolean {
  if (isInside(a.real, b.real)) return true;
  if (b.id !== null && a.within.has(b.id)) return true;
  return heldByMount(a.real, [{ path: b.key, real: b.real }], mounts) !== null;
}

/**
 * The first overlap among the drives, downloads, config and data folders that a patch brings in:
 * one the same as another or lying in it. A drive set to the data folder would have library tools
 * write and delete beside state.json and the API key, two drives on one folder index each file
 * twice (and offer one as the other's duplicate), and a config folder that overlaps the downloads
 * would serve a downloaded stylesheet to the owner. The key named is the changed side.
 */
export async function folderOverlap(folders: readonly NamedFolder[]): Promise<KeyIssue | null> {
  if (!folders.some((f) => f.changed)) return null;
  const located = await Promise.all(folders.map(locate));
  const mounts = parseMountInfo(await readFile('/proc/self/mountinfo', 'utf8').catch(() => ''));
  for (const a of located) {
    if (!a.changed) continue;
    for (const b of located) {
      if (a === b || (a.kind !== 'other' && b.kind !== 'other' && a.kind !== b.kind)) continue;
      const inB = liesIn(a, b, mounts);
      const holdsB = liesIn(b, a, mounts);
      if (!inB && !holdsB) continue;
      const relation = inB && holdsB ? 'is' : inB ? 'lies in' : 'holds';
      return { path: a.key, message: `${a.real} ${relation} ${b.key} (${b.real}), ${b.what}: the drives, downloads, config and data folders must not overlap` };
    }
  }
  return null;
}
