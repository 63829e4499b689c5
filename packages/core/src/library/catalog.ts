import type { IndexItem } from '@mo/shared';
import type { IndexHeader } from './index-store.ts';
import { seriesUnitId } from './series-unit.ts';
import { libraryAccumulator, libraryView, unitKey, type LibrarySummary, type LibraryView, type MovieView, type SeriesView } from './views.ts';

/**
 * What a movie or series may lack, as far as the index can tell without reading a file:
 * - `picture`: no `poster`/`folder` image (.jpg, .jpeg, .png) directly in its folder;
 * - `subtitles`: no subtitle file anywhere among its files;
 * - `episodes` (series only): a season other than 0 skips a number below its highest held episode,
 *   the gaps GET /api/releases reports from the library.
 */
export const MISSING = ['picture', 'subtitles', 'episodes'] as const;
export type Missing = (typeof MISSING)[number];

export const LIBRARY_SORTS = ['title', 'size', 'added'] as const;
export type LibrarySort = (typeof LIBRARY_SORTS)[number];
export type SortOrder = 'asc' | 'desc';

/** Without `order`: titles A to Z, the largest first, the newest first. */
export const DEFAULT_ORDER: Record<LibrarySort, SortOrder> = { title: 'asc', size: 'desc', added: 'desc' };

/** Picture names in the order one is preferred over another when a folder holds several. */
const PICTURE_NAMES = ['poster.jpg', 'poster.jpeg', 'poster.png', 'folder.jpg', 'folder.jpeg', 'folder.png'];

/** The rank of a file name among the picture names, -1 when it is none. */
export function pictureRank(name: string): number {
  return PICTURE_NAMES.indexOf(name.toLowerCase());
}

/** One movie or series with what the catalog adds to its entry in GET /api/library. */
export interface CatalogEntry<V> {
  view: V;
  /** Newest modification time (ms) of its files: when its last file arrived, as the index can tell. */
  added: number;
  /** The picture's path, or null. */
  picture: string | null;
  missing: Missing[];
  /** Lower-case title the `q` search looks in. */
  search: string;
}

export interface LibraryCatalog {
  summary: LibrarySummary;
  /** By title, as the unpaged answer lists them. */
  movies: CatalogEntry<MovieView>[];
  series: CatalogEntry<SeriesView>[];
  /** Drive names that hold a movie or series, sorted. */
  drives: string[];
  /** Each movie's and series' entry by its folder, for the picture route and `holding`: only folders the index lists have one. */
  byFolder: Map<string, CatalogEntry<MovieView | SeriesView>>;
  /** Positions into `movies`/`series` in a sort's ascending order; built once per sort the first time it is asked for. */
  orders: Map<string, Uint32Array>;
  /** Positions matching the last filters asked for (at most `FILTERS_KEPT`), least recently used first. */
  filtered: Map<string, Uint32Array>;
}

interface UnitFacts {
  added: number;
  picture: string | null;
  pictureRank: number;
  subtitles: boolean;
}

function unitId(item: IndexItem): string {
  return item.section === 'movies' ? unitKey(item) : seriesUnitId(item);
}

/** A season skips a number below its highest: the gaps GET /api/releases reports. */
function hasGaps(view: SeriesView): boolean {
  return view.seasons.some((s) => {
    const numbered = s.episodes.filter((e) => e >= 1);
    return s.season !== 0 && numbered.length > 0 && numbered[numbered.length - 1]! > numbered.length;
  });
}

/**
 * The library view with, per movie and series, when its files last changed, its picture and what
 * it lacks; fed one item at a time like `libraryAccumulator`, whose view it extends.
 */
export function catalogAccumulator(): { add(item: IndexItem): void; catalog(header: IndexHeader | null): LibraryCatalog } {
  const lib = libraryAccumulator();
  const facts = new Map<string, UnitFacts>();
  return {
    add(item) {
      lib.add(item);
      const id = unitId(item);
      let f = facts.get(id);
      if (!f) facts.set(id, (f = { added: 0, picture: null, pictureRank: PICTURE_NAMES.length, subtitles: false }));
      if (item.mtime_ms > f.added) f.added = item.mtime_ms;
      if (item.type === 'subtitle') f.subtitles = true;
      if (item.type === 'other' && item.folder !== item.root) {
        const slash = item.path.lastIndexOf('/');
        const rank = item.path.slice(0, slash) === item.folder ? pictureRank(item.path.slice(slash + 1)) : -1;
        if (rank >= 0 && rank < f.pictureRank) {
          f.picture = item.path;
          f.pictureRank = rank;
        }
      }
    },
    catalog(header) {
      const view: LibraryView = header ? lib.view(header) : libraryView(null);
      const entry = <V extends MovieView | SeriesView>(v: V, search: string, gaps: boolean): CatalogEntry<V> => {
        const id = lib.idOf(v);
        const f = id === undefined ? undefined : facts.get(id);
        const missing: Missing[] = [];
        if (!f?.picture) missing.push('picture');
        if (!f?.subtitles) missing.push('subtitles');
        if (gaps) missing.push('episodes');
        return { view: v, added: f?.added ?? 0, picture: f?.picture ?? null, missing, search };
      };
      const movies = view.movies.map((m) => entry(m, `${m.title} ${m.year ?? ''}`.toLowerCase(), false));
      const series = view.series.map((s) => entry(s, s.title.toLowerCase(), hasGaps(s)));
      const byFolder = new Map<string, CatalogEntry<MovieView | SeriesView>>();
      for (const e of [...movies, ...series]) if (!byFolder.has(e.view.folder)) byFolder.set(e.view.folder, e);
      const drives = [...new Set([...movies, ...series].map((e) => e.view.drive))].sort();
      return { summary: view.summary, movies, series, drives, byFolder, orders: new Map(), filtered: new Map() };
    },
  };
}

