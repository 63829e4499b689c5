import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
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
  });

  it('reads everything again when the scan options changed or the folder file belongs to another index', async () => {
    await scanLibraryToIndex(data, options());
    expect((await scanLibraryToIndex(data, options({ readNfo: false }))).folders).toEqual({ read: 6, reused: 0 });
    expect(byPath(await items(), 'Beta (2002).nfo')?.nfo).toBeNull();
    await writeFile(join(data, FOLDERS_FILE), '{"version":1,"index_scanned_at":"2000-01-01T00:00:00.000Z","options":"x","items_at":0}\n');
    expect((await scanLibraryToIndex(data, options({ readNfo: false }))).folders).toEqual({ read: 6, reused: 0 });
  });
});
