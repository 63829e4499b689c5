import type { IdentifiedSeries, SeriesIdentifier } from '../identify/identify.ts';
import type { ProviderAnswers, ProviderSeries } from './identify.ts';

/**
 * The provider's answers for a plan, which is pure and cannot wait: a plan asks, gets null for
 * what is not fetched yet, and the pass fetches what was asked and plans again.
 */
export interface AnswerBook extends ProviderAnswers {
  /** Fetches what the plans asked for and the book lacks; false when there was nothing new to fetch. */
  fetchAsked(identifier: SeriesIdentifier): Promise<boolean>;
}

type SeasonEpisodes = { season: number; episodes: number[] };

export function createAnswerBook(): AnswerBook {
  const series = new Map<string, ProviderSeries | null>();
  const absolute = new Map<string, SeasonEpisodes | null>();
  /** The provider's own record of each show it named, which its episode list is asked by. */
  const shows = new Map<number, IdentifiedSeries>();
  const askedSeries = new Map<string, { title: string; year: number | null; country: string | null }>();
  const askedAbsolute = new Map<string, { show: IdentifiedSeries; numbers: number[] }>();

  return {
    series(title, year, country) {
      const key = `${title}\0${year ?? ''}\0${country ?? ''}`;
      if (!series.has(key)) askedSeries.set(key, { title, year, country });
      return series.get(key) ?? null;
    },
    absolute(show, numbers) {
      const key = `${show.id}\0${numbers.join(',')}`;
      const known = shows.get(show.id);
      if (!absolute.has(key) && known) askedAbsolute.set(key, { show: known, numbers: [...numbers] });
      return absolute.get(key) ?? null;
    },
    async fetchAsked(identifier) {
      const titles = [...askedSeries].filter(([key]) => !series.has(key));
      const numbers = [...askedAbsolute].filter(([key]) => !absolute.has(key));
      askedSeries.clear();
      askedAbsolute.clear();
      await Promise.all([
        ...titles.map(async ([key, q]) => {
          // The identifier reads a country as a title carries it (`The Office (US)`), and holds the show to it.
          const r = await identifier.series(q.country === null ? q.title : `${q.title} (${q.country})`, q.year);
          if (r !== 'unknown') shows.set(r.id, r);
          series.set(key, r === 'unknown' ? null : { id: r.id, title: r.title, year: r.year, country: q.country });
        }),
        ...numbers.map(async ([key, q]) => {
          const r = await identifier.absolute(q.show, q.numbers);
          absolute.set(key, r === 'unknown' ? null : r);
        }),
      ]);
      return titles.length + numbers.length > 0;
    },
  };
}
