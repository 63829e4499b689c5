import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { libraryScanOptions, scanLibrary, writeLibraryIndex } from '@mo/core';
import { testApp, type TestApp } from '../test-support/app.ts';

let t: TestApp;
afterEach(async () => t?.close());

async function put(rel: string, bytes: number) {
  const p = join(t.install.paths.drive, rel);
  await mkdir(join(p, '..'), { recursive: true });
  await writeFile(p, Buffer.alloc(bytes));
}

/** What the worker does after a library scan: write the index where the API's cache looks. */
async function indexNow() {
  const cfg = t.config.current();
  const index = await scanLibrary(libraryScanOptions(cfg));
  await writeLibraryIndex(cfg.paths.data, index);
  await t.library.refresh();
}

describe('GET /api/library', () => {
  it('is empty before the first library scan', async () => {
    t = await testApp();
    const res = await t.app.request('/api/library');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      summary: { files: 0, bytes: 0, movies: 0, series: 0, episodes: 0, scanned_at: null, duration_ms: null, truncated: false, timed_out: false },
      movies: [],
      series: [],
    });
  });

  it('answers from the cached index only, which changes after a scan', async () => {
    t = await testApp();
    await put('Movies/Heat (1995)/Heat (1995).mkv', 100);
    await put('TV/Lost/Season 1/Lost - S01E01.mkv', 10);
    await indexNow();
    const first = (await (await t.app.request('/api/library')).json()) as any;
    expect(first.summary).toMatchObject({ files: 2, bytes: 110, movies: 1, series: 1, episodes: 1 });
    expect(first.movies).toEqual([
      { title: 'Heat', year: 1995, folder: join(t.install.paths.drive, 'Movies/Heat (1995)'), drive: 'disk1', files: 1, bytes: 100 },
    ]);
    expect(first.series[0]).toMatchObject({ title: 'Lost', seasons: [{ season: 1, episodes: [1] }], episode_count: 1 });
    expect(JSON.stringify(first)).not.toContain('"items"');

    // New files on disk change nothing until the next scan.
    await put('Movies/Alien (1979)/Alien (1979).mkv', 100);
    expect(((await (await t.app.request('/api/library')).json()) as any).summary.movies).toBe(1);
    await indexNow();
    expect(((await (await t.app.request('/api/library')).json()) as any).summary.movies).toBe(2);
  });

  it('picks up an index written by another process on its own', async () => {
    t = await testApp();
    await put('Movies/Heat (1995)/Heat (1995).mkv', 100);
    const cfg = t.config.current();
    await writeLibraryIndex(cfg.paths.data, {
      version: 1,
      scanned_at: '2026-01-01T00:00:00.000Z',
      duration_ms: 1,
      truncated: true,
      timed_out: false,
      skipped: [],
      drives: [],
      items: [],
    });
    await expect
      .poll(async () => ((await (await t.app.request('/api/library')).json()) as any).summary.scanned_at, { timeout: 3000 })
      .toBe('2026-01-01T00:00:00.000Z');
  });
});

