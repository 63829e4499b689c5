import type { IndexItem, LibraryIndex } from '@mo/shared';
import type { IndexHeader } from './index-store.ts';
import { moviePart } from './multi-part.ts';
import { seriesUnitId, seriesUnitKey } from './series-unit.ts';
import type { TitleKey } from '../parse/title-key.ts';
import { sameTitleGroups } from './title-match.ts';

export interface LibrarySummary {
  files: number;
  bytes: number;
  movies: number;
  series: number;
  episodes: number;
  scanned_at: string | null;
  duration_ms: number | null;
  truncated: boolean;
  timed_out: boolean;
}

export interface MovieView {
  title: string;
  year: number | null;
  folder: string;
  drive: string;
  files: number;
  bytes: number;
}

export interface SeriesView {
  title: string;
  folder: string;
  drive: string;
  /** `air_dates`: the dated episodes of a daily show, present where a season has any. */
  seasons: { season: number; episodes: number[]; air_dates?: string[] }[];
  /** Numbered and dated episodes. */
  episode_count: number;
  files: number;
  bytes: number;
}

export interface LibraryView {
  summary: LibrarySummary;
  movies: MovieView[];
  series: SeriesView[];
}

/**
 * A loose file straight in the library folder is a title of its own, but the loose parts of one
 * movie (`Movie (2010) - cd1.mkv`, `… - cd2.mkv`) are one, keyed by the first part's path; anything
 * else belongs to its folder.
 */
export function unitKey(item: IndexItem): string {
  if (item.folder !== item.root) return item.folder;
  if (item.section !== 'movies') return item.path;
  const slash = item.path.lastIndexOf('/') + 1;
  const dot = item.path.lastIndexOf('.');
  const ext = dot > slash ? item.path.slice(dot) : '';
  const part = moviePart(item.path.slice(slash, dot > slash ? dot : undefined));
  return part ? `${item.path.slice(0, slash)}${part.first}${ext}` : item.path;
}

/** A series' episodes by season: numbers, and the air dates of a daily show's dated episodes. */
type Seasons = Map<number, Set<number | string>>;

interface SeriesUnit {
  /** `seriesUnitId` of its items. */
  id: string;
  view: SeriesView;
  key: TitleKey;
  seasons: Seasons;
}

/**
 * What an episode video adds to its series: its numbers, or for a daily show its air date, in its
 * season folder's season (`Season 2024`) or else its air date's year. Others add nothing.
 */
function addEpisodes(seasons: Seasons, item: IndexItem): void {
  const numbered = item.season !== null && item.episodes.length > 0;
  if (!numbered && item.air_date === null) return;
  const season = numbered ? item.season! : (item.season ?? Number(item.air_date!.slice(0, 4)));
  let eps = seasons.get(season);
  if (!eps) seasons.set(season, (eps = new Set()));
  if (numbered) for (const e of item.episodes) eps.add(e);
  else eps.add(item.air_date!);
}

/**
 * The summary's series and episodes: a series split over drives or over TV and TV Shows is one
 * show, and an episode two of its folders hold counts once. The `series` list keeps one entry per
 * folder, since an entry has a single `folder` and `drive` and each copy has to be found.
 */
function countShows(units: readonly Pick<SeriesUnit, 'key' | 'seasons'>[]): { series: number; episodes: number } {
  const shows = sameTitleGroups(units, (u) => u.key);
  let episodes = 0;
  for (const show of shows) {
    const held = new Set<string>();
    for (const u of show) for (const [season, eps] of u.seasons) for (const e of eps) held.add(`${season}:${e}`);
    episodes += held.size;
  }
  return { series: shows.length, episodes };
}

function byTitle<T extends { title: string; folder: string }>(a: T, b: T): number {
  return a.title.localeCompare(b.title, 'en', { sensitivity: 'base' }) || (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0);
}

const EMPTY_SUMMARY: LibrarySummary = {
  files: 0,
  bytes: 0,
  movies: 0,
  series: 0,
  episodes: 0,
  scanned_at: null,
  duration_ms: null,
  truncated: false,
  timed_out: false,
};

export interface LibraryAccumulator {
  add(item: IndexItem): void;
  /** The summary alone: no sorted lists are built. */
  summary(header: IndexHeader): LibrarySummary;
  view(header: IndexHeader): LibraryView;
  /** The unit an entry of the last `view` stands for: `unitKey` of a movie's items, `seriesUnitId` of a series'. */
  idOf(entry: MovieView | SeriesView): string | undefined;
}

