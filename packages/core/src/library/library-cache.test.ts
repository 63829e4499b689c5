import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LibraryIndex } from '@mo/shared';
import { accumulate, createLibraryCache, keysToRebuild, valuesOf, type Compute, type LibraryCache } from './library-cache.ts';
import { INDEX_FILE, openIndexWriter, readLibraryIndex, writeLibraryIndex } from './index-store.ts';
import { libraryStore } from './library-store.ts';
import { dataDir } from '../data-dir/data-dir.ts';
import { folderSpans } from './views.ts';

let dir: string;
let cache: LibraryCache | undefined;

const index = (scanned_at: string): LibraryIndex => ({
  version: 1,
  scanned_at,
  duration_ms: 1,
  truncated: false,
  timed_out: false,
  skipped: [],
  drives: [],
  items: [],
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mo-cache-'));
});
afterEach(async () => {
  cache?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('LibraryCache', () => {
  it('has no index before the first scan', async () => {
    cache = await createLibraryCache({ index: libraryStore(dataDir(dir)), pollMs: 20 });
    expect(cache.header()).toBeNull();
    expect(await cache.derive('x', (i) => i)).toBeNull();
  });

  it('derives each value once per index, and again only after a new index', async () => {
    await writeLibraryIndex(dir, index('2026-01-01T00:00:00.000Z'));
    cache = await createLibraryCache({ index: libraryStore(dataDir(dir)), pollMs: 20 });
    let computed = 0;
    const derive = () => cache!.derive('view', (i) => ({ n: ++computed, at: i?.scanned_at }));
    const a = await derive();
    expect(await derive()).toBe(a);
    await cache.refresh();
    expect(await derive()).toBe(a);
    expect(computed).toBe(1);

    await writeLibraryIndex(dir, index('2026-02-01T00:00:00.000Z'));
    await expect.poll(async () => (await derive()).at, { timeout: 3000 }).toBe('2026-02-01T00:00:00.000Z');
    expect(computed).toBe(2);
  });

  it('rebuilds what was asked for as soon as a new index arrives, and lets the items go in between', async () => {
    await writeLibraryIndex(dir, index('2026-01-01T00:00:00.000Z'));
    let loads = 0;
    cache = await createLibraryCache({ index: libraryStore(dataDir(dir)), pollMs: 20, keepItemsMs: 10 });
    const view = () => cache!.derive('at', (i) => (loads++, i?.scanned_at));
    expect(await view()).toBe('2026-01-01T00:00:00.000Z');
    await new Promise((r) => setTimeout(r, 50));
    // Items dropped: a value never asked for before needs the index read again, and still works.
    expect(await cache.derive('other', (i) => i?.items.length)).toBe(0);
    await writeLibraryIndex(dir, index('2026-02-01T00:00:00.000Z'));
    await expect.poll(() => cache!.header()?.scanned_at, { timeout: 3000 }).toBe('2026-02-01T00:00:00.000Z');
    // Computed during the load, before anyone asked again.
    expect(loads).toBe(2);
    expect(await view()).toBe('2026-02-01T00:00:00.000Z');
    expect(loads).toBe(2);
  });

  it('tells its listeners of each new index once the views asked for are rebuilt, and stops when told', async () => {
    await writeLibraryIndex(dir, index('2026-01-01T00:00:00.000Z'));
    cache = await createLibraryCache({ index: libraryStore(dataDir(dir)), pollMs: 60_000 });
    await cache.derive('view', (i) => i?.scanned_at);
    const heard: { scanned_at: string | null; version: number; view: unknown }[] = [];
    const off = cache.onIndex((header, version) => {
      heard.push({ scanned_at: header?.scanned_at ?? null, version, view: undefined });
      void cache!.derive('view', () => 'recomputed').then((v) => (heard.at(-1)!.view = v));
    });
    await cache.refresh();
    expect(heard).toEqual([]);
    await writeLibraryIndex(dir, index('2026-02-01T00:00:00.000Z'));
    await cache.refresh();
    await Promise.resolve();
    expect(heard).toEqual([{ scanned_at: '2026-02-01T00:00:00.000Z', version: 2, view: '2026-02-01T00:00:00.000Z' }]);
    off();
    await writeLibraryIndex(dir, index('2026-03-01T00:00:00.000Z'));
    await cache.refresh();
    expect(heard).toHaveLength(1);
  });

  it('shares one computation between concurrent first requests', async () => {
    await writeLibraryIndex(dir, index('2026-01-01T00:00:00.000Z'));
    cache = await createLibraryCache({ index: libraryStore(dataDir(dir)), pollMs: 20, keepItemsMs: 0 });
    await new Promise((r) => setTimeout(r, 20));
    let computed = 0;
    const values = await Promise.all(Array.from({ length: 8 }, () => cache!.derive('v', () => ({ n: ++computed }))));
    expect(computed).toBe(1);
    expect(new Set(values).size).toBe(1);
  });

  it('takes a new index nobody asked about yet by its header, and serves its own items when asked', async () => {
    const item = (path: string) => ({
      path,
      drive: 'd1',
      section: 'movies' as const,
      root: '/m/Movies',
      folder: '/m/Movies',
      bytes: 1,
      mtime_ms: 2,
      ext: '.mkv',
      type: 'video' as const,
      title: 'A',
      year: null,
      season: null,
      episodes: [],
      air_date: null,
      extra: false,
      nfo: null,
    });
    const withItems = (scanned_at: string, n: number): LibraryIndex => ({
      ...index(scanned_at),
      items: Array.from({ length: n }, (_, i) => item(`/m/Movies/${i}.mkv`)),
    });
    await writeLibraryIndex(dir, withItems('2026-01-01T00:00:00.000Z', 1));
    cache = await createLibraryCache({ index: libraryStore(dataDir(dir)), pollMs: 60_000 });
    expect(await cache.derive('n', (i) => i?.items.length)).toBe(1);
    await writeLibraryIndex(dir, withItems('2026-02-01T00:00:00.000Z', 2));
    await cache.refresh();
    expect(await cache.derive('n', (i) => i?.items.length)).toBe(2);
    // Nothing asked since: the third index comes in by its header; the second's items, still held, are not its items.
    await writeLibraryIndex(dir, withItems('2026-03-01T00:00:00.000Z', 3));
    await cache.refresh();
    expect(cache.header()?.scanned_at).toBe('2026-03-01T00:00:00.000Z');
    expect(await cache.derive('m', (i) => i?.items.length)).toBe(3);
  });

  it('keeps the last good index when the file turns unreadable', async () => {
    await writeLibraryIndex(dir, index('2026-01-01T00:00:00.000Z'));
    cache = await createLibraryCache({ index: libraryStore(dataDir(dir)), pollMs: 20 });
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dir, 'library-index.ndjson'), '{"version": 1, "scanned_at"');
    await cache.refresh();
    expect(cache.header()?.scanned_at).toBe('2026-01-01T00:00:00.000Z');
  });
});

