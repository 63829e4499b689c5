import { readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import type { Drive } from '@mo/shared';
import type { Section } from './classify.ts';
import type { FolderStats } from './scan-options.ts';
import { RECYCLE_FOLDER } from '../recycle/bin-layout.ts';

/** A library folder: a drive's child named in the config as a movie or TV folder. */
export interface LibraryRoot {
  drive: Drive;
  root: string;
  section: Section;
}

/** A drive or library folder that could not be read, reported where it comes in the walk's order. */
export interface UnreadableRoot {
  unreadable: string;
  error: unknown;
}

/**
 * Which section a drive's child holds, by its name; null for a folder the library does not own
 * (Downloads), and for the recycle bin even where the config names it: the index never counts it.
 */
export function sectionOf(name: string, movieFolders: readonly string[], tvFolders: readonly string[]): Section | null {
  if (name === RECYCLE_FOLDER) return null;
  return movieFolders.includes(name) ? 'movies' : tvFolders.includes(name) ? 'tv' : null;
}

/**
 * The library folders to walk, in order (only the drives' children named in the config), and the
 * drives that could not be read, where they come.
 */
export function libraryRoots(drives: readonly Drive[], movieFolders: readonly string[], tvFolders: readonly string[]): (LibraryRoot | UnreadableRoot)[] {
  const roots: (LibraryRoot | UnreadableRoot)[] = [];
  for (const drive of drives) {
    let children: Dirent[];
    try {
      children = readdirSync(drive.path, { withFileTypes: true });
    } catch (error) {
      roots.push({ unreadable: drive.path, error });
      continue;
    }
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) {
      const section = sectionOf(child.name, movieFolders, tvFolders);
      if (section) roots.push({ drive, root: `${drive.path.replace(/\/+$/, '')}/${child.name}`, section });
    }
  }
  return roots;
}

/**
 * Every folder a scan enters, by device and inode: each is entered once, so symlink loops end, and
 * a link to a folder above the library folders (`above`, known once they are) is skipped as ELOOP.
 */
export interface FolderClaims {
  /** Whether to walk the folder: false when it was entered already or lies above the library folders. */
  enter(path: string, st: FolderStats): boolean;
  setAbove(above: ReadonlySet<string>): void;
}

export function folderClaims(skip: (path: string, err: unknown) => void): FolderClaims {
  const visited = new Set<string>();
  let above: ReadonlySet<string> = new Set();
  return {
    enter(path, st) {
      const key = `${st.dev}:${st.ino}`;
      if (above.has(key)) {
        skip(path, { code: 'ELOOP' });
        return false;
      }
      if (visited.has(key)) return false;
      visited.add(key);
      return true;
    },
    setAbove(keys) {
      above = keys;
    },
  };
}

/**
 * Each library folder claimed before any is walked: a link in one to another (`Movies/Shows -> ../TV`)
 * is not followed, and the other is walked where it is, in its own section. One that cannot be
 * stat'ed is unreadable; one that is no folder, or was claimed already, is left out.
 */
export function claimRoots(roots: readonly (LibraryRoot | UnreadableRoot)[], claims: FolderClaims): ((LibraryRoot & { st: Stats }) | UnreadableRoot)[] {
  const walks: ((LibraryRoot & { st: Stats }) | UnreadableRoot)[] = [];
  for (const r of roots) {
    if (!('root' in r)) {
      walks.push(r);
      continue;
    }
    let st: Stats;
    try {
      st = statSync(r.root);
    } catch (error) {
      walks.push({ unreadable: r.root, error });
      continue;
    }
    if (st.isDirectory() && claims.enter(r.root, st)) walks.push({ ...r, st });
  }
  return walks;
}
