import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@mo/shared';
import { openDataDir } from '../config/data-stores.ts';
import { DATA_FILES } from '../data-dir/data-dir.ts';
import { scanIntoIndex } from './index-scan.ts';
import { readLibraryIndex } from './index-store.ts';
import { libraryScanOptions } from './scan-library.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mo-library-store-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('DataStores.index()', () => {
  it('keeps the index and its folder file where DATA_FILES names them, the files a scan writes and the pass reads', async () => {
    const data = join(root, 'data');
    const store = openDataDir(data).index();
    expect(store.file).toBe(join(data, DATA_FILES.libraryIndex.name));
    expect(store.foldersFile).toBe(join(data, DATA_FILES.libraryFolders.name));
    expect(await store.read()).toBeNull();
    expect(await store.stamp()).toBe('missing');

    await mkdir(join(root, 'd1', 'Movies', 'Alien (1979)'), { recursive: true });
    await writeFile(join(root, 'd1', 'Movies', 'Alien (1979)', 'Alien (1979).mkv'), 'x');
    const opts = libraryScanOptions({ ...DEFAULT_CONFIG, drives: [{ name: 'd1', path: join(root, 'd1') }] });
    await scanIntoIndex(store, opts);
    expect((await readdir(data)).sort()).toEqual([DATA_FILES.libraryFolders.name, DATA_FILES.libraryIndex.name]);
    const index = await store.read();
    expect(index?.items.map((i) => i.path)).toEqual([join(root, 'd1', 'Movies', 'Alien (1979)', 'Alien (1979).mkv')]);
    // The scanner's pass reads it by the data folder's path.
    expect(await readLibraryIndex(data)).toEqual(index);
    expect((await scanIntoIndex(store, opts)).folders).toEqual({ read: 0, reused: 2 });
  });
});
