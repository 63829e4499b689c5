import { byEpisode, type Release } from './release.ts';
import type { LibrarySeries } from './series-catalogue.ts';
import type { TvmazeEpisode } from './tvmaze-client.ts';

/**
 * The episodes TVmaze lists for a series that no video of the library holds: aired ones (air date
 * today or before) missing, the rest upcoming, an episode without a date yet among them. Specials
 * (no episode number) are left out, as TVmaze numbers them apart from the seasons.
 */
export function tvmazeReleases(series: LibrarySeries, episodes: readonly TvmazeEpisode[], today: string): Release[] {
  const out: Release[] = [];
  for (const ep of episodes) {
    if (ep.number === null || series.have.get(ep.season)?.has(ep.number)) continue;
    const airdate = ep.airdate || null;
    out.push({
      series: series.title,
      season: ep.season,
      episode: ep.number,
      status: airdate !== null && airdate <= today ? 'missing' : 'upcoming',
      air_date: airdate,
      title: ep.name ?? null,
      source: 'tvmaze',
    });
  }
  return out.sort(byEpisode);
}
