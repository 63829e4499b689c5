import { describe, expect, it } from 'vitest';
import type { IndexItem } from '@mo/shared';
import { episode, index, item } from '../releases/test-fixtures/index-items.ts';
import { catalogAccumulator, catalogPage, FILTERS_KEPT, pictureRank, type CatalogQuery, type LibraryCatalog } from './catalog.ts';
import { libraryView } from './views.ts';

const M1 = '/m/disk1/Movies';
const M2 = '/m/disk2/Movies';
const T1 = '/m/disk1/TV';

function catalogOf(items: IndexItem[]): LibraryCatalog {
  const acc = catalogAccumulator();
  for (const i of items) acc.add(i);
  return acc.catalog(index(items));
}

const ITEMS = [
  item(`${M1}/Heat (1995)/Heat (1995).mkv`, { bytes: 300, mtime_ms: 1000 }),
  item(`${M1}/Heat (1995)/Poster.JPG`, { mtime_ms: 5000 }),
  item(`${M1}/Heat (1995)/Heat (1995).en.srt`),
  item(`${M1}/Alien (1979)/Alien (1979).mkv`, { bytes: 100, mtime_ms: 3000 }),
  item(`${M1}/Alien (1979)/extras/poster.jpg`),
  item(`${M2}/Brazil (1985)/Brazil (1985).mkv`, { bytes: 200, mtime_ms: 2000 }),
  item(`${M2}/Brazil (1985)/folder.png`),
  item(`${M2}/Brazil (1985)/poster.jpeg`),
  episode(`${T1}/Lost`, 1, [1], { bytes: 10 }),
  episode(`${T1}/Lost`, 1, [3], { bytes: 10 }),
  episode(`${T1}/Dark`, 1, [1, 2], { bytes: 50 }),
  episode(`${T1}/Dark`, 0, [5], { bytes: 1 }),
];

const query = (q: Partial<CatalogQuery>): CatalogQuery => ({ sort: 'title', order: 'asc', offset: 0, ...q });
const titles = (entries: { view: { title: string } }[]) => entries.map((e) => e.view.title);

describe('catalogAccumulator', () => {
  it('holds the library view unchanged, in its order', () => {
    const catalog = catalogOf(ITEMS);
    const view = libraryView(index(ITEMS));
    expect(catalog.summary).toEqual(view.summary);
    expect(catalog.movies.map((e) => e.view)).toEqual(view.movies);
    expect(catalog.series.map((e) => e.view)).toEqual(view.series);
    expect(catalog.drives).toEqual(['disk1', 'disk2']);
  });

  it('takes a poster or folder image straight in the folder as its picture, a poster first', () => {
    const catalog = catalogOf(ITEMS);
    const picture = Object.fromEntries(catalog.movies.map((e) => [e.view.title, e.picture]));
    expect(picture).toEqual({ Alien: null, Brazil: `${M2}/Brazil (1985)/poster.jpeg`, Heat: `${M1}/Heat (1995)/Poster.JPG` });
    expect(catalog.byFolder.get(`${M1}/Heat (1995)`)?.picture).toBe(`${M1}/Heat (1995)/Poster.JPG`);
    expect(catalog.byFolder.get(`${M1}/Alien (1979)`)?.picture).toBeNull();
    expect(pictureRank('cover.jpg')).toBe(-1);
  });

  it('dates each title by its newest file and says what it lacks', () => {
    const catalog = catalogOf(ITEMS);
    const heat = catalog.movies.find((e) => e.view.title === 'Heat')!;
    expect(heat.added).toBe(5000);
    expect(heat.missing).toEqual([]);
    expect(catalog.movies.find((e) => e.view.title === 'Alien')!.missing).toEqual(['picture', 'subtitles']);
    // Lost skips episode 2; Dark's season 0 does not count as a gap.
    expect(Object.fromEntries(catalog.series.map((e) => [e.view.title, e.missing]))).toEqual({
      Dark: ['picture', 'subtitles'],
      Lost: ['picture', 'subtitles', 'episodes'],
    });
  });

  it('is the empty view before the first scan', () => {
    const catalog = catalogAccumulator().catalog(null);
    expect(catalog.summary.scanned_at).toBeNull();
    expect(catalog.movies).toEqual([]);
  });
});