describe('GET /api/dashboard', () => {
  it('shows dry-run, state, drive usage, the library and extensions without walking the media', async () => {
    t = await testApp({ toml: '' });
    await put('Movies/Heat (1995)/Heat (1995).mkv', 100);
    await put('Movies/Heat (1995)/Heat (1995).en.srt', 7);
    await indexNow();
    await put('Movies/Unindexed (2000)/Unindexed (2000).mkv', 100);
    const res = await t.app.request('/api/dashboard');
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.dry_run).toBe(true);
    expect(body.state).toMatchObject({ last_scan_at: null, last_library_scan_at: null });
    expect(body.drives).toHaveLength(1);
    expect(body.drives[0]).toMatchObject({ name: 'disk1', path: t.install.paths.drive, available: true });
    expect(body.drives[0].total_bytes).toBeGreaterThan(0);
    expect(body.drives[0].free_bytes).toBeGreaterThan(0);
    expect(body.drives[0].used_bytes).toBeGreaterThanOrEqual(0);
    expect(body.library).toMatchObject({ files: 2, bytes: 107, movies: 1, series: 0, episodes: 0 });
    expect(body.library.scanned_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(body.extensions).toEqual({ '.mkv': { count: 1, bytes: 100 }, '.srt': { count: 1, bytes: 7 } });
  });

  it('reports a missing drive as unavailable instead of failing', async () => {
    t = await testApp({ toml: '' });
    await t.config.updateSettings({ drives: [{ name: 'gone', path: '/nonexistent/drive' }] });
    const body = (await (await t.app.request('/api/dashboard')).json()) as any;
    expect(body.drives).toEqual([{ name: 'gone', path: '/nonexistent/drive', total_bytes: null, free_bytes: null, used_bytes: null, available: false }]);
  });
});

describe('GET /api/library/files', () => {
  it("lists one folder's indexed files by path, from the folder GET /api/library names", async () => {
    t = await testApp();
    await put('Movies/Heat (1995)/Heat (1995).mkv', 2000);
    await put('Movies/Heat (1995)/Heat (1995).en.srt', 10);
    await put('TV/Lost/Season 01/Lost - S01E02.mkv', 1000);
    await put('TV/Lost/Season 01/Lost - S01E01.mkv', 1000);
    await indexNow();
    const lib = (await (await t.app.request('/api/library')).json()) as { movies: { folder: string }[]; series: { folder: string }[] };
    const movie = await t.app.request(`/api/library/files?folder=${encodeURIComponent(lib.movies[0]!.folder)}`);
    expect(movie.status).toBe(200);
    const body = (await movie.json()) as { files: { path: string; type: string }[] };
    expect(body.files.map((f) => [f.path.slice(f.path.lastIndexOf('/') + 1), f.type])).toEqual([
      ['Heat (1995).en.srt', 'subtitle'],
      ['Heat (1995).mkv', 'video'],
    ]);
    const show = (await (await t.app.request(`/api/library/files?folder=${encodeURIComponent(lib.series[0]!.folder)}`)).json()) as {
      files: { season: number; episodes: number[] }[];
    };
    expect(show.files.map((f) => [f.season, f.episodes])).toEqual([
      [1, [1]],
      [1, [2]],
    ]);
  });

  it('is a 400 naming folder without an absolute one, and a 404 for a folder the index does not hold', async () => {
    t = await testApp();
    await put('Movies/Heat (1995)/Heat (1995).mkv', 2000);
    await indexNow();
    for (const q of ['', '?folder=', '?folder=relative/x', `?folder=${encodeURIComponent('/a\0b')}`]) {
      const res = await t.app.request(`/api/library/files${q}`);
      expect(res.status, q).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^folder:/);
    }
    const res = await t.app.request(`/api/library/files?folder=${encodeURIComponent(t.install.paths.drive)}`);
    expect(res.status).toBe(404);
  });

  it('needs the key like every library route', async () => {
    t = await testApp();
    expect((await t.anonymous('/api/library/files?folder=/x')).status).toBe(401);
  });
});

describe('GET /api/library/files keeps nothing for folders the index does not hold', () => {
  it('answers made-up folders 404 without growing the per-folder answers', async () => {
    t = await testApp();
    await put('Movies/Heat (1995)/Heat (1995).mkv', 2000);
    await indexNow();
    const derive = t.library.derive.bind(t.library);
    const keys = new Set<string>();
    t.library.derive = (key, compute) => (keys.add(key), derive(key, compute));
    for (let i = 0; i < 50; i++) expect((await t.app.request(`/api/library/files?folder=/made/up/${i}`)).status).toBe(404);
    expect([...keys].filter((k) => k.startsWith('library-files:'))).toEqual([]);
  });
});