describe('index file', () => {
  it('round-trips an index, sharing repeated strings', async () => {
    const item = (path: string) => ({
      path,
      drive: 'd1',
      section: 'movies' as const,
      root: '/m/Movies',
      folder: '/m/Movies/Heat (1995)',
      bytes: 1,
      mtime_ms: 2,
      ext: '.mkv',
      type: 'video' as const,
      title: 'Heat',
      year: 1995,
      season: null,
      episodes: [],
      air_date: null,
      extra: false,
      nfo: null,
    });
    const written: LibraryIndex = { ...index('2026-03-01T00:00:00.000Z'), items: [item('/m/Movies/Heat (1995)/a.mkv'), item('/m/Movies/Heat (1995)/b.mkv')] };
    await writeLibraryIndex(dir, written);
    const { readLibraryIndex } = await import('./index-store.ts');
    const read = await readLibraryIndex(dir);
    expect(read).toEqual(written);
    expect(await readLibraryIndex(join(dir, 'nope'))).toBeNull();
    // A fresh install may not have its data folder yet.
    await writeLibraryIndex(join(dir, 'new', 'data'), written);
    expect(await readLibraryIndex(join(dir, 'new', 'data'))).toEqual(written);
  });

  it('streams items to disk as they come: many chunks read back in order, and no temp file is left', async () => {
    const item = (i: number) => ({
      path: `/m/Movies/Film ${i} (2001)/Film ${i} (2001).mkv`,
      drive: 'd1',
      section: 'movies' as const,
      root: '/m/Movies',
      folder: `/m/Movies/Film ${i} (2001)`,
      bytes: i,
      mtime_ms: 2,
      ext: '.mkv',
      type: 'video' as const,
      title: `Film ${i}`,
      year: 2001,
      season: null,
      episodes: [],
      air_date: null,
      extra: false,
      nfo: null,
    });
    // Past the writer's 1 MiB chunk several times over.
    const items = Array.from({ length: 20_000 }, (_, i) => item(i));
    const writer = await openIndexWriter(join(dir, INDEX_FILE));
    for (const it of items) writer.add(it);
    const { items: _, ...header } = index('2026-04-01T00:00:00.000Z');
    await writer.finish(header);
    expect(await readLibraryIndex(dir)).toEqual({ ...header, items });
    expect(await readdir(dir)).toEqual([INDEX_FILE]);
  });

  it('keeps the previous index when a streamed write is abandoned', async () => {
    await writeLibraryIndex(dir, index('2026-01-01T00:00:00.000Z'));
    const writer = await openIndexWriter(join(dir, INDEX_FILE));
    writer.add({
      path: '/m/Movies/a.mkv',
      drive: 'd1',
      section: 'movies',
      root: '/m/Movies',
      folder: '/m/Movies',
      bytes: 1,
      mtime_ms: 2,
      ext: '.mkv',
      type: 'video',
      title: 'A',
      year: null,
      season: null,
      episodes: [],
      air_date: null,
      extra: false,
      nfo: null,
    });
    await writer.abort();
    expect(await readLibraryIndex(dir)).toEqual(index('2026-01-01T00:00:00.000Z'));
    expect(await readdir(dir)).toEqual([INDEX_FILE]);
  });

  it('reads back a line longer than its read buffer', async () => {
    const plot = 'x'.repeat(3 << 20);
    const long = {
      path: '/m/Movies/Heat (1995)/Heat (1995).nfo',
      drive: 'd1',
      section: 'movies' as const,
      root: '/m/Movies',
      folder: '/m/Movies/Heat (1995)',
      bytes: 1,
      mtime_ms: 2,
      ext: '.nfo',
      type: 'nfo' as const,
      title: 'Heat',
      year: 1995,
      season: null,
      episodes: [],
      air_date: null,
      extra: false,
      nfo: { kind: 'movie' as const, title: plot, year: 1995, season: null, episode: null, aired: null, ids: {} },
    };
    const written: LibraryIndex = { ...index('2026-05-01T00:00:00.000Z'), items: [long, { ...long, path: '/m/Movies/Heat (1995)/b.nfo' }] };
    await writeLibraryIndex(dir, written);
    expect(await readLibraryIndex(dir)).toEqual(written);
  });
});

