import type { IndexItem, LibraryIndex } from '@mo/shared';

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
  seasons: { season: number; episodes: number[] }[];
  episode_count: number;
  files: number;
  bytes: number;
}

export interface LibraryView {
  summary: LibrarySummary;
  movies: MovieView[];
  series: SeriesView[];
}

/** A loose file straight in the library folder is a title of its own; anything else belongs to its folder. */
export function unitKey(item: IndexItem): string {
  return item.folder === item.root ? item.path : item.folder;
}

function byTitle<T extends { title: string; folder: string }>(a: T, b: T): number {
  return a.title.localeCompare(b.title, 'en', { sensitivity: 'base' }) || (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0);
}

/**
 * Movies and series grouped by folder, with the counts the summary shows. A movie is a folder (or
 * loose file) with a video that is not an extra; a series is a folder under a TV library folder
 * with at least one episode video; an episode counts once per series, season and number.
 */
export function libraryView(index: LibraryIndex | null): LibraryView {
  if (!index) {
    return {
      summary: { files: 0, bytes: 0, movies: 0, series: 0, episodes: 0, scanned_at: null, duration_ms: null, truncated: false, timed_out: false },
      movies: [],
      series: [],
    };
  }
  const movies = new Map<string, MovieView & { hasVideo: boolean }>();
  const series = new Map<string, { view: SeriesView; seasons: Map<number, Set<number>> }>();
  let bytes = 0;
  for (const item of index.items) {
    bytes += item.bytes;
    const key = unitKey(item);
    if (item.section === 'movies') {
      let m = movies.get(key);
      if (!m) {
        m = { title: item.title ?? key, year: item.year, folder: key, drive: item.drive, files: 0, bytes: 0, hasVideo: false };
        movies.set(key, m);
      }
      m.files++;
      m.bytes += item.bytes;
      if (item.type === 'video' && !item.extra) m.hasVideo = true;
    } else {
      // Loose episodes in the TV folder group by their parsed series title.
      const skey = item.folder === item.root ? `${item.root}\0${(item.title ?? '').toLowerCase()}` : item.folder;
      let s = series.get(skey);
      if (!s) {
        s = {
          view: { title: item.title ?? item.folder, folder: item.folder, drive: item.drive, seasons: [], episode_count: 0, files: 0, bytes: 0 },
          seasons: new Map(),
        };
        series.set(skey, s);
      }
      s.view.files++;
      s.view.bytes += item.bytes;
      if (item.type === 'video' && !item.extra && item.season !== null && item.episodes.length > 0) {
        let eps = s.seasons.get(item.season);
        if (!eps) s.seasons.set(item.season, (eps = new Set()));
        for (const e of item.episodes) eps.add(e);
      }
    }
  }
  const movieList: MovieView[] = [];
  for (const { hasVideo, ...m } of movies.values()) if (hasVideo) movieList.push(m);
  movieList.sort(byTitle);
  const seriesList: SeriesView[] = [];
  let episodes = 0;
  for (const { view, seasons } of series.values()) {
    if (seasons.size === 0) continue;
    view.seasons = [...seasons.entries()]
      .sort(([a], [b]) => a - b)
      .map(([season, eps]) => ({ season, episodes: [...eps].sort((a, b) => a - b) }));
    view.episode_count = view.seasons.reduce((n, s) => n + s.episodes.length, 0);
    episodes += view.episode_count;
    seriesList.push(view);
  }
  seriesList.sort(byTitle);
  return {
    summary: {
      files: index.items.length,
      bytes,
      movies: movieList.length,
      series: seriesList.length,
      episodes,
      scanned_at: index.scanned_at,
      duration_ms: index.duration_ms,
      truncated: index.truncated,
      timed_out: index.timed_out,
    },
    movies: movieList,
    series: seriesList,
  };
}

export function extensionBreakdown(index: LibraryIndex | null): Record<string, { count: number; bytes: number }> {
  const out: Record<string, { count: number; bytes: number }> = {};
  for (const item of index?.items ?? []) {
    const key = item.ext || '(none)';
    const e = (out[key] ??= { count: 0, bytes: 0 });
    e.count++;
    e.bytes += item.bytes;
  }
  return out;
}
