import { basename } from 'node:path';
import type { LibraryIndex } from '@mo/shared';
import { titleYearOfFolder } from '../library/classify.ts';
import { normalizeTitle } from '../parse/release-name.ts';
import type { ExistingFolder, Section } from './choose-drive.ts';

export interface LibraryFolder extends ExistingFolder {
  section: Section;
}

/** Where a movie or series already lives: by normalised title, so `Doctor Who (2005)` is found for `Doctor.Who.2005`. */
export interface FolderLookup {
  find(section: Section, title: string, year: number | null): ExistingFolder[];
  /** A folder this pass is about to create, so the next file of the same series goes beside it. */
  add(folder: LibraryFolder): void;
}

interface Entry {
  folder: ExistingFolder;
  year: number | null;
}

export function rootKey(drive: string, root: string): string {
  return `${drive}\0${root}`;
}

/** The movie and series folders of the cached index, one per folder. */
export function foldersOfIndex(index: LibraryIndex | null): LibraryFolder[] {
  if (!index) return [];
  const seen = new Set<string>();
  const out: LibraryFolder[] = [];
  for (const item of index.items) {
    if (item.folder === item.root || seen.has(item.folder)) continue;
    seen.add(item.folder);
    out.push({ drive: item.drive, section: item.section, root: basename(item.root), name: basename(item.folder) });
  }
  return out;
}

/**
 * The index first, then what is on disk now. An index folder is dropped when its library folder
 * was listed and no longer holds it (deleted since the last library scan); one whose library
 * folder could not be listed is kept.
 */
export function buildFolderLookup(
  indexFolders: readonly LibraryFolder[],
  diskFolders: readonly LibraryFolder[],
  listedRoots: ReadonlySet<string>,
): FolderLookup {
  const byKey = new Map<string, Entry[]>();
  const present = new Set(diskFolders.map((f) => `${rootKey(f.drive, f.root)}\0${f.name}`));
  const seen = new Set<string>();

  const add = (f: LibraryFolder) => {
    const id = `${rootKey(f.drive, f.root)}\0${f.name}`;
    if (seen.has(id)) return;
    seen.add(id);
    const { title, year } = titleYearOfFolder(f.name);
    const key = `${f.section}\0${normalizeTitle(title)}`;
    let list = byKey.get(key);
    if (!list) byKey.set(key, (list = []));
    list.push({ folder: { drive: f.drive, root: f.root, name: f.name }, year });
  };

  for (const f of indexFolders) {
    if (listedRoots.has(rootKey(f.drive, f.root)) && !present.has(`${rootKey(f.drive, f.root)}\0${f.name}`)) continue;
    add(f);
  }
  for (const f of diskFolders) add(f);

  return {
    add,
    find(section, title, year) {
      const list = byKey.get(`${section}\0${normalizeTitle(title)}`) ?? [];
      if (section === 'movies') return list.filter((e) => year !== null && e.year === year).map((e) => e.folder);
      // A series year tells remakes apart (Doctor Who 1963 / 2005); a folder or name without one matches either.
      const fits = list.filter((e) => e.year === null || year === null || e.year === year);
      return [...fits.filter((e) => e.year === year), ...fits.filter((e) => e.year !== year)].map((e) => e.folder);
    },
  };
}
