import { describe, expect, it } from 'vitest';
import { folderClaims, sectionOf } from './library-roots.ts';

describe('sectionOf', () => {
  const movies = ['Movies', 'Films'];
  const tv = ['TV', 'TV Shows'];
  it.each([
    ['Movies', 'movies'],
    ['Films', 'movies'],
    ['TV', 'tv'],
    ['TV Shows', 'tv'],
    ['Downloads', null],
    ['movies', null],
    ['TV Shows ', null],
  ])('%s → %s', (name, section) => {
    expect(sectionOf(name, movies, tv)).toBe(section);
  });

  it('takes a name on both lists as movies', () => {
    expect(sectionOf('Media', ['Media'], ['Media'])).toBe('movies');
  });
});

describe('folderClaims', () => {
  const st = (dev: number, ino: number) => ({ mtimeMs: 0, ctimeMs: 0, dev, ino });

  it('enters each folder once by device and inode, whatever its path', () => {
    const skipped: [string, unknown][] = [];
    const claims = folderClaims((path, err) => skipped.push([path, err]));
    expect(claims.enter('/m/Movies', st(1, 10))).toBe(true);
    expect(claims.enter('/m/Movies/Loop', st(1, 10))).toBe(false);
    expect(claims.enter('/m/TV', st(2, 10))).toBe(true);
    expect(skipped).toEqual([]);
  });

  it('skips a folder above the library folders as a loop, every time it is reached', () => {
    const skipped: [string, unknown][] = [];
    const claims = folderClaims((path, err) => skipped.push([path, err]));
    claims.setAbove(new Set(['1:2']));
    expect(claims.enter('/m/Movies/Up', st(1, 2))).toBe(false);
    expect(claims.enter('/m/TV/Up', st(1, 2))).toBe(false);
    expect(skipped).toEqual([
      ['/m/Movies/Up', { code: 'ELOOP' }],
      ['/m/TV/Up', { code: 'ELOOP' }],
    ]);
  });
});