describe('passes over the index', () => {
  const item = (folder: string, name: string) => ({
    path: `${folder}/${name}`,
    drive: 'd1',
    section: 'movies' as const,
    root: '/m/Movies',
    folder,
    bytes: name.length,
    mtime_ms: 2,
    ext: '.mkv',
    type: 'video' as const,
    title: 'A',
    year: null,
    season: null,
    episodes: [],
    air_date: null,
    extra: false,
    nfo: null,
  });

  it('compute a value from the streamed items, and read one folder back from where its lines lie, until a newer index replaces it', async () => {
    const items = [item('/m/Movies/A', 'a1.mkv'), item('/m/Movies/B', 'b1.mkv'), item('/m/Movies/A', 'a2.mkv')];
    await writeLibraryIndex(dir, { ...index('2026-06-01T00:00:00.000Z'), items });
    cache = await createLibraryCache({ index: libraryStore(dataDir(dir)), pollMs: 60_000 });
    const bytes = accumulate(
      () => {
        let n = 0;
        return { add: (i: { bytes: number }) => (n += i.bytes), total: () => n };
      },
      (acc, header) => ({ at: header?.scanned_at, bytes: acc.total() }),
    );
    expect(await cache.derive('bytes', bytes)).toEqual({ at: '2026-06-01T00:00:00.000Z', bytes: 18 });
    const spans = await cache.derive('spans', {
      pass: () => {
        const s = folderSpans();
        return { add: s.add, finish: (_header, version) => ({ version, spans: s.spans() }) };
      },
    });
    // A's two lines are apart: two ranges.
    expect(spans.spans.get('/m/Movies/A')).toHaveLength(4);
    expect(await cache.itemsAt(spans.version, spans.spans.get('/m/Movies/A')!)).toEqual([items[0], items[2]]);

    await writeLibraryIndex(dir, { ...index('2026-07-01T00:00:00.000Z'), items: [item('/m/Movies/C', 'c.mkv')] });
    await cache.refresh();
    // Both were asked for: rebuilt from the new index before it is taken.
    expect(await cache.derive('bytes', bytes)).toEqual({ at: '2026-07-01T00:00:00.000Z', bytes: 5 });
    expect(await cache.itemsAt(spans.version, spans.spans.get('/m/Movies/A')!)).toBeNull();
  });
});

describe('keysToRebuild', () => {
  const a = (): Compute<unknown> => () => 'a';
  const b: Compute<unknown> = { pass: () => ({ add() {}, finish: () => 'b' }) };
  it.each([
    ['nothing asked since the last index', [], ['a', 'b'], []],
    ['what was asked, with its computation', ['b'], ['a', 'b'], ['b']],
    ['in the order asked', ['b', 'a'], ['a', 'b'], ['b', 'a']],
    ['not a key asked without a computation', ['x', 'a'], ['a'], ['a']],
  ])('%s', (_what, asked, known, keys) => {
    const wanted = new Map<string, Compute<unknown>>(known.map((k) => [k, k === 'a' ? a() : b]));
    const rebuilt = keysToRebuild(new Set(asked), wanted);
    expect(rebuilt.map(([key]) => key)).toEqual(keys);
    for (const [key, compute] of rebuilt) expect(compute).toBe(wanted.get(key));
  });
});

describe('valuesOf', () => {
  it('keeps the values, undefined and null among them, and lists the failures with their errors', () => {
    const err = new Error('bad view');
    const { values, failed } = valuesOf(
      new Map([
        ['a', { value: 1 }],
        ['b', { error: err }],
        ['c', { value: undefined }],
        ['d', { value: null }],
      ]),
    );
    expect([...values]).toEqual([
      ['a', 1],
      ['c', undefined],
      ['d', null],
    ]);
    expect(failed).toEqual([['b', err]]);
  });
});
