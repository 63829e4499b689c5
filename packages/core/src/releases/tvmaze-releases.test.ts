import { describe, expect, it } from 'vitest';
import type { LibrarySeries } from './series-catalogue.ts';
import { tvmazeReleases } from './tvmaze-releases.ts';

const lost: LibrarySeries = { title: 'Lost', year: null, nfoTitle: null, ids: {}, have: new Map([[1, new Set([1, 3])]]), known: new Map() };

describe('tvmazeReleases', () => {
  it('lists what the library lacks: aired up to today missing, later or undated upcoming, specials left out', () => {
    const r = tvmazeReleases(
      lost,
      [
        { season: 2, number: 1, name: 'Later', airdate: '2026-03-11' },
        { season: 1, number: 3, name: 'Have it', airdate: '2004-10-06' },
        { season: 1, number: 2, name: 'Aired today', airdate: '2026-03-10' },
        { season: 1, number: null, name: 'A special', airdate: '2004-10-07' },
        { season: 1, number: 1, name: 'Have it too', airdate: '2004-09-22' },
        { season: 2, number: 2, airdate: '' },
        { season: 2, number: 3, name: null, airdate: null },
      ],
      '2026-03-10',
    );
    expect(r).toEqual([
      { series: 'Lost', season: 1, episode: 2, status: 'missing', air_date: '2026-03-10', title: 'Aired today', source: 'tvmaze' },
      { series: 'Lost', season: 2, episode: 1, status: 'upcoming', air_date: '2026-03-11', title: 'Later', source: 'tvmaze' },
      { series: 'Lost', season: 2, episode: 2, status: 'upcoming', air_date: null, title: null, source: 'tvmaze' },
      { series: 'Lost', season: 2, episode: 3, status: 'upcoming', air_date: null, title: null, source: 'tvmaze' },
    ]);
  });
});
