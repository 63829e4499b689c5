import { byEpisode, type Release } from './release.ts';
import type { LibrarySeries } from './series-catalogue.ts';

export interface LibraryReleaseOptions {
  /** `metadata.include_specials`: season 0 is reported only with it. */
  includeSpecials: boolean;
  /** YYYY-MM-DD; an episode that airs after it is upcoming, not missing. */
  today: string;
}

/**
 * Missing and upcoming episodes from the library alone: in each season, the numbers from 1 to the
 * highest one a video holds that no video holds, and every episode an .nfo describes that no video
 * holds. An .nfo air date after today makes one upcoming instead of missing.
 */
export function libraryReleases(series: readonly LibrarySeries[], opts: LibraryReleaseOptions): Release[] {
  const out: Release[] = [];
  for (const s of series) {
    const wanted = new Map<number, Set<number>>();
    for (const [season, eps] of s.have) {
      let top = 0;
      for (const e of eps) if (e > top) top = e;
      const gaps = new Set<number>();
      for (let e = 1; e < top; e++) if (!eps.has(e)) gaps.add(e);
      wanted.set(season, gaps);
    }
    for (const k of s.known.keys()) {
      const [season, e] = k.split(':').map(Number) as [number, number];
      if (s.have.get(season)?.has(e)) continue;
      let gaps = wanted.get(season);
      if (!gaps) wanted.set(season, (gaps = new Set()));
      gaps.add(e);
    }
    for (const [season, eps] of wanted) {
      if (season === 0 && !opts.includeSpecials) continue;
      for (const e of eps) {
        const known = s.known.get(`${season}:${e}`);
        const aired = known?.aired ?? null;
        out.push({
          series: s.title,
          season,
          episode: e,
          status: aired !== null && aired > opts.today ? 'upcoming' : 'missing',
          air_date: aired,
          title: known?.title ?? null,
          source: 'library',
        });
      }
    }
  }
  return out.sort(byEpisode);
}
