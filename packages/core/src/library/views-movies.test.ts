import { describe, expect, it } from 'vitest';
import { index, item } from '../releases/test-fixtures/index-items.ts';
import { libraryView, unitKey } from './views.ts';

const M = '/m/disk1/Movies';

describe('libraryView: movies', () => {
  it('counts the loose parts of a movie as one movie, keyed by its first part', () => {
    const view = libraryView(
      index([
        item(`${M}/Ronin (1998) - cd1.mkv`, { title: 'Ronin', year: 1998 }),
        item(`${M}/Ronin (1998) - cd2.mkv`, { title: 'Ronin', year: 1998 }),
        item(`${M}/Ran (1985)-b.mkv`, { title: 'Ran', year: 1985 }),
        item(`${M}/Ran (1985)-a.mkv`, { title: 'Ran', year: 1985 }),
        item(`${M}/Heat (1995)/Heat (1995) - cd1.mkv`),
        item(`${M}/Heat (1995)/Heat (1995) - cd2.mkv`),
      ]),
    );
    expect(view.summary.movies).toBe(3);
    expect(view.movies.map((m) => [m.title, m.folder, m.files])).toEqual([
      ['Heat', `${M}/Heat (1995)`, 2],
      ['Ran', `${M}/Ran (1985)-a.mkv`, 2],
      ['Ronin', `${M}/Ronin (1998) - cd1.mkv`, 2],
    ]);
  });

  it('keeps apart what only looks alike: a whole file beside parts, other extensions, sequels', () => {
    const keys = [
      `${M}/Ronin (1998).mkv`,
      `${M}/Ronin (1998) - cd1.mkv`,
      `${M}/Ronin (1998) - cd2.avi`,
      `${M}/Deathly Hallows - Part 1.mkv`,
      `${M}/Deathly Hallows - Part 2.mkv`,
    ].map((p) => unitKey(item(p)));
    expect(new Set(keys).size).toBe(5);
  });

  it('leaves TV items and files in folders as they were', () => {
    expect(unitKey(item('/m/disk1/TV/Show - cd2.mkv'))).toBe('/m/disk1/TV/Show - cd2.mkv');
    expect(unitKey(item(`${M}/Heat (1995)/Heat (1995) - cd2.mkv`))).toBe(`${M}/Heat (1995)`);
  });
});
