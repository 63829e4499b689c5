import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { libraryScanOptions, libraryView, readLibraryIndex, scanLibrary, writeLibraryIndex } from '@mo/core';
import { testApp, type TestApp } from '../test-support/app.ts';
import { MAX_PICTURE_BYTES } from './library-picture.ts';

let t: TestApp;
afterEach(async () => t?.close());

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);

async function put(rel: string, content: number | Buffer, mtime?: number) {
  const p = join(t.install.paths.drive, rel);
  await mkdir(join(p, '..'), { recursive: true });
  await writeFile(p, typeof content === 'number' ? Buffer.alloc(content) : content);
  if (mtime !== undefined) await utimes(p, mtime / 1000, mtime / 1000);
}

async function indexNow() {
  const cfg = t.config.current();
  await writeLibraryIndex(cfg.paths.data, await scanLibrary(libraryScanOptions(cfg)));
  await t.library.refresh();
}

async function library(query = ''): Promise<any> {
  const res = await t.app.request(`/api/library${query}`);
  expect(res.status, query).toBe(200);
  return res.json();
}

const titles = (list: { title: string }[]) => list.map((m) => m.title);

/** Three movies on two drives, two series (Lost skips an episode). */
async function smallLibrary() {
  t = await testApp();
  const disk2 = join(t.install.paths.drive, '..', 'disk2');
  await mkdir(disk2, { recursive: true });
  await t.config.updateSettings({ drives: [...t.config.current().drives, { name: 'disk2', path: disk2 }] });
  await put('Movies/Heat (1995)/Heat (1995).mkv', 300, 1_700_000_000_000);
  await put('Movies/Heat (1995)/poster.jpg', JPEG, 1_700_000_000_000);
  await put('Movies/Heat (1995)/Heat (1995).en.srt', 5, 1_700_000_000_000);
  await put('Movies/Alien (1979)/Alien (1979).mkv', 100, 1_750_000_000_000);
  await put('../disk2/Movies/Brazil (1985)/Brazil (1985).mkv', 200, 1_600_000_000_000);
  await put('../disk2/Movies/Brazil (1985)/Folder.PNG', PNG, 1_600_000_000_000);
  await put('TV/Lost/Season 1/Lost - S01E01.mkv', 10);
  await put('TV/Lost/Season 1/Lost - S01E03.mkv', 10);
  await put('TV/Dark/Season 1/Dark - S01E01.mkv', 10);
  await indexNow();
}

describe('GET /api/library without paging parameters', () => {
  it('answers the very bytes of the library view, as before paging existed; empty parameters change nothing', async () => {
    await smallLibrary();
    const index = await readLibraryIndex(t.config.current().paths.data);
    const expected = JSON.stringify(libraryView(index));
    for (const q of ['', '?q=', '?limit=&offset=&sort=&order=&kind=&drive=&missing=']) {
      const res = await t.app.request(`/api/library${q}`);
      expect(await res.text(), q).toBe(expected);
    }
    expect(expected).not.toContain('"page"');
    expect(expected).not.toContain('"picture"');
  });
});

describe('GET /api/library paged', () => {
  it('pages each list, with totals, the drives and what each title adds', async () => {
    await smallLibrary();
    const first = await library('?limit=2');
    expect(titles(first.movies)).toEqual(['Alien', 'Brazil']);
    expect(titles(first.series)).toEqual(['Dark', 'Lost']);
    expect(first.page).toEqual({ offset: 0, limit: 2, sort: 'title', order: 'asc', total: { movies: 3, series: 2 }, drives: ['disk1', 'disk2'] });
    expect(first.summary).toMatchObject({ movies: 3, series: 2 });
    const next = await library('?limit=2&offset=2');
    expect(titles(next.movies)).toEqual(['Heat']);
    expect(next.movies[0]).toMatchObject({ picture: true, missing: [], added: new Date(1_700_000_000_000).toISOString(), bytes: 305 + JPEG.length });
    expect(next.series).toEqual([]);
  });

  it('sorts by size and by the newest file, either way', async () => {
    await smallLibrary();
    expect(titles((await library('?sort=size')).movies)).toEqual(['Heat', 'Brazil', 'Alien']);
    expect(titles((await library('?sort=size&order=asc')).movies)).toEqual(['Alien', 'Brazil', 'Heat']);
    expect(titles((await library('?sort=added')).movies)).toEqual(['Alien', 'Heat', 'Brazil']);
    expect(titles((await library('?sort=title&order=desc')).movies)).toEqual(['Heat', 'Brazil', 'Alien']);
  });

  it('filters by text, kind, drive and what is missing', async () => {
    await smallLibrary();
    expect(titles((await library('?q=LIEN')).movies)).toEqual(['Alien']);
    expect(titles((await library('?drive=disk2')).movies)).toEqual(['Brazil']);
    const movies = await library('?kind=movie');
    expect(movies.series).toEqual([]);
    expect(movies.page.total).toEqual({ movies: 3, series: 2 });
    expect(titles((await library('?missing=picture')).movies)).toEqual(['Alien']);
    expect(titles((await library('?missing=subtitles')).movies)).toEqual(['Alien', 'Brazil']);
    const gaps = await library('?missing=episodes');
    expect(gaps.movies).toEqual([]);
    expect(titles(gaps.series)).toEqual(['Lost']);
    expect(gaps.series[0].missing).toEqual(['picture', 'subtitles', 'episodes']);
  });

  it('holding: the one movie or series a file or folder lies in, whatever else is asked', async () => {
    await smallLibrary();
    const drive = t.install.paths.drive;
    const heat = await library(`?holding=${encodeURIComponent(`${drive}/Movies/Heat (1995)/Heat (1995).en.srt`)}&q=zzz`);
    expect(titles(heat.movies)).toEqual(['Heat']);
    expect(heat.series).toEqual([]);
    expect(heat.page.total).toEqual({ movies: 1, series: 0 });
    const lost = await library(`?holding=${encodeURIComponent(`${drive}/TV/Lost/Season 1/Lost - S01E03.mkv`)}`);
    expect(titles(lost.series)).toEqual(['Lost']);
    expect((await library(`?holding=${encodeURIComponent(`${drive}/Movies/Heat (1995) 2`)}`)).page.total).toEqual({ movies: 0, series: 0 });
  });

  it('refuses bad values with a 400 naming the parameter', async () => {
    await smallLibrary();
    for (const [q, key] of [
      ['?limit=0', 'limit'],
      ['?limit=501', 'limit'],
      ['?limit=1e2', 'limit'],
      ['?offset=-1', 'offset'],
      ['?offset=x', 'offset'],
      ['?kind=film', 'kind'],
      ['?sort=rating', 'sort'],
      ['?order=up', 'order'],
      ['?missing=nfo', 'missing'],
      [`?q=${'a'.repeat(201)}`, 'q'],
      ['?holding=Movies/Heat', 'holding'],
      [`?holding=/${'a'.repeat(4096)}`, 'holding'],
    ]) {
      const res = await t.app.request(`/api/library${q}`);
      expect(res.status, q).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message, q).toMatch(new RegExp(`^${key}:`));
    }
  });
});