describe('catalogPage', () => {
  it('holding: the one movie or series whose folder is the path or holds it, never a folder of a similar name', () => {
    const catalog = catalogOf(ITEMS);
    const held = (path: string) => {
      const p = catalogPage(catalog, query({ holding: path, q: 'no such title', kind: 'movie' }));
      return { movies: titles(p.movies), series: titles(p.series), total: p.total };
    };
    expect(held(`${M1}/Heat (1995)/Heat (1995).mkv`)).toEqual({ movies: ['Heat'], series: [], total: { movies: 1, series: 0 } });
    expect(held(`${M1}/Heat (1995)`)).toEqual({ movies: ['Heat'], series: [], total: { movies: 1, series: 0 } });
    expect(held(`${M1}/Heat (1995)/`).movies).toEqual(['Heat']);
    expect(held(`${M1}/Alien (1979)/extras/poster.jpg`).movies).toEqual(['Alien']);
    expect(held(`${T1}/Lost/Season 01/Lost - S01E03.mkv`)).toEqual({ movies: [], series: ['Lost'], total: { movies: 0, series: 1 } });
    expect(held(`${M1}/Heat (1995) 2/Heat 2.mkv`)).toEqual({ movies: [], series: [], total: { movies: 0, series: 0 } });
    expect(held('/elsewhere/file.mkv').total).toEqual({ movies: 0, series: 0 });
    expect(held('/').total).toEqual({ movies: 0, series: 0 });
  });

  it('sorts by title, size and date either way, ties in title order', () => {
    const catalog = catalogOf(ITEMS);
    expect(titles(catalogPage(catalog, query({ order: 'desc' })).movies)).toEqual(['Heat', 'Brazil', 'Alien']);
    expect(titles(catalogPage(catalog, query({ sort: 'size', order: 'desc' })).movies)).toEqual(['Heat', 'Brazil', 'Alien']);
    expect(titles(catalogPage(catalog, query({ sort: 'size', order: 'asc' })).movies)).toEqual(['Alien', 'Brazil', 'Heat']);
    expect(titles(catalogPage(catalog, query({ sort: 'added', order: 'desc' })).movies)).toEqual(['Heat', 'Alien', 'Brazil']);
    const tied = catalogOf([item(`${M1}/B (2000)/B (2000).mkv`), item(`${M1}/A (2000)/A (2000).mkv`)]);
    expect(titles(catalogPage(tied, query({ sort: 'size', order: 'desc' })).movies)).toEqual(['A', 'B']);
    expect(titles(catalogPage(tied, query({ sort: 'size', order: 'asc' })).movies)).toEqual(['A', 'B']);
  });

  it('filters by text, drive and what is missing, counting both kinds whatever kind is asked for', () => {
    const catalog = catalogOf(ITEMS);
    expect(titles(catalogPage(catalog, query({ drive: 'disk2' })).movies)).toEqual(['Brazil']);
    expect(titles(catalogPage(catalog, query({ q: 'EA' })).movies)).toEqual(['Heat']);
    expect(titles(catalogPage(catalog, query({ q: '1979' })).movies)).toEqual(['Alien']);
    const gaps = catalogPage(catalog, query({ missing: 'episodes' }));
    expect(gaps).toMatchObject({ movies: [], total: { movies: 0, series: 1 } });
    expect(titles(gaps.series)).toEqual(['Lost']);
    const moviesOnly = catalogPage(catalog, query({ kind: 'movie', missing: 'subtitles' }));
    expect(titles(moviesOnly.movies)).toEqual(['Alien', 'Brazil']);
    expect(moviesOnly.series).toEqual([]);
    expect(moviesOnly.total).toEqual({ movies: 2, series: 2 });
  });

  it('cuts each list to offset and limit, totals counting all that match', () => {
    const catalog = catalogOf(ITEMS);
    const page = catalogPage(catalog, query({ offset: 1, limit: 1 }));
    expect(titles(page.movies)).toEqual(['Brazil']);
    expect(titles(page.series)).toEqual(['Lost']);
    expect(page.total).toEqual({ movies: 3, series: 2 });
    expect(catalogPage(catalog, query({ offset: 5 })).movies).toEqual([]);
    const filtered = catalogPage(catalog, query({ q: 'a', offset: 1, limit: 1 }));
    expect(titles(filtered.movies)).toEqual(['Brazil']);
    expect(filtered.series).toEqual([]);
    expect(filtered.total).toEqual({ movies: 3, series: 1 });
  });

  it('sorts a list once per sort and order, however many pages are asked for', () => {
    const catalog = catalogOf(ITEMS);
    catalogPage(catalog, query({ sort: 'size', order: 'desc' }));
    const kept = catalog.orders.get('movies:size:desc');
    catalogPage(catalog, query({ sort: 'size', order: 'desc', offset: 1, limit: 1, q: 'a' }));
    expect(catalog.orders.get('movies:size:desc')).toBe(kept);
  });

  it('keeps the matches of the last filters, so the next page of one is a slice, and forgets the oldest', () => {
    const catalog = catalogOf(ITEMS);
    catalogPage(catalog, query({ q: 'a', limit: 1 }));
    const kept = [...catalog.filtered.values()];
    expect(titles(catalogPage(catalog, query({ q: 'A', offset: 1, limit: 1 })).movies)).toEqual(['Brazil']);
    expect([...catalog.filtered.values()]).toEqual(kept);
    expect([...catalog.filtered.values()][0]).toBe(kept[0]);
    for (let i = 0; i < FILTERS_KEPT; i++) catalogPage(catalog, query({ q: `x${i}` }));
    expect(catalog.filtered.size).toBe(FILTERS_KEPT);
    expect([...catalog.filtered.values()]).not.toContain(kept[0]);
  });
});
