import { describe, expect, it } from 'vitest';
import type { IndexItem, LibraryIndex } from '@mo/shared';
import { buildFolderLookup, foldersOfIndex, rootKey, type LibraryFolder } from './folder-lookup.ts';

const tv = (drive: string, name: string, root = 'TV'): LibraryFolder => ({ drive, section: 'tv', root, name });
const mv = (drive: string, name: string, root = 'Movies'): LibraryFolder => ({ drive, section: 'movies', root, name });

describe('buildFolderLookup', () => {
  it('finds a series by normalised title, whatever the folder spelling', () => {
    const l = buildFolderLookup([], [tv('a', "Marvel's Agents of S.H.I.E.L.D."), tv('b', 'The Office (US)')], new Set());
    expect(l.find('tv', "Marvel's Agents of S.H.I.E.L.D", null)).toEqual([{ drive: 'a', root: 'TV', name: "Marvel's Agents of S.H.I.E.L.D." }]);
    expect(l.find('tv', 'Office (US)', null)).toHaveLength(1);
  });

  it('tells series remakes apart by year, and lets a name without a year match either', () => {
    const l = buildFolderLookup([], [tv('a', 'Doctor Who (1963)'), tv('b', 'Doctor Who (2005)')], new Set());
    expect(l.find('tv', 'Doctor Who', 2005).map((f) => f.drive)).toEqual(['b']);
    expect(l.find('tv', 'Doctor Who', null).map((f) => f.drive)).toEqual(['a', 'b']);
    const plain = buildFolderLookup([], [tv('a', 'Doctor Who'), tv('b', 'Doctor Who (2005)')], new Set());
    expect(plain.find('tv', 'Doctor Who', 2005).map((f) => f.drive)).toEqual(['b', 'a']);
  });

  it('needs the year to match for movies', () => {
    const l = buildFolderLookup([], [mv('a', 'Heat (1995)'), mv('a', 'Heat (1986)'), mv('b', 'Heat')], new Set());
    expect(l.find('movies', 'Heat', 1995)).toEqual([{ drive: 'a', root: 'Movies', name: 'Heat (1995)' }]);
    expect(l.find('movies', 'Heat', 2020)).toEqual([]);
  });

  it('keeps sections apart', () => {
    const l = buildFolderLookup([], [mv('a', 'Fargo (1996)')], new Set());
    expect(l.find('tv', 'Fargo', 1996)).toEqual([]);
  });

  it('puts the index first, drops index folders gone from a listed root, keeps those of unlisted roots', () => {
    const index = [tv('b', 'Show'), tv('c', 'Show'), tv('d', 'Show')];
    const disk = [tv('a', 'Show'), tv('b', 'Show')];
    const l = buildFolderLookup(index, disk, new Set([rootKey('a', 'TV'), rootKey('b', 'TV'), rootKey('c', 'TV')]));
    expect(l.find('tv', 'Show', null).map((f) => f.drive)).toEqual(['b', 'd', 'a']);
  });

  it('remembers folders added during the pass', () => {
    const l = buildFolderLookup([], [], new Set());
    l.add(tv('a', 'New Show'));
    l.add(tv('a', 'New Show'));
    expect(l.find('tv', 'New Show', null)).toEqual([{ drive: 'a', root: 'TV', name: 'New Show' }]);
  });
});

describe('foldersOfIndex', () => {
  const item = (over: Partial<IndexItem>): IndexItem => ({
    path: '', drive: 'a', section: 'tv', root: '/m/a/TV Shows', folder: '/m/a/TV Shows/Show', bytes: 1, mtime_ms: 0, ext: '.mkv',
    type: 'video', title: 'Show', year: null, season: 1, episodes: [1], air_date: null, extra: false, nfo: null, ...over,
  });

  it('lists each movie or series folder once and leaves loose files out', () => {
    const index = {
      items: [item({}), item({ path: 'x' }), item({ folder: '/m/a/TV Shows' }), item({ section: 'movies', root: '/m/a/Movies', folder: '/m/a/Movies/Heat (1995)' })],
    } as LibraryIndex;
    expect(foldersOfIndex(index)).toEqual([
      { drive: 'a', section: 'tv', root: 'TV Shows', name: 'Show' },
      { drive: 'a', section: 'movies', root: 'Movies', name: 'Heat (1995)' },
    ]);
    expect(foldersOfIndex(null)).toEqual([]);
  });
});
