import { describe, expect, it } from 'vitest';
import type { IndexItem, LibraryIndex } from '@mo/shared';
import { buildFolderLookup, foldersOfIndex, rootKey, type FolderLookup, type LibraryFolder } from './folder-lookup.ts';

const tv = (drive: string, name: string, root = 'TV'): LibraryFolder => ({ drive, section: 'tv', root, name });
const mv = (drive: string, name: string, root = 'Movies'): LibraryFolder => ({ drive, section: 'movies', root, name });

const media = (title: string, year: number | null = null, country: string | null = null) => ({ title, year, country });
const found = (l: FolderLookup, section: 'tv' | 'movies', m: ReturnType<typeof media>) => {
  const r = l.find(section, m);
  return r.kind === 'found' ? r.folders.map((f) => `${f.drive}:${f.root}/${f.name}`) : `ambiguous: ${r.folders.map((f) => f.name).join(', ')}`;
};

describe('buildFolderLookup', () => {
  it('finds a series by title key, whatever the folder spelling', () => {
    const l = buildFolderLookup(
      [],
      [tv('a', "Marvel's Agents of S.H.I.E.L.D."), tv('b', 'The Office (US)'), tv('a', 'Law & Order', 'TV Shows'), tv('b', 'Doctor Who (2005) [tvdbid-78804]')],
      new Set(),
    );
    expect(l.find('tv', media("Marvel's Agents of S.H.I.E.L.D"))).toEqual({
      kind: 'found',
      folders: [{ drive: 'a', root: 'TV', name: "Marvel's Agents of S.H.I.E.L.D." }],
    });
    expect(found(l, 'tv', media('The Office', null, 'US'))).toEqual(['b:TV/The Office (US)']);
    expect(found(l, 'tv', media('Law and Order'))).toEqual(['a:TV Shows/Law & Order']);
    expect(found(l, 'tv', media('Doctor Who', 2005))).toEqual(['b:TV/Doctor Who (2005) [tvdbid-78804]']);
  });

  it('never puts a name with a year or country into a folder with another', () => {
    const l = buildFolderLookup([], [tv('a', 'Doctor Who (1963)'), tv('b', 'The Office (UK)')], new Set());
    expect(found(l, 'tv', media('Doctor Who', 2005))).toEqual([]);
    expect(found(l, 'tv', media('The Office', null, 'US'))).toEqual([]);
    expect(found(l, 'tv', media('The Office', null, 'UK'))).toEqual(['b:TV/The Office (UK)']);
  });

  it('tells series remakes apart, and refuses to choose for a name that fits both', () => {
    const l = buildFolderLookup(
      [],
      [tv('a', 'Doctor Who (1963)'), tv('b', 'Doctor Who (2005)', 'TV Shows'), tv('a', 'The Office (US)'), tv('b', 'The Office (UK)')],
      new Set(),
    );
    expect(found(l, 'tv', media('Doctor Who', 2005))).toEqual(['b:TV Shows/Doctor Who (2005)']);
    expect(found(l, 'tv', media('Doctor Who'))).toBe('ambiguous: Doctor Who (1963), Doctor Who (2005)');
    expect(found(l, 'tv', media('The Office'))).toBe('ambiguous: The Office (US), The Office (UK)');
    const plain = buildFolderLookup([], [tv('a', 'Doctor Who'), tv('b', 'Doctor Who (2005)')], new Set());
    expect(found(plain, 'tv', media('Doctor Who', 2005))).toEqual(['b:TV/Doctor Who (2005)']);
    expect(found(plain, 'tv', media('Doctor Who'))).toBe('ambiguous: Doctor Who, Doctor Who (2005)');
  });

  it('lets a name without year or country take the single show of its title, on every drive that holds it', () => {
    const l = buildFolderLookup([], [tv('a', 'Doctor Who (2005)'), tv('b', 'Doctor Who (2005)', 'TV Shows')], new Set());
    expect(found(l, 'tv', media('Doctor Who'))).toEqual(['a:TV/Doctor Who (2005)', 'b:TV Shows/Doctor Who (2005)']);
  });

  it('needs the year to match for movies, and reads accents and ids as the library names them', () => {
    const l = buildFolderLookup(
      [],
      [mv('a', 'Heat (1995)'), mv('a', 'Heat (1986)'), mv('b', 'Heat'), mv('b', 'Amélie (2001)'), mv('b', 'Alien (1979) {imdb-tt0078748}')],
      new Set(),
    );
    expect(l.find('movies', media('Heat', 1995))).toEqual({ kind: 'found', folders: [{ drive: 'a', root: 'Movies', name: 'Heat (1995)' }] });
    expect(found(l, 'movies', media('Heat', 2020))).toEqual([]);
    expect(found(l, 'movies', media('Amelie', 2001))).toEqual(['b:Movies/Amélie (2001)']);
    expect(found(l, 'movies', media('Alien', 1979))).toEqual(['b:Movies/Alien (1979) {imdb-tt0078748}']);
  });

  it('keeps sections apart', () => {
    const l = buildFolderLookup([], [mv('a', 'Fargo (1996)')], new Set());
    expect(found(l, 'tv', media('Fargo', 1996))).toEqual([]);
  });

  it('puts the index first, drops index folders gone from a listed root, keeps those of unlisted roots', () => {
    const index = [tv('b', 'Show'), tv('c', 'Show'), tv('d', 'Show')];
    const disk = [tv('a', 'Show'), tv('b', 'Show')];
    const l = buildFolderLookup(index, disk, new Set([rootKey('a', 'TV'), rootKey('b', 'TV'), rootKey('c', 'TV')]));
    expect(found(l, 'tv', media('Show'))).toEqual(['b:TV/Show', 'd:TV/Show', 'a:TV/Show']);
  });

  it('remembers folders added during the pass', () => {
    const l = buildFolderLookup([], [], new Set());
    l.add(tv('a', 'New Show (US)'));
    l.add(tv('a', 'New Show (US)'));
    expect(found(l, 'tv', media('New Show', null, 'US'))).toEqual(['a:TV/New Show (US)']);
    expect(found(l, 'tv', media('New Show', null, 'UK'))).toEqual([]);
  });
});

describe('foldersOfIndex', () => {
  const item = (over: Partial<IndexItem>): IndexItem => ({
    path: '',
    drive: 'a',
    section: 'tv',
    root: '/m/a/TV Shows',
    folder: '/m/a/TV Shows/Show',
    bytes: 1,
    mtime_ms: 0,
    ext: '.mkv',
    type: 'video',
    title: 'Show',
    year: null,
    season: 1,
    episodes: [1],
    air_date: null,
    extra: false,
    nfo: null,
    ...over,
  });

  it('lists each movie or series folder once and leaves loose files out', () => {
    const index = {
      items: [
        item({}),
        item({ path: 'x' }),
        item({ folder: '/m/a/TV Shows' }),
        item({ section: 'movies', root: '/m/a/Movies', folder: '/m/a/Movies/Heat (1995)' }),
      ],
    } as LibraryIndex;
    expect(foldersOfIndex(index)).toEqual([
      { drive: 'a', section: 'tv', root: 'TV Shows', name: 'Show' },
      { drive: 'a', section: 'movies', root: 'Movies', name: 'Heat (1995)' },
    ]);
    expect(foldersOfIndex(null)).toEqual([]);
  });
});
