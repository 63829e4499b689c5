// Folders named as their releases were, on disk: what the Library and the duplicates report see
// after a library scan, and after an upgrade from an index that read their names as they were.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Drive } from '@mo/shared';
import { duplicateReport } from '../tools/duplicates.ts';
import { FOLDERS_FILE } from './folder-state.ts';
import { scanLibraryToIndex } from './index-scan.ts';
import { INDEX_FILE, readLibraryIndex } from './index-store.ts';
import { libraryScanOptions } from './scan-library.ts';
import { libraryView } from './views.ts';

let root: string;
let data: string;
let drives: Drive[];

async function put(rel: string) {
  const p = join(root, rel);
  await mkdir(dirname(p), { recursive: true });
  await writeFile(p, Buffer.alloc(10));
}

const CROUCHING = 'd1/Movies/Crouching.Tiger.Hidden.Dragon.4K.UltraHD.HDR.BDrip-HDC';
const scan = () => scanLibraryToIndex(data, libraryScanOptions({ ...DEFAULT_CONFIG, drives }));
const index = async () => (await readLibraryIndex(data))!;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mo-tagged-'));
  data = join(root, 'data');
  drives = [
    { name: 'd1', path: join(root, 'd1') },
    { name: 'd2', path: join(root, 'd2') },
  ];
  await put(`${CROUCHING}/Crouching.Tiger.Hidden.Dragon.4K.UltraHD.HDR.BDrip-HDC.mkv`);
  await put('d1/Movies/Heat (1995)/Heat (1995).mkv');
  await put('d2/Movies/Heat.1995.1080p.BluRay.x264-GRP/Heat.1995.1080p.BluRay.x264-GRP.mkv');
  await put('d2/Movies/[GRP] Heat (1995) [2160p]/heat.mkv');
  await put('d1/TV/The Show/Season 01/The Show - S01E01.mkv');
  await put('d2/TV/The Show S02 1080p WEB-DL/The.Show.S02E01.1080p.WEB-DL.mkv');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('a library scan reads tagged folder names as media servers do', () => {
  it('shows the titles in the Library and finds the copies in the duplicates report; the paths stay as they are', async () => {
    await scan();
    const idx = await index();
    const view = libraryView(idx);
    expect(view.movies.map((m) => [m.title, m.year, m.folder.slice(root.length + 1)])).toEqual([
      ['Crouching Tiger Hidden Dragon', null, CROUCHING],
      ['Heat', 1995, 'd1/Movies/Heat (1995)'],
      ['Heat', 1995, 'd2/Movies/Heat.1995.1080p.BluRay.x264-GRP'],
      ['Heat', 1995, 'd2/Movies/[GRP] Heat (1995) [2160p]'],
    ]);
    expect(view.series.map((s) => [s.title, s.folder.slice(root.length + 1), s.seasons.map((x) => x.season)])).toEqual([
      ['The Show', 'd1/TV/The Show', [1]],
      ['The Show', 'd2/TV/The Show S02 1080p WEB-DL', [2]],
    ]);
    expect(idx.items.find((i) => i.folder.endsWith('BDrip-HDC'))).toMatchObject({
      path: join(root, CROUCHING, 'Crouching.Tiger.Hidden.Dragon.4K.UltraHD.HDR.BDrip-HDC.mkv'),
      folder: join(root, CROUCHING),
    });

    const dups = duplicateReport(idx.items);
    expect(dups.movies.map((m) => [m.title, m.year, m.copies.map((c) => c.folder.slice(root.length + 1))])).toEqual([
      ['Heat', 1995, ['d1/Movies/Heat (1995)', 'd2/Movies/Heat.1995.1080p.BluRay.x264-GRP', 'd2/Movies/[GRP] Heat (1995) [2160p]']],
    ]);
    // One series split over two folders: no episode in both.
    expect(dups.series).toEqual([
      {
        title: 'The Show',
        copies: [
          { folder: join(root, 'd1/TV/The Show'), drive: 'd1', episode_count: 1 },
          { folder: join(root, 'd2/TV/The Show S02 1080p WEB-DL'), drive: 'd2', episode_count: 1 },
        ],
        shared_episodes: 0,
      },
    ]);
  });

  it('reads every folder again after the upgrade, so that an index of raw names gets the titles', async () => {
    await scan();
    // What the previous version wrote: the folder file of version 3, the titles as the names were.
    const idxFile = join(data, INDEX_FILE);
    const raw = (await readFile(idxFile, 'utf8')).replaceAll(
      '"title":"Crouching Tiger Hidden Dragon"',
      `"title":"Crouching.Tiger.Hidden.Dragon.4K.UltraHD.HDR.BDrip-HDC"`,
    );
    await writeFile(idxFile, raw);
    const folders = join(data, FOLDERS_FILE);
    const [head, ...records] = (await readFile(folders, 'utf8')).split('\n');
    await writeFile(folders, [JSON.stringify({ ...JSON.parse(head!), version: 3 }), ...records].join('\n'));
    expect(libraryView(await index()).movies[0]!.title).toBe('Crouching.Tiger.Hidden.Dragon.4K.UltraHD.HDR.BDrip-HDC');

    const r = await scan();
    expect(r.folders.reused).toBe(0);
    expect(libraryView(await index()).movies[0]!.title).toBe('Crouching Tiger Hidden Dragon');
  });
});