function librarySummary(
  header: IndexHeader,
  counts: { files: number; bytes: number; movies: number },
  shows: { series: number; episodes: number },
): LibrarySummary {
  return {
    ...counts,
    series: shows.series,
    episodes: shows.episodes,
    scanned_at: header.scanned_at,
    duration_ms: header.duration_ms,
    truncated: header.truncated,
    timed_out: header.timed_out,
  };
}

/**
 * Movies and series grouped by folder, with the counts the summary shows, fed one item at a time:
 * a scan streaming its items to disk gets the summary without holding them. A movie is a folder
 * (or loose file) with a video that is not an extra; a series is a folder under a TV library folder
 * with at least one episode video (loose episodes in the TV folder group by the show their name
 * says); the summary counts a show once however many folders hold it, and an episode once per
 * show, season and number.
 */
export function libraryAccumulator(): LibraryAccumulator {
  const movies = new Map<string, MovieView & { hasVideo: boolean }>();
  const series = new Map<string, SeriesUnit>();
  // Filled by `view` only: a scan that asks for the summary alone pays nothing for it.
  let ids = new WeakMap<MovieView | SeriesView, string>();
  let bytes = 0;
  let files = 0;
  const summaryOf = (header: IndexHeader, movieCount: number, withEpisodes: readonly SeriesUnit[]): LibrarySummary =>
    librarySummary(header, { files, bytes, movies: movieCount }, countShows(withEpisodes));
  const withEpisodes = () => [...series.values()].filter((u) => u.seasons.size > 0);
  return {
    add(item) {
      files++;
      bytes += item.bytes;
      if (item.section === 'movies') {
        const key = unitKey(item);
        let m = movies.get(key);
        if (!m) {
          m = { title: item.title ?? key, year: item.year, folder: key, drive: item.drive, files: 0, bytes: 0, hasVideo: false };
          movies.set(key, m);
        }
        m.files++;
        m.bytes += item.bytes;
        if (item.type === 'video' && !item.extra) m.hasVideo = true;
      } else {
        const skey = seriesUnitId(item);
        let s = series.get(skey);
        if (!s) {
          s = {
            id: skey,
            view: { title: item.title ?? item.folder, folder: item.folder, drive: item.drive, seasons: [], episode_count: 0, files: 0, bytes: 0 },
            key: seriesUnitKey(item),
            seasons: new Map(),
          };
          series.set(skey, s);
        }
        s.view.files++;
        s.view.bytes += item.bytes;
        if (item.type === 'video' && !item.extra) addEpisodes(s.seasons, item);
      }
    },
    summary(header) {
      let movieCount = 0;
      for (const m of movies.values()) if (m.hasVideo) movieCount++;
      return summaryOf(header, movieCount, withEpisodes());
    },
    view(header) {
      ids = new WeakMap();
      const movieList: MovieView[] = [];
      for (const [key, { hasVideo, ...m }] of movies) {
        if (!hasVideo) continue;
        movieList.push(m);
        ids.set(m, key);
      }
      movieList.sort(byTitle);
      const units = withEpisodes();
      const seriesList: SeriesView[] = [];
      for (const { id, view, seasons } of units) {
        ids.set(view, id);
        view.seasons = [...seasons.entries()]
          .sort(([a], [b]) => a - b)
          .map(([season, eps]) => {
            const numbers: number[] = [];
            const dates: string[] = [];
            for (const e of eps) typeof e === 'number' ? numbers.push(e) : dates.push(e);
            numbers.sort((a, b) => a - b);
            return dates.length === 0 ? { season, episodes: numbers } : { season, episodes: numbers, air_dates: dates.sort() };
          });
        view.episode_count = view.seasons.reduce((n, s) => n + s.episodes.length + (s.air_dates?.length ?? 0), 0);
        seriesList.push(view);
      }
      seriesList.sort(byTitle);
      return { summary: summaryOf(header, movieList.length, units), movies: movieList, series: seriesList };
    },
    idOf: (entry) => ids.get(entry),
  };
}

/**
 * What one folder's own files add to the summary: their bytes, the movies they give a main video
 * (by `unitKey`), the episodes they give each series (by `seriesUnitId`, with its title key).
 * Stored with the folder by a scan, so that a rescan which keeps the folder's files need not read
 * them again to count them.
 */
export interface SummaryPart {
  bytes: number;
  movies: string[];
  /** A season's episodes: numbers, and air dates (strings) of dated episodes. */
  series: [id: string, key: TitleKey, seasons: [season: number, episodes: (number | string)[]][]][];
}

