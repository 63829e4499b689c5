import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexItem, LibraryIndex } from '@mo/shared';
import { episode, item } from '../releases/test-fixtures/index-items.ts';
import { HEADER_ROOM, INDEX_FILE, indexLineWriter, openIndex, openIndexWriter, readLibraryIndex, writeLibraryIndex } from './index-store.ts';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mo-index-'));
  file = join(dir, INDEX_FILE);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const header = (skipped: LibraryIndex['skipped'] = []): Omit<LibraryIndex, 'items'> => ({
  version: 1,
  scanned_at: '2026-01-02T03:04:05.000Z',
  duration_ms: 12,
  truncated: false,
  timed_out: false,
  skipped,
  drives: [{ name: 'd1', path: '/m/d1' }],
});

describe('indexLineWriter', () => {
  it('writes the line JSON.stringify writes, for every kind of field and for hostile names', () => {
    const items: IndexItem[] = [
      item('/m/d1/Movies/Alien (1979)/Alien (1979).mkv', { bytes: 123_456_789_012, mtime_ms: 1_700_000_000_123 }),
      item('/m/d1/Movies/Alien (1979)/movie.nfo', {
        nfo: { kind: 'movie', title: 'Alien "Director\'s" \\ cut', season: null, episode: null, aired: null, ids: { tmdb: '348' } },
      }),
      episode('/m/d1/TV/Lost', 1, [2, 3], { air_date: '2004-09-22', title: 'Lost' }),
      item('/m/d2/TV/loose\u0001 "q" \\ \ud800 é 𝄞\n.mkv', { title: null, year: null, extra: true, mtime_ms: -0 }),
      item('/m/d2/TV/x.srt', { type: 'subtitle', nfo: { kind: 'episode', title: null, season: 1, episode: 2, aired: '2010-01-01' } }),
    ];
    const lineOf = indexLineWriter();
    for (const it of items) expect(lineOf(it)).toBe(`${JSON.stringify(it)}\n`);
    // The same item again, after others: the quoted root, drive and folder kept between lines are the right ones.
    expect(lineOf(items[0]!)).toBe(`${JSON.stringify(items[0])}\n`);
  });
});

describe('index writer', () => {
  const items = [item('/m/d1/Movies/Alien (1979)/Alien (1979).mkv'), episode('/m/d1/TV/Lost', 1, [2])];

  it('puts the header in the room kept before the items: the items are written once, not copied after it', async () => {
    await writeLibraryIndex(dir, { ...header(), items });
    const text = await readFile(file, 'utf8');
    expect(text.indexOf('\n')).toBe(HEADER_ROOM - 1);
    expect(text.slice(HEADER_ROOM)).toBe(items.map((i) => `${JSON.stringify(i)}\n`).join(''));
    const open = await openIndex(file);
    expect(open?.itemsAt).toBe(HEADER_ROOM);
    await open?.handle.close();
    expect(await readLibraryIndex(dir)).toEqual({ ...header(), items });
  });

  it('writes lines of any length and encoding in file order, and counts their bytes: past the write buffer, and lines that fill it', async () => {
    const plot = (n: number) => ({ kind: 'movie' as const, title: `é𝄞 ${'x'.repeat(n)}`, season: null, episode: null, aired: null });
    const many = [
      item('/m/d1/Movies/é𝄞 (2001)/a.mkv'),
      // Longer than the write buffer (1 MiB) once encoded, and shorter than it but more than a third of it.
      item('/m/d1/Movies/é𝄞 (2001)/movie.nfo', { nfo: plot(1_100_000) }),
      ...Array.from({ length: 3 }, (_, i) => item(`/m/d1/Movies/é𝄞 (2001)/part${i}.nfo`, { nfo: plot(400_000) })),
      item('/m/d1/Movies/é𝄞 (2001)/z.mkv'),
    ];
    const writer = await openIndexWriter(file);
    const positions: number[] = [];
    for (const it of many) {
      writer.add(it);
      positions.push(writer.position());
    }
    await writer.finish(header());
    expect(await readLibraryIndex(dir)).toEqual({ ...header(), items: many });
    let total = 0;
    expect(positions).toEqual(many.map((it) => (total += Buffer.byteLength(`${JSON.stringify(it)}\n`))));
  });

  it('writes a header too long for the room ahead of a copy of the items', async () => {
    const skipped = Array.from({ length: 200 }, (_, i) => ({ path: `/m/d1/TV/unreadable folder number ${i}`, error: 'EACCES' }));
    await writeLibraryIndex(dir, { ...header(skipped), items });
    const text = await readFile(file, 'utf8');
    expect(text.indexOf('\n')).toBeGreaterThan(HEADER_ROOM);
    expect(await readLibraryIndex(dir)).toEqual({ ...header(skipped), items });
    const writer = await openIndexWriter(file);
    writer.add(items[1]!);
    expect(await writer.finish(header(skipped))).toEqual({ itemsAt: JSON.stringify(header(skipped)).length + 1 });
    expect(await readLibraryIndex(dir)).toEqual({ ...header(skipped), items: [items[1]] });
  });

  it('keeps the mode of the index it replaces', async () => {
    await writeLibraryIndex(dir, { ...header(), items });
    await chmod(file, 0o640);
    await writeLibraryIndex(dir, { ...header(), items: [] });
    expect((await stat(file)).mode & 0o777).toBe(0o640);
  });
});
