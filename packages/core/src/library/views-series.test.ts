import { describe, expect, it } from 'vitest';
import { episode, index, item } from '../releases/test-fixtures/index-items.ts';
import { libraryView, summaryAccumulator, summaryPartBuilder } from './views.ts';

const D1 = '/m/disk1';
const D2 = '/m/disk2';

describe('libraryView: series', () => {
  it('counts a series split over drives and over TV and TV Shows once, and each of its episodes once', () => {
    const view = libraryView(
      index([
        episode(`${D1}/TV/Lost`, 1, [1, 2]),
        episode(`${D2}/TV Shows/Lost`, 1, [2, 3]),
        episode(`${D2}/TV/Lost (2004) [tvdbid-73739]`, 2, [1]),
        item(`${D1}/TV/Lost.S03E01.720p.HDTV.mkv`, { title: 'Lost', season: 3, episodes: [1] }),
        episode(`${D1}/TV/Fargo (2014)`, 1, [1]),
      ]),
    );
    expect(view.summary).toMatchObject({ series: 2, episodes: 6 });
    // One entry per folder: each has its own folder and drive, and each copy has to be found.
    expect(view.series.map((s) => [s.folder, s.episode_count])).toEqual([
      [`${D1}/TV/Fargo (2014)`, 1],
      [`${D1}/TV`, 1],
      [`${D1}/TV/Lost`, 2],
      [`${D2}/TV Shows/Lost`, 2],
      [`${D2}/TV/Lost (2004) [tvdbid-73739]`, 1],
    ]);
  });

  it('counts remakes as the shows they are', () => {
    const view = libraryView(
      index([
        episode(`${D1}/TV/Doctor Who (1963)`, 1, [1]),
        episode(`${D2}/TV/Doctor Who (2005)`, 1, [1]),
        episode(`${D1}/TV/The Office (US)`, 1, [1]),
        episode(`${D2}/TV Shows/The Office (UK)`, 1, [1]),
        episode(`${D2}/TV/The Office (US)`, 1, [1]),
      ]),
    );
    expect(view.summary).toMatchObject({ series: 4, episodes: 4 });
    expect(view.series).toHaveLength(5);
  });

  it('keeps a show with one year apart from one with no year when another year is there too', () => {
    const view = libraryView(
      index([episode(`${D1}/TV/Doctor Who`, 1, [1]), episode(`${D1}/TV/Doctor Who (1963)`, 1, [1]), episode(`${D2}/TV/Doctor Who (2005)`, 1, [1])]),
    );
    expect(view.summary).toMatchObject({ series: 3, episodes: 3 });
  });

  it('lists a daily show with its dated episodes, by season folder or else by year, and counts them', () => {
    const show = `${D1}/TV/The Daily Show`;
    const items = [
      item(`${show}/Season 2024/The Daily Show - 2024-01-15.mkv`, { season: 2024, air_date: '2024-01-15' }),
      item(`${show}/Season 2024/The Daily Show - 2024-01-16.mkv`, { season: 2024, air_date: '2024-01-16' }),
      item(`${show}/The.Daily.Show.2023.12.12.mkv`, { air_date: '2023-12-12' }),
      item(`${show}/The.Daily.Show.2023.12.12.720p.mkv`, { air_date: '2023-12-12' }),
      item(`${show}/Season 2024/The Daily Show - 2024-01-15.en.srt`, { season: 2024, air_date: '2024-01-15' }),
      episode(`${D2}/TV/Lost`, 1, [1]),
    ];
    const view = libraryView(index(items));
    expect(view.series.find((s) => s.folder === show)).toMatchObject({
      seasons: [
        { season: 2023, episodes: [], air_dates: ['2023-12-12'] },
        { season: 2024, episodes: [], air_dates: ['2024-01-15', '2024-01-16'] },
      ],
      episode_count: 3,
    });
    expect(view.series.find((s) => s.title === 'Lost')!.seasons).toEqual([{ season: 1, episodes: [1] }]);
    expect(view.summary).toMatchObject({ series: 2, episodes: 4 });
    // What a rescan counts from the folders' stored parts (one part per folder) is the same.
    const acc = summaryAccumulator();
    for (const folder of new Set(items.map((i) => i.path.slice(0, i.path.lastIndexOf('/'))))) {
      const part = summaryPartBuilder();
      const own = items.filter((i) => i.path.slice(0, i.path.lastIndexOf('/')) === folder);
      for (const i of own) part.add(i);
      acc.add(JSON.parse(JSON.stringify(part.take())), own.length);
    }
    expect(acc.summary(index(items))).toEqual(view.summary);
  });
});