describe('GET /api/library/picture', () => {
  it('serves a listed picture by its first bytes, with nosniff and an ETag', async () => {
    await smallLibrary();
    const [heat, brazil] = [(await library('?q=heat')).movies[0], (await library('?q=brazil')).movies[0]];
    const res = await t.app.request(`/api/library/picture?folder=${encodeURIComponent(heat.folder)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toMatch(/max-age/);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(JPEG);
    const again = await t.app.request(`/api/library/picture?folder=${encodeURIComponent(heat.folder)}`, {
      headers: { 'If-None-Match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    const png = await t.app.request(`/api/library/picture?folder=${encodeURIComponent(brazil.folder)}`);
    expect(png.headers.get('content-type')).toBe('image/png');
  });

  it('is a 404 for a folder without a picture or not listed, a 400 for a relative one', async () => {
    await smallLibrary();
    const alien = (await library('?q=alien')).movies[0];
    expect((await t.app.request(`/api/library/picture?folder=${encodeURIComponent(alien.folder)}`)).status).toBe(404);
    expect((await t.app.request(`/api/library/picture?folder=/etc`)).status).toBe(404);
    expect((await t.app.request(`/api/library/picture?folder=etc`)).status).toBe(400);
    expect((await t.app.request('/api/library/picture')).status).toBe(400);
  });

  it('refuses a picture that is no image, too large, or a link out of the drives', async () => {
    t = await testApp();
    await put('Movies/Heat (1995)/Heat (1995).mkv', 10);
    await put('Movies/Heat (1995)/poster.jpg', JPEG);
    await put('Movies/Alien (1979)/Alien (1979).mkv', 10);
    await put('Movies/Alien (1979)/folder.jpg', Buffer.from('<script>alert(1)</script>'));
    await put('Movies/Brazil (1985)/Brazil (1985).mkv', 10);
    await put('Movies/Brazil (1985)/poster.png', Buffer.concat([PNG, Buffer.alloc(MAX_PICTURE_BYTES)]));
    await indexNow();
    const outside = await mkdtemp(join(tmpdir(), 'mo-outside-'));
    try {
      // Swapped for a link after the scan listed it: the index still names it.
      await writeFile(join(outside, 'secret.jpg'), JPEG);
      const poster = join(t.install.paths.drive, 'Movies/Heat (1995)/poster.jpg');
      await rm(poster);
      await symlink(join(outside, 'secret.jpg'), poster);
      const folder = (name: string) => encodeURIComponent(join(t.install.paths.drive, 'Movies', name));
      const link = await t.app.request(`/api/library/picture?folder=${folder('Heat (1995)')}`);
      expect(link.status).toBe(403);
      const text = await t.app.request(`/api/library/picture?folder=${folder('Alien (1979)')}`);
      expect(text.status).toBe(404);
      expect(((await text.json()) as { error: { message: string } }).error.message).toMatch(/not a JPEG or PNG/);
      const large = await t.app.request(`/api/library/picture?folder=${folder('Brazil (1985)')}`);
      expect(large.status).toBe(404);
      expect(((await large.json()) as { error: { message: string } }).error.message).toMatch(/larger than/);
      // A FIFO outside the drives is refused before anything opens it (an open would wake its writer);
      // one inside is no file, answered at once rather than waited on.
      const fifo = join(outside, 'fifo');
      execFileSync('mkfifo', [fifo]);
      await rm(poster);
      await symlink(fifo, poster);
      expect((await t.app.request(`/api/library/picture?folder=${folder('Heat (1995)')}`)).status).toBe(403);
      await rm(poster);
      execFileSync('mkfifo', [poster]);
      const inside = await t.app.request(`/api/library/picture?folder=${folder('Heat (1995)')}`);
      expect(inside.status).toBe(404);
      expect(((await inside.json()) as { error: { message: string } }).error.message).toMatch(/not a file/);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('needs the key like every library route', async () => {
    t = await testApp();
    expect((await t.anonymous('/api/library/picture?folder=/x')).status).toBe(401);
    expect((await t.anonymous('/api/library?limit=5')).status).toBe(401);
  });
});
