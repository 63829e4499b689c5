import { describe, expect, it } from 'vitest';
import type { IndexItem, NfoInfo } from '@mo/shared';
import { episode, item } from './test-fixtures/index-items.ts';
import { collectSeries } from './series-catalogue.ts';
import { libraryReleases } from './library-releases.ts';

const T1 = '/m/disk1/TV';
const T2 = '/m/disk2/TV Shows';
const TODAY = '2026-03-10';

function releases(items: IndexItem[], opts: { readNfo?: boolean; includeSpecials?: boolean } = {}) {
  return libraryReleases(collectSeries(items, { readNfo: opts.readNfo ?? true }), { includeSpecials: opts.includeSpecials ?? false, today: TODAY });
}
const brief = (items: IndexItem[], opts?: { readNfo?: boolean; includeSpecials?: boolean }) =>
  releases(items, opts).map((r) => `${r.series} S${r.season}E${r.episode} ${r.status}`);

function episodeNfo(seriesFolder: string, season: number, e: number, nfo: Partial<NfoInfo>, fields: Partial<IndexItem> = {}): IndexItem {
  return item(`${seriesFolder}/Season ${season}/ep-${season}-${e}.nfo`, {
    season,
    episodes: [e],
    nfo: { kind: 'episode', title: null, season, episode: e, aired: null, ...nfo },
    ...fields,
  });
}

describe('libraryReleases: gaps', () => {
  it('reports the numbers below the highest episode of each season that no video holds', () => {
    const lost = `${T1}/Lost`;
    const r = releases([episode(lost, 1, [1]), episode(lost, 1, [4]), episode(lost, 2, [2])]);
    expect(r).toEqual([
      { series: 'Lost', season: 1, episode: 2, status: 'missing', air_date: null, title: null, source: 'library' },
      { series: 'Lost', season: 1, episode: 3, status: 'missing', air_date: null, title: null, source: 'library' },
      { series: 'Lost', season: 2, episode: 1, status: 'missing', air_date: null, title: null, source: 'library' },
    ]);
  });

  it('counts a multi-episode file for each of its episodes', () => {
    const lost = `${T1}/Lost`;
    expect(brief([episode(lost, 1, [1, 2, 3]), episode(lost, 1, [5])])).toEqual(['Lost S1E4 missing']);
  });

  it('reports nothing for complete seasons, extras, or episodes without numbers', () => {
    const lost = `${T1}/Lost`;
    expect(
      brief([
        episode(lost, 1, [1]),
        episode(lost, 1, [2]),
        item(`${lost}/Extras/Making of S01E09.mkv`, { extra: true, season: 1, episodes: [9] }),
        item(`${T1}/The Daily Show/The.Daily.Show.2024.03.14.mkv`, { air_date: '2024-03-14' }),
      ]),
    ).toEqual([]);
  });

  it('reports season 0 only with include_specials', () => {
    const sherlock = `${T1}/Sherlock`;
    const items = [episode(sherlock, 0, [1]), episode(sherlock, 0, [3]), episode(sherlock, 1, [1])];
    expect(brief(items)).toEqual([]);
    expect(brief(items, { includeSpecials: true })).toEqual(['Sherlock S0E2 missing']);
  });

  it('merges a series held in several folders across drives and TV / TV Shows, and keeps different shows apart', () => {
    expect(
      brief([
        episode(`${T1}/Lost`, 1, [1]),
        episode(`${T2}/Lost (2004)`, 1, [3]),
        episode(`${T2}/Lost (2004)`, 1, [2]),
        episode(`${T1}/Doctor Who (1963)`, 1, [2]),
        episode(`${T2}/Doctor Who (2005)`, 1, [3]),
      ]),
    ).toEqual(['Doctor Who S1E1 missing', 'Doctor Who S1E1 missing', 'Doctor Who S1E2 missing']);
  });

  it('groups loose episodes in the TV folder by their series title', () => {
    expect(
      brief([
        item(`${T1}/Fargo.S02E01.mkv`, { title: 'Fargo', season: 2, episodes: [1] }),
        item(`${T1}/Fargo.S02E04.mkv`, { title: 'Fargo', season: 2, episodes: [4] }),
        item(`${T1}/Other.S01E03.mkv`, { title: 'Other', season: 1, episodes: [3] }),
      ]),
    ).toEqual(['Fargo S2E2 missing', 'Fargo S2E3 missing', 'Other S1E1 missing', 'Other S1E2 missing']);
  });
});