export interface CatalogQuery {
  q?: string;
  kind?: 'movie' | 'series';
  drive?: string;
  missing?: Missing;
  /** Only the movie or series whose folder is this path or the deepest folder holding it (a file's page asks this). */
  holding?: string;
  sort: LibrarySort;
  order: SortOrder;
  offset: number;
  /** Undefined: every entry from `offset` on. */
  limit?: number;
}

export interface CatalogPage {
  movies: CatalogEntry<MovieView>[];
  series: CatalogEntry<SeriesView>[];
  /** How many of each kind match q, drive and missing, whatever `kind` asks for (so a client can show both counts). */
  total: { movies: number; series: number };
}

const sizeOf = (e: CatalogEntry<MovieView | SeriesView>) => e.view.bytes;
const addedOf = (e: CatalogEntry<MovieView | SeriesView>) => e.added;

/** Positions of `entries` in a sort's order; ties keep the title order the list already has, either way. */
export function sortedPositions(entries: readonly CatalogEntry<MovieView | SeriesView>[], sort: LibrarySort, order: SortOrder): Uint32Array {
  const positions = new Uint32Array(entries.length);
  for (let i = 0; i < positions.length; i++) positions[i] = i;
  if (sort === 'title') return order === 'asc' ? positions : positions.reverse();
  const keys = Float64Array.from(entries, sort === 'size' ? sizeOf : addedOf);
  const sign = order === 'asc' ? 1 : -1;
  return positions.sort((a, b) => sign * (keys[a]! - keys[b]!) || a - b);
}

function positionsOf(catalog: LibraryCatalog, list: 'movies' | 'series', query: CatalogQuery): Uint32Array {
  const cacheKey = `${list}:${query.sort}:${query.order}`;
  let positions = catalog.orders.get(cacheKey);
  if (!positions) catalog.orders.set(cacheKey, (positions = sortedPositions(catalog[list], query.sort, query.order)));
  return positions;
}

/** The positions, in `positions`' order, of the entries that pass the query's filters. */
function matching(entries: readonly CatalogEntry<MovieView | SeriesView>[], positions: Uint32Array, query: CatalogQuery): Uint32Array {
  const q = query.q?.toLowerCase();
  const out = new Uint32Array(positions.length);
  let n = 0;
  for (const p of positions) {
    const e = entries[p]!;
    if (query.drive !== undefined && e.view.drive !== query.drive) continue;
    if (query.missing !== undefined && !e.missing.includes(query.missing)) continue;
    if (q && !e.search.includes(q)) continue;
    out[n++] = p;
  }
  return out.slice(0, n);
}

/**
 * Filtered orders kept for this many filters: turning the pages of one search costs a slice, not a
 * walk over every title; each kept is at most 4 bytes a title.
 */
export const FILTERS_KEPT = 16;

function filteredOf(catalog: LibraryCatalog, list: 'movies' | 'series', query: CatalogQuery): Uint32Array {
  const positions = positionsOf(catalog, list, query);
  if (!query.q && query.drive === undefined && query.missing === undefined) return positions;
  const key = [list, query.sort, query.order, query.q?.toLowerCase() ?? '', query.drive ?? '', query.missing ?? ''].join('\0');
  let kept = catalog.filtered.get(key);
  if (kept) catalog.filtered.delete(key);
  else kept = matching(catalog[list], positions, query);
  // Most recently used last: the first is the one to drop.
  catalog.filtered.set(key, kept);
  if (catalog.filtered.size > FILTERS_KEPT) catalog.filtered.delete(catalog.filtered.keys().next().value!);
  return kept;
}

function pageOf<V extends MovieView | SeriesView>(
  entries: readonly CatalogEntry<V>[],
  positions: Uint32Array,
  query: CatalogQuery,
  wanted: boolean,
): { page: CatalogEntry<V>[]; total: number } {
  const end = query.limit === undefined ? positions.length : Math.min(positions.length, query.offset + query.limit);
  const page = wanted ? Array.from(positions.subarray(query.offset, end), (p) => entries[p]!) : [];
  return { page, total: positions.length };
}

/**
 * One page of the catalog: each list filtered, sorted and cut to `offset`/`limit` on its own. The
 * sort orders and the last filters' matches are kept in the catalog, so a request costs at most one
 * walk over the titles, never a sort after the first, and the next page of a filter only a slice.
 */
export function catalogPage(catalog: LibraryCatalog, query: CatalogQuery): CatalogPage {
  if (query.holding !== undefined) return holdingPage(catalog, query.holding);
  const movies = pageOf(catalog.movies, filteredOf(catalog, 'movies', query), query, query.kind !== 'series');
  const series = pageOf(catalog.series, filteredOf(catalog, 'series', query), query, query.kind !== 'movie');
  return { movies: movies.page, series: series.page, total: { movies: movies.total, series: series.total } };
}

/**
 * The one movie or series holding `path`: looked up folder by folder from the path upwards, so a
 * file's page costs as many map lookups as the path has folders, not a walk over every title.
 */
function holdingPage(catalog: LibraryCatalog, path: string): CatalogPage {
  for (let p = path.endsWith('/') ? path.slice(0, -1) : path; p.length > 1; p = p.slice(0, p.lastIndexOf('/'))) {
    const e = catalog.byFolder.get(p);
    if (!e) continue;
    return 'seasons' in e.view
      ? { movies: [], series: [e as CatalogEntry<SeriesView>], total: { movies: 0, series: 1 } }
      : { movies: [e as CatalogEntry<MovieView>], series: [], total: { movies: 1, series: 0 } };
  }
  return { movies: [], series: [], total: { movies: 0, series: 0 } };
}
