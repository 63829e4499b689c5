import { describe, expect, it } from 'vitest';
import { PAGE_SIZE, pageQuery, shownRange, toldApart } from './library-rows.ts';

describe('toldApart', () => {
  it('names the folders of rows that share a title on one drive, and only those', () => {
    const row = (title: string, drive: string, folder: string) => ({ title, drive, folder, detail: '1 file' });
    const rows = [
      row('Alien (1979)', 'disk1', '/m/disk1/Movies/Alien (1979)'),
      row('Alien (1979)', 'disk1', '/m/disk1/Movies/Alien.1979.Directors.Cut'),
      row('Alien (1979)', 'disk2', '/m/disk2/Movies/Alien (1979)'),
      row('Heat (1995)', 'disk1', '/m/disk1/Movies/Heat (1995)'),
    ];
    expect(toldApart(rows).map((r) => r.detail)).toEqual(['1 file · Alien (1979)', '1 file · Alien.1979.Directors.Cut', '1 file', '1 file']);
  });
});

describe('pageQuery', () => {
  const base = { tab: 'movies', text: '', drive: '', missing: '', sort: 'title:asc', offset: 0 } as const;
  it('always asks for a page of one kind, leaving empty choices out', () => {
    expect(pageQuery(base)).toEqual({ kind: 'movie', sort: 'title', order: 'asc', limit: PAGE_SIZE, offset: 0 });
  });
  it('passes the trimmed search, the drive, what is missing and the sort', () => {
    expect(pageQuery({ ...base, tab: 'series', text: ' lost ', drive: 'disk2', missing: 'episodes', sort: 'added:desc', offset: 100 })).toEqual({
      kind: 'series',
      sort: 'added',
      order: 'desc',
      limit: PAGE_SIZE,
      offset: 100,
      q: 'lost',
      drive: 'disk2',
      missing: 'episodes',
    });
  });
});

describe('shownRange', () => {
  it('names the titles shown and how many match', () => {
    expect(shownRange(100, 100, 1234)).toBe('101–200 of 1,234');
    expect(shownRange(0, 3, 3)).toBe('1–3 of 3');
    expect(shownRange(0, 0, 0)).toBe('None');
  });
});
