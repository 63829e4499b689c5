import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Drive, type IndexItem } from '@mo/shared';
import { FOLDERS_FILE } from './folder-state.ts';
import { scanLibraryToIndex } from './index-scan.ts';
import { INDEX_FILE, readLibraryIndex } from './index-store.ts';
import { libraryScanOptions, scanLibrary, type LibraryScanOptions } from './scan-library.ts';
import { libraryView } from './views.ts';

let root: string;
let data: string;
let drives: Drive[];

async function put(rel: string, content: string | Buffer = Buffer.alloc(10)) {
  const p = join(root, rel);
  await mkdir(dirname(p), { recursive: true });
  await writeFile(p, content);
}

const options = (over: Partial<LibraryScanOptions> = {}): LibraryScanOptions => ({ ...libraryScanOptions({ ...DEFAULT_CONFIG, drives }), ...over });
const nfo = (title: string) => `<movie><title>${title}</title><year>2002</year></movie>`;
const items = async () => (await readLibraryIndex(data))!.items;
const byPath = (xs: IndexItem[], suffix: string) => xs.find((i) => i.path.endsWith(suffix));

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mo-rescan-'));
  data = join(root, 'data');
  drives = [{ name: 'd1', path: join(root, 'd1') }];
  await put('d1/Movies/Alpha (2001)/Alpha (2001).mkv');
  await put('d1/Movies/Beta (2002)/Beta (2002).mkv');
  await put('d1/Movies/Beta (2002)/Beta (2002).nfo', nfo('Beta'));
  await put('d1/TV/Lost (2004)/Season 01/Lost (2004) - S01E01.mkv');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('scanLibraryToIndex', () => {
  it('writes the index a whole scan finds, with the summary of the library view', async () => {
    const r = await scanLibraryToIndex(data, options());
    const full = await scanLibrary(options());
    expect(await items()).toEqual(full.items);
    expect(r.summary).toEqual({ ...libraryView(full).summary, scanned_at: r.header.scanned_at, duration_ms: r.header.duration_ms });
    // d1/Movies, Alpha, Beta, d1/TV, Lost, Season 01.
    expect(r.folders).toEqual({ read: 6, reused: 0 });
    expect((await readdir(data)).sort()).toEqual([FOLDERS_FILE, INDEX_FILE]);
  });

  it('walks a library folder that holds a link above the library (Movies/Loop (2001) -> ..) the same way when it reuses that folder', async () => {
    await symlink('..', join(root, 'd1/Movies/Loop (2001)'));
    const skipped: string[] = [];
    const opts = options({ onSkip: (path, error) => skipped.push(`${path.slice(root.length + 1)} ${error}`) });
    await scanLibraryToIndex(data, opts);
    const first = await items();
    const again = await scanLibraryToIndex(data, opts);
    expect(again.folders).toEqual({ read: 0, reused: 6 });
    expect(await items()).toEqual(first);
    expect(first.map((i) => [i.path.slice(root.length + 1), i.section])).toEqual([
      ['d1/Movies/Alpha (2001)/Alpha (2001).mkv', 'movies'],
      ['d1/Movies/Beta (2002)/Beta (2002).mkv', 'movies'],
      ['d1/Movies/Beta (2002)/Beta (2002).nfo', 'movies'],
      ['d1/TV/Lost (2004)/Season 01/Lost (2004) - S01E01.mkv', 'tv'],
    ]);
    expect(skipped).toEqual(['d1/Movies/Loop (2001) ELOOP', 'd1/Movies/Loop (2001) ELOOP']);
  });

  it('rescans by reading only the folders that changed', async () => {
    await scanLibraryToIndex(data, options());
    const first = await items();

    const same = await scanLibraryToIndex(data, options());
    expect(same.folders).toEqual({ read: 0, reused: 6 });
    expect(await items()).toEqual(first);
    expect(same.summary.files).toBe(4);

    // A file added to Alpha changes Alpha's folder times: Alpha is read again. Beta's .nfo rewritten
    // in place leaves Beta's folder times alone: Beta is not read, and keeps the old .nfo (the limit).
    await put('d1/Movies/Alpha (2001)/Alpha (2001).en.srt');
    await put('d1/Movies/Beta (2002)/Beta (2002).nfo', nfo('Beta Changed In Place'));
    const changed = await scanLibraryToIndex(data, options());
    expect(changed.folders).toEqual({ read: 1, reused: 5 });
    const after = await items();
    expect(byPath(after, 'Alpha (2001).en.srt')).toMatchObject({ type: 'subtitle', title: 'Alpha' });
    expect(byPath(after, 'Beta (2002).nfo')?.nfo?.title).toBe('Beta');
    expect(byPath((await scanLibrary(options())).items, 'Beta (2002).nfo')?.nfo?.title).toBe('Beta Changed In Place');
    expect(after.map((i) => i.path)).toEqual((await scanLibrary(options())).items.map((i) => i.path));

    // Beta's lines moved (Alpha's grew ahead of them): the records copied from the previous scan
    // say where they are now, so the next rescan copies the right lines, and the folder file is
    // the one a full scan writes (Beta's .nfo put back as the index holds it).
    await put('d1/Movies/Beta (2002)/Beta (2002).nfo', nfo('Beta'));
    const again = await scanLibraryToIndex(data, options());
    expect(again.folders).toEqual({ read: 0, reused: 6 });
    expect(await items()).toEqual(after);
    const fresh = join(root, 'fresh');
    await scanLibraryToIndex(fresh, options());
    const records = async (dir: string) => (await readFile(join(dir, FOLDERS_FILE), 'utf8')).split('\n').slice(1);
    expect(await records(data)).toEqual(await records(fresh));
  });

  it('reads everything again when the scan options changed or the folder file belongs to another index', async () => {
    await scanLibraryToIndex(data, options());
    expect((await scanLibraryToIndex(data, options({ readNfo: false }))).folders).toEqual({ read: 6, reused: 0 });
    expect(byPath(await items(), 'Beta (2002).nfo')?.nfo).toBeNull();
    await writeFile(join(data, FOLDERS_FILE), '{"version":1,"index_scanned_at":"2000-01-01T00:00:00.000Z","options":"x","items_at":0}\n');
    expect((await scanLibraryToIndex(data, options({ readNfo: false }))).folders).toEqual({ read: 6, reused: 0 });
  });

  it('counts a rescan from the summary parts its folders keep: the figures of the library view, unread folders included', async () => {
    await put('d1/Movies/Gamma (2010) - cd1.mkv');
    await put('d1/Movies/Gamma (2010) - cd2.mkv');
    await put('d1/Movies/Alpha (2001)/Trailers/Alpha trailer.mkv');
    await put('d1/Movies/Delta (2003)/Delta (2003)-trailer.mkv');
    await put('d1/TV/Lost (2004)/Season 01/Lost (2004) - S01E02-E03.mkv');
    await put('d1/TV/Lost (2004)/Season 02/Lost (2004) - S02E01.mkv');
    await put('d1/TV/Fringe - S01E01.mkv');
    await put('d1/TV/Fringe - S01E02.mkv');
    drives.push({ name: 'd2', path: join(root, 'd2') });
    await put('d2/TV Shows/Lost (2004)/Season 01/Lost (2004) - S01E01.mkv');
    await put('d2/TV Shows/Lost (2004)/Season 01/Lost (2004) - S01E04.mkv');
    const viewSummary = async (r: Awaited<ReturnType<typeof scanLibraryToIndex>>) => {
      const index = (await readLibraryIndex(data))!;
      return { ...libraryView(index).summary, scanned_at: r.header.scanned_at, duration_ms: r.header.duration_ms };
    };
    const first = await scanLibraryToIndex(data, options());
    expect(first.summary).toEqual(await viewSummary(first));
    expect(first.summary).toMatchObject({ movies: 3, series: 2, episodes: 7 });
    const again = await scanLibraryToIndex(data, options());
    expect(again.folders.read).toBe(0);
    expect(again.summary).toEqual(await viewSummary(again));
    expect({ ...again.summary, scanned_at: null, duration_ms: null }).toEqual({ ...first.summary, scanned_at: null, duration_ms: null });

    await put('d1/Movies/Delta (2003)/Delta (2003).mkv');
    await put('d1/TV/Lost (2004)/Season 02/Lost (2004) - S02E02.mkv');
    const changed = await scanLibraryToIndex(data, options());
    expect(changed.folders.read).toBe(2);
    expect(changed.summary).toEqual(await viewSummary(changed));
    expect(changed.summary).toMatchObject({ movies: 4, series: 2, episodes: 8 });
  });

  it('finds the records of folders whose names need escaping, and reads again only a folder whose record does not parse', async () => {
    await put('d1/Movies/Quote "q" \\back\\ é (2003)/Quote (2003).mkv');
    await put('d1/Movies/Fake","mtime_ms":1 (2004)/Fake (2004).mkv');
    await scanLibraryToIndex(data, options());
    const first = await items();
    expect((await scanLibraryToIndex(data, options())).folders).toEqual({ read: 0, reused: 8 });
    expect(await items()).toEqual(first);

    const file = join(data, FOLDERS_FILE);
    const lines = (await readFile(file, 'utf8')).split('\n');
    const beta = lines.findIndex((l) => l.includes('Beta (2002)"'));
    lines[beta] = lines[beta]!.slice(0, -10);
    await writeFile(file, lines.join('\n'));
    expect((await scanLibraryToIndex(data, options())).folders).toEqual({ read: 1, reused: 7 });
    expect(await items()).toEqual(first);
  });

  it('reads everything again after an upgrade: a folder file of version 1 holds no summary parts', async () => {
    await scanLibraryToIndex(data, options());
    const file = join(data, FOLDERS_FILE);
    const [head, ...records] = (await readFile(file, 'utf8')).split('\n');
    const old = records.map((line) => {
      if (line === '') return line;
      const { sum: _, ...record } = JSON.parse(line) as { sum: unknown };
      return JSON.stringify(record);
    });
    await writeFile(file, [JSON.stringify({ ...JSON.parse(head!), version: 1 }), ...old].join('\n'));
    const r = await scanLibraryToIndex(data, options());
    expect(r.folders).toEqual({ read: 6, reused: 0 });
    expect(r.summary).toMatchObject({ files: 4, movies: 2, series: 1, episodes: 1 });
  });
});
