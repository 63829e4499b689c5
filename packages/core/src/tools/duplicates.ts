import type { IndexItem } from '@mo/shared';
import { seriesUnitId, seriesUnitKey } from '../library/series-unit.ts';
import { sameTitleGroups } from '../library/title-match.ts';
import { identityOf, titleKey, type TitleKey } from '../parse/title-key.ts';
import { unitKey } from '../library/views.ts';
import { parseQuality, type Quality } from '../parse/quality.ts';
import { parseReleaseName } from '../parse/release-name.ts';

export interface MovieCopy {
  folder: string;
  drive: string;
  files: number;
  bytes: number;
  /** What its main video's name (or else its folder's) says of its quality; null where neither says anything. */
  quality: Quality | null;
}

export interface DuplicateMovie {
  title: string;
  year: number | null;
  /** "Final Cut", "Director's Cut", …; null for the plain release. */
  edition: string | null;
  copies: MovieCopy[];
}

export interface SeriesCopy {
  folder: string;
  drive: string;
  episode_count: number;
}

export interface DuplicateSeries {
  title: string;
  copies: SeriesCopy[];
  /** Episodes held by more than one copy: 0 means the copies are one series split over folders. */
  shared_episodes: number;
}

export interface DuplicateReport {
  movies: DuplicateMovie[];
  series: DuplicateSeries[];
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Plex `{edition-…}` tags and edition words after the year, from a folder name or else the movie file's name. */
function editionOf(folderName: string | null, videoName: string | null): string | null {
  return (folderName && parseReleaseName(folderName)?.edition) || (videoName && parseReleaseName(videoName)?.edition) || null;
}

/** The quality of a movie copy, as `editionOf` reads its edition: the video's name, else its folder's. */
function qualityOf(folderName: string | null, videoName: string): Quality | null {
  const q = parseQuality(folderName === null ? videoName : `${folderName}/${videoName}`);
  return q.resolution === null && q.source === null && q.codec === null ? null : q;
}

const byPath = (a: { folder: string }, b: { folder: string }) => (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0);
/** Sorted as a reader looks them up: "The Matrix" under M. */
const byTitle = (a: { title: string }, b: { title: string }) => {
  const x = titleKey(a.title).key;
  const y = titleKey(b.title).key;
  return x < y ? -1 : x > y ? 1 : 0;
};

interface MovieUnit extends Omit<MovieCopy, 'quality'> {
  title: string;
  year: number | null;
  loose: boolean;
  /** The largest main video: the one whose name says the edition when the folder does not. */
  video: { path: string; bytes: number } | null;
}

interface SeriesUnit {
  title: string;
  key: TitleKey;
  folder: string;
  drive: string;
  episodes: Set<string>;
}

/**
 * Movies and series held more than once, matched by title key (library/title-match.ts). Movies
 * match on key, year and edition (so a Final Cut beside the theatrical cut is not a duplicate);
 * series as `sameTitleGroups` groups them (kept apart by year and country), across drives and
 * across TV / TV Shows folders. A movie counts once it has a main video, a series once it has an
 * episode, as in the library view.
 */
export function duplicateReport(items: Iterable<IndexItem>): DuplicateReport {
  const acc = duplicateAccumulator();
  for (const item of items) acc.add(item);
  return acc.report();
}

/** `duplicateReport` fed one item at a time; it keeps one record per movie and series folder, not the items. */
export function duplicateAccumulator(): { add(item: IndexItem): void; report(): DuplicateReport } {
  const movies = new Map<string, MovieUnit>();
  const series = new Map<string, SeriesUnit>();
  const add = (item: IndexItem) => {
    const key = unitKey(item);
    if (item.section === 'movies') {
      let m = movies.get(key);
      if (!m) {
        const loose = item.folder === item.root;
        m = { title: item.title ?? baseName(key), year: item.year, folder: key, drive: item.drive, files: 0, bytes: 0, loose, video: null };
        movies.set(key, m);
      }
      m.files++;
      m.bytes += item.bytes;
      if (item.type === 'video' && !item.extra && (!m.video || item.bytes > m.video.bytes)) m.video = { path: item.path, bytes: item.bytes };
    } else if (item.type === 'video' && !item.extra && item.season !== null && item.episodes.length > 0 && item.title) {
      const skey = seriesUnitId(item);
      let s = series.get(skey);
      if (!s) series.set(skey, (s = { title: item.title, key: seriesUnitKey(item), folder: item.folder, drive: item.drive, episodes: new Set() }));
      for (const e of item.episodes) s.episodes.add(`${item.season}:${e}`);
    }
  };
  return { add, report: () => reportOf(movies, series) };
}

function reportOf(movies: Map<string, MovieUnit>, series: Map<string, SeriesUnit>): DuplicateReport {
  const movieGroups = new Map<string, { title: string; year: number | null; edition: string | null; copies: MovieCopy[] }>();
  for (const m of movies.values()) {
    if (!m.video) continue;
    const edition = editionOf(m.loose ? null : baseName(m.folder), baseName(m.video.path));
    const key = `${identityOf(titleKey(m.title, m.year))}\0${titleKey(edition ?? '').key}`;
    let g = movieGroups.get(key);
    if (!g) movieGroups.set(key, (g = { title: m.title, year: m.year, edition, copies: [] }));
    const quality = qualityOf(m.loose ? null : baseName(m.folder), baseName(m.video.path));
    g.copies.push({ folder: m.folder, drive: m.drive, files: m.files, bytes: m.bytes, quality });
  }
  const movieList: DuplicateMovie[] = [];
  for (const g of movieGroups.values()) {
    if (g.copies.length < 2) continue;
    g.copies.sort(byPath);
    movieList.push(g);
  }

  const seriesList: DuplicateSeries[] = [];
  for (const group of sameTitleGroups([...series.values()], (s) => s.key)) {
    if (group.length < 2) continue;
    group.sort(byPath);
    const seen = new Map<string, number>();
    for (const s of group) for (const e of s.episodes) seen.set(e, (seen.get(e) ?? 0) + 1);
    let shared = 0;
    for (const n of seen.values()) if (n > 1) shared++;
    seriesList.push({
      title: group[0]!.title,
      copies: group.map((s) => ({ folder: s.folder, drive: s.drive, episode_count: s.episodes.size })),
      shared_episodes: shared,
    });
  }
  movieList.sort((a, b) => byTitle(a, b) || (a.year ?? 0) - (b.year ?? 0) || byPath(a.copies[0]!, b.copies[0]!));
  seriesList.sort((a, b) => byTitle(a, b) || byPath(a.copies[0]!, b.copies[0]!));
  return { movies: movieList, series: seriesList };
}