describe('libraryReleases: .nfo metadata', () => {
  const lost = `${T1}/Lost`;

  it('reports episodes an .nfo knows that no video holds, past ones missing and future ones upcoming', () => {
    const r = releases([
      episode(lost, 1, [1]),
      episodeNfo(lost, 1, 1, { title: 'Pilot', aired: '2004-09-22' }),
      episodeNfo(lost, 1, 2, { title: 'Pilot (2)', aired: '2004-09-29' }),
      episodeNfo(lost, 2, 1, { title: 'Soon', aired: '2026-03-11' }),
      episodeNfo(lost, 2, 2, { title: 'Today', aired: TODAY }),
      episodeNfo(lost, 2, 3, { title: 'Undated', aired: null }),
    ]);
    expect(r).toEqual([
      { series: 'Lost', season: 1, episode: 2, status: 'missing', air_date: '2004-09-29', title: 'Pilot (2)', source: 'library' },
      { series: 'Lost', season: 2, episode: 1, status: 'upcoming', air_date: '2026-03-11', title: 'Soon', source: 'library' },
      { series: 'Lost', season: 2, episode: 2, status: 'missing', air_date: TODAY, title: 'Today', source: 'library' },
      { series: 'Lost', season: 2, episode: 3, status: 'missing', air_date: null, title: 'Undated', source: 'library' },
    ]);
  });

  it('names a gap from its .nfo, and makes it upcoming when it has not aired', () => {
    const r = releases([episode(lost, 1, [1]), episode(lost, 1, [3]), episodeNfo(lost, 1, 2, { title: 'Later', aired: '2027-01-01' })]);
    expect(r).toEqual([{ series: 'Lost', season: 1, episode: 2, status: 'upcoming', air_date: '2027-01-01', title: 'Later', source: 'library' }]);
  });

  it('takes season and episode from the .nfo text, else from its file name', () => {
    expect(brief([episodeNfo(lost, 1, 1, { season: 3, episode: 7 })])).toEqual(['Lost S3E7 missing']);
    expect(brief([episodeNfo(lost, 1, 1, { season: null, episode: null }, { episodes: [4, 5] })])).toEqual(['Lost S1E4 missing', 'Lost S1E5 missing']);
  });

  it('ignores .nfo files without read_nfo', () => {
    expect(brief([episode(lost, 1, [1]), episodeNfo(lost, 1, 2, { aired: '2027-01-01' })], { readNfo: false })).toEqual([]);
  });

  it('keeps specials from .nfo files out without include_specials', () => {
    expect(brief([episodeNfo(lost, 0, 1, {})])).toEqual([]);
    expect(brief([episodeNfo(lost, 0, 1, {})], { includeSpecials: true })).toEqual(['Lost S0E1 missing']);
  });
});

describe('collectSeries', () => {
  it('takes the title and ids of a tvshow.nfo, and merges the folders of one series', () => {
    const nfo = { kind: 'tvshow' as const, title: 'LOST', season: null, episode: null, aired: null, ids: { tvdb: '73739', imdb: 'tt0411008', tmdb: '4607' } };
    const series = collectSeries([episode(`${T1}/Lost`, 1, [1]), item(`${T2}/Lost/tvshow.nfo`, { nfo }), episode(`${T2}/Lost`, 2, [1, 2])], { readNfo: true });
    expect(series).toEqual([
      {
        title: 'Lost',
        year: null,
        nfoTitle: 'LOST',
        ids: { tvdb: 73739, imdb: 'tt0411008' },
        have: new Map([
          [1, new Set([1])],
          [2, new Set([1, 2])],
        ]),
        known: new Map(),
      },
    ]);
    expect(collectSeries([item(`${T2}/Lost/tvshow.nfo`, { nfo })], { readNfo: false })).toEqual([]);
  });

  it('merges folders by title key, keeping remakes apart by country and year', () => {
    const series = collectSeries(
      [
        episode(`${T1}/The Office (US)`, 1, [1]),
        episode(`${T2}/The Office (US) [tvdbid-73244]`, 2, [1]),
        episode(`${T2}/The Office (UK)`, 1, [1, 2]),
        episode(`${T1}/Doctor Who (2005)`, 1, [1]),
        episode(`${T2}/Doctor Who (1963)`, 1, [1]),
        item(`${T1}/Law.and.Order.S01E02.mkv`, { title: 'Law and Order', season: 1, episodes: [2] }),
        episode(`${T2}/Law & Order`, 1, [1]),
      ],
      { readNfo: true },
    );
    expect(series.map((s) => [s.title, s.year, [...s.have].map(([season, eps]) => `${season}:${[...eps].join(',')}`).join(' ')])).toEqual([
      ['Doctor Who', 2005, '1:1'],
      ['Doctor Who', 1963, '1:1'],
      ['Law and Order', null, '1:2,1'],
      ['The Office (UK)', null, '1:1,2'],
      ['The Office (US)', null, '1:1 2:1'],
    ]);
  });

  it('counts a folder with only a tvshow.nfo as a series to ask providers about', () => {
    const nfo = { kind: 'tvshow' as const, title: 'Severance', season: null, episode: null, aired: null };
    expect(collectSeries([item(`${T1}/Severance/tvshow.nfo`, { nfo }), item(`${T1}/Art/poster.jpg`)], { readNfo: true }).map((s) => s.title)).toEqual([
      'Severance',
    ]);
  });
});
