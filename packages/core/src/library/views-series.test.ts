import { describe, expect, it } from 'vitest';
import { episode, index, item } from '../releases/test-fixtures/index-items.ts';
import { libraryView } from './views.ts';

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
});
