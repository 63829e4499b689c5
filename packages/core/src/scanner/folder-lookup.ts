import { basename } from 'node:path';
import type { LibraryIndex } from '@mo/shared';
import { contradicts, fittingFolders, folderTitleKey, type FolderFit } from '../library/title-match.ts';
import { capitalsCountryReading, titleKey, type TitleKey } from '../parse/title-key.ts';
import type { ExistingFolder, Section } from './choose-drive.ts';
import { leftoverIsMarker, nearness } from './near-title.ts';
import type { TemplateMedia } from './template.ts';

export interface LibraryFolder extends ExistingFolder {
  section: Section;
}

/**
 * Where a movie or series already lives, by title key (library/title-match.ts): `Doctor Who (2005)`
 * for `Doctor.Who.2005`, `The Office (US)` for `The.Office.US`, on any drive, under `TV` or `TV Shows`.
 */
export interface FolderLookup {
  /**
   * The folders of the one movie or show the name fits (none: a new folder; several: one show on
   * several drives or library folders, the index's first); or, for a series name that two shows of
   * the library fit, those folders.
   */
  find(section: Section, media: Pick<TemplateMedia, 'title' | 'year' | 'country' | 'year_after_episode'>): FolderFit<ExistingFolder>;
  /** A folder this pass is about to create, so the next file of the same series goes beside it. */
  add(folder: LibraryFolder): void;
  /**
   * The folders of the section whose title is near the name's without fitting it (scanner/near-title.ts),
   * each with whether what is left over is a marker that makes it the name's show.
   */
  near(section: Section, media: Pick<TemplateMedia, 'title' | 'year' | 'country' | 'season'>): NearFolder[];
}

export interface NearFolder {
  folder: ExistingFolder;
  /** What is left over is a marker the parser knows: the folder is the name's show. */
  marker: boolean;
}

interface Entry {
  folder: ExistingFolder;
  key: TitleKey;
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
  // For `near`, which would otherwise compare a name with every folder: a folder whose title is a run
  // of the name's words starts with one of them, and one that holds the name's words holds its first.
  const byWord = new Map<string, Entry[]>();
  const byFirstWord = new Map<string, Entry[]>();
  const push = (map: Map<string, Entry[]>, k: string, e: Entry) => {
    const list = map.get(k);
    if (list) list.push(e);
    else map.set(k, [e]);
  };
  const present = new Set(diskFolders.map((f) => `${rootKey(f.drive, f.root)}\0${f.name}`));
  const seen = new Set<string>();

  const add = (f: LibraryFolder) => {
    const id = `${rootKey(f.drive, f.root)}\0${f.name}`;
    if (seen.has(id)) return;
    seen.add(id);
    const key = folderTitleKey(f.name);
    const bucket = `${f.section}\0${key.key}`;
    let list = byKey.get(bucket);
    if (!list) byKey.set(bucket, (list = []));
    const entry = { folder: { drive: f.drive, root: f.root, name: f.name }, key };
    list.push(entry);
    for (const word of new Set(key.key.split(' '))) push(byWord, `${f.section}\0${word}`, entry);
    push(byFirstWord, `${f.section}\0${key.key.split(' ')[0]}`, entry);
  };

  for (const f of indexFolders) {
    if (listedRoots.has(rootKey(f.drive, f.root)) && !present.has(`${rootKey(f.drive, f.root)}\0${f.name}`)) continue;
    add(f);
  }
  for (const f of diskFolders) add(f);

  return {
    add,
    find(section, media) {
      const wanted = titleKey(media.title, media.year, media.country);
      const list = byKey.get(`${section}\0${wanted.key}`) ?? [];
      if (section === 'movies') {
        // A movie is always named with its year, and a title alone matches too many remakes.
        return { kind: 'found', folders: list.filter((e) => wanted.year !== null && e.key.year === wanted.year).map((e) => e.folder) };
      }
      let fit = fittingFolders(wanted, list, (e) => e.key);
      // `THE.OFFICE.US`: the library says whether the capitals' US is a word or the country.
      const other = media.country === null ? capitalsCountryReading(media.title) : null;
      if (other) {
        const key = titleKey(other.title, media.year, other.country);
        const alt = fittingFolders(key, byKey.get(`${section}\0${key.key}`) ?? [], (e) => e.key);
        if (alt.folders.length > 0) {
          fit = fit.folders.length > 0 ? { kind: 'ambiguous', folders: [...fit.folders, ...alt.folders] } : alt;
        }
      }
      // A year after the episode marker is the series' in a first season (Doctor.Who.S01E01.2005)
      // and the air year in a later one (Young.Sheldon.S07E14.2024 for Young Sheldon (2017)). It
      // picks a folder of its own year, and a new folder is named with it, as a year before the
      // marker would; but a folder of the title with another year may be the same series, so
      // without one of its own year that is a refusal rather than a new folder beside it.
      if (media.year_after_episode && wanted.year !== null && !fit.folders.some((e) => e.key.year === wanted.year)) {
        const anyYear = fittingFolders(titleKey(media.title, null, media.country), list, (e) => e.key);
        if (anyYear.folders.some((e) => e.key.year !== null)) return { kind: 'ambiguous', folders: anyYear.folders.map((e) => e.folder) };
      }
      return { kind: fit.kind, folders: fit.folders.map((e) => e.folder) };
    },
    near(section, media) {
      const wanted = titleKey(media.title, media.year, media.country);
      const words = wanted.key.split(' ');
      const candidates = new Set([...(byWord.get(`${section}\0${words[0]}`) ?? []), ...words.flatMap((w) => byFirstWord.get(`${section}\0${w}`) ?? [])]);
      const out: NearFolder[] = [];
      for (const e of candidates) {
        // A movie is told apart by its year: `Toy Story 2 (1999)` is not near `Toy Story (1995)`.
        if (section === 'movies' && e.key.year !== wanted.year) continue;
        if (contradicts(e.key, { ...wanted, year: section === 'movies' ? wanted.year : null })) continue;
        const n = nearness(wanted.key, e.key.key);
        if (n !== null) out.push({ folder: e.folder, marker: leftoverIsMarker(n, media.season, e.key.year) });
      }
      return out;
    },
  };
}