/** The summary part of the items given, one at a time, since the last `take`. */
export function summaryPartBuilder(): { add(item: IndexItem): void; take(): SummaryPart } {
  let bytes = 0;
  let movies = new Set<string>();
  let series = new Map<string, { key: TitleKey; seasons: Seasons }>();
  return {
    add(item) {
      bytes += item.bytes;
      if (item.type !== 'video' || item.extra) return;
      if (item.section === 'movies') movies.add(unitKey(item));
      else if ((item.season !== null && item.episodes.length > 0) || item.air_date !== null) {
        const id = seriesUnitId(item);
        let s = series.get(id);
        if (!s) series.set(id, (s = { key: seriesUnitKey(item), seasons: new Map() }));
        addEpisodes(s.seasons, item);
      }
    },
    take() {
      const part: SummaryPart = {
        bytes,
        movies: [...movies],
        series: [...series].map(([id, s]) => [id, s.key, [...s.seasons].map(([season, eps]) => [season, [...eps]])]),
      };
      bytes = 0;
      movies = new Set();
      series = new Map();
      return part;
    },
  };
}

/** The library summary from the summary parts of all its folders (`summaryPartBuilder`): the same figures as `libraryView`'s. */
export function summaryAccumulator(): { add(part: SummaryPart, files: number): void; summary(header: IndexHeader): LibrarySummary } {
  let files = 0;
  let bytes = 0;
  const movies = new Set<string>();
  const series = new Map<string, { key: TitleKey; seasons: Seasons }>();
  return {
    add(part, n) {
      files += n;
      bytes += part.bytes;
      for (const m of part.movies) movies.add(m);
      for (const [id, key, seasons] of part.series) {
        let s = series.get(id);
        if (!s) series.set(id, (s = { key, seasons: new Map() }));
        for (const [season, eps] of seasons) {
          let have = s.seasons.get(season);
          if (!have) s.seasons.set(season, (have = new Set()));
          for (const e of eps) have.add(e);
        }
      }
    },
    summary(header) {
      return librarySummary(header, { files, bytes, movies: movies.size }, countShows([...series.values()]));
    },
  };
}

/** `libraryAccumulator` over a whole index. */
export function libraryView(index: LibraryIndex | null): LibraryView {
  if (!index) return { summary: { ...EMPTY_SUMMARY }, movies: [], series: [] };
  const acc = libraryAccumulator();
  for (const item of index.items) acc.add(item);
  return acc.view(index);
}

export type ExtensionBreakdown = Record<string, { count: number; bytes: number }>;

export function extensionBreakdown(index: LibraryIndex | null): ExtensionBreakdown {
  const acc = extensionAccumulator();
  for (const item of index?.items ?? []) acc.add(item);
  return acc.breakdown();
}

/** `extensionBreakdown` fed one item at a time. */
export function extensionAccumulator(): { add(item: IndexItem): void; breakdown(): ExtensionBreakdown } {
  const out: ExtensionBreakdown = {};
  return {
    add(item) {
      const key = item.ext || '(none)';
      const e = (out[key] ??= { count: 0, bytes: 0 });
      e.count++;
      e.bytes += item.bytes;
    },
    breakdown: () => out,
  };
}

/**
 * Where each folder's items lie in the index file: byte ranges (start, end, start, end, …), one
 * per run of consecutive lines. A scan writes a folder's files together, so most folders have one.
 */
export function folderSpans(): { add(item: IndexItem, start: number, end: number): void; spans(): Map<string, number[]> } {
  const spans = new Map<string, number[]>();
  return {
    add(item, start, end) {
      let s = spans.get(item.folder);
      if (!s) spans.set(item.folder, (s = []));
      if (s.length > 0 && s[s.length - 1] === start) s[s.length - 1] = end;
      else s.push(start, end);
    },
    spans: () => spans,
  };
}

export interface FolderFile {
  path: string;
  bytes: number;
  ext: string;
  type: IndexItem['type'];
  season: number | null;
  episodes: number[];
  extra: boolean;
}

/** The files of one movie or series folder as the index holds them, by path; null when no item lies in it. */
export function folderFilesView(index: LibraryIndex | null, folder: string): { folder: string; scanned_at: string | null; files: FolderFile[] } | null {
  if (!index) return null;
  const files = index.items
    .filter((i) => i.folder === folder)
    .map((i) => ({ path: i.path, bytes: i.bytes, ext: i.ext, type: i.type, season: i.season, episodes: i.episodes, extra: i.extra }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return files.length === 0 ? null : { folder, scanned_at: index.scanned_at, files };
}
