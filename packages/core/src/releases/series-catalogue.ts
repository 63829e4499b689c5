import type { IndexItem, NfoInfo } from '@mo/shared';
import { seriesUnitId, seriesUnitKey } from '../library/series-unit.ts';
import { sameTitleGroups } from '../library/title-match.ts';
import type { TitleKey } from '../parse/title-key.ts';
import { compareTitles } from './release.ts';

/** Provider ids a tvshow.nfo gives (`<uniqueid type="tvmaze|tvdb|imdb">`). */
export interface ShowIds {
  tvmaze?: number;
  tvdb?: number;
  imdb?: string;
}

export interface KnownEpisode {
  title: string | null;
  aired: string | null;
}

/** One series of the library, merged over every folder that holds it (drives, TV and TV Shows). */
export interface LibrarySeries {
  title: string;
  year: number | null;
  /** The title a tvshow.nfo gives: a better search than a folder name. */
  nfoTitle: string | null;
  ids: ShowIds;
  /** Season → the episode numbers some video holds (a multi-episode file counts for each). */
  have: Map<number, Set<number>>;
  /** `season:episode` → what an episode .nfo says of it, video or not. */
  known: Map<string, KnownEpisode>;
}

/**
 * The `<uniqueid>` values of a tvshow.nfo, once the index carries them (the lead is asked to add
 * `ids` to NfoInfo); an index without them simply yields none.
 */
type NfoWithIds = NfoInfo & { ids?: Partial<Record<string, string>> };

function idsOf(nfo: NfoWithIds): ShowIds {
  const ids: ShowIds = {};
  const num = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : undefined);
  const tvmaze = num(nfo.ids?.tvmaze);
  const tvdb = num(nfo.ids?.tvdb);
  const imdb = nfo.ids?.imdb;
  if (tvmaze !== undefined) ids.tvmaze = tvmaze;
  if (tvdb !== undefined) ids.tvdb = tvdb;
  if (imdb && /^tt\d+$/.test(imdb)) ids.imdb = imdb;
  return ids;
}

/**
 * The series of the index, each with the episodes its videos hold and, with `readNfo`, what its
 * .nfo files say. Folders are the units, as in the library view (loose episodes in a TV folder
 * group by their parsed title); units that name the same show are merged, so a series split over
 * two drives is one series. A folder counts once it has an episode video, or an .nfo to go by.
 */
export function collectSeries(items: Iterable<IndexItem>, opts: { readNfo: boolean }): LibrarySeries[] {
  const acc = seriesAccumulator(opts);
  for (const item of items) acc.add(item);
  return acc.series();
}

/** `collectSeries` fed one item at a time; it keeps one record per series folder, not the items. */
export function seriesAccumulator(opts: { readNfo: boolean }): { add(item: IndexItem): void; series(): LibrarySeries[] } {
  const units = new Map<string, LibrarySeries>();
  const keys = new Map<LibrarySeries, TitleKey>();
  const add = (item: IndexItem) => {
    if (item.section !== 'tv' || item.extra || !item.title) return;
    const video = item.type === 'video' && item.season !== null && item.episodes.length > 0;
    const nfo = opts.readNfo && item.type === 'nfo' && item.nfo?.kind !== 'movie' ? item.nfo : null;
    if (!video && !nfo) return;
    const id = seriesUnitId(item);
    let u = units.get(id);
    if (!u) {
      units.set(id, (u = { title: item.title, year: item.year, nfoTitle: null, ids: {}, have: new Map(), known: new Map() }));
      keys.set(u, seriesUnitKey(item));
    }
    if (video) {
      let eps = u.have.get(item.season!);
      if (!eps) u.have.set(item.season!, (eps = new Set()));
      for (const e of item.episodes) eps.add(e);
    } else if (nfo?.kind === 'tvshow') {
      u.nfoTitle ??= nfo.title;
      u.ids = { ...idsOf(nfo), ...u.ids };
    } else if (nfo?.kind === 'episode') {
      const season = nfo.season ?? item.season;
      const episodes = nfo.episode !== null ? [nfo.episode] : item.episodes;
      if (season === null) return;
      for (const e of episodes) {
        const k = `${season}:${e}`;
        if (!u.known.has(k)) u.known.set(k, { title: nfo.title, aired: nfo.aired });
      }
    }
  };
  return { add, series: () => mergedSeries(units, keys) };
}

function mergedSeries(units: Map<string, LibrarySeries>, keys: Map<LibrarySeries, TitleKey>): LibrarySeries[] {
  const out: LibrarySeries[] = [];
  for (const group of sameTitleGroups([...units.values()], (u) => keys.get(u)!)) {
    const [first, ...rest] = group;
    const s = first!;
    for (const u of rest) {
      s.year ??= u.year;
      s.nfoTitle ??= u.nfoTitle;
      s.ids = { ...u.ids, ...s.ids };
      for (const [season, eps] of u.have) {
        const mine = s.have.get(season);
        if (mine) for (const e of eps) mine.add(e);
        else s.have.set(season, new Set(eps));
      }
      for (const [k, v] of u.known) if (!s.known.has(k)) s.known.set(k, v);
    }
    out.push(s);
  }
  return out.sort((a, b) => compareTitles(a.title, b.title));
}
