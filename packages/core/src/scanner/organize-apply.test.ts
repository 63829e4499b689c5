import { appendFile, link, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '@mo/shared';
import { validateFileConfig } from '../config/load.ts';
import { openDataDir } from '../config/data-stores.ts';
import { scanIntoIndex } from '../library/index-scan.ts';
import { libraryScanOptions } from '../library/scan-library.ts';
import { streamItems } from '../library/index-store.ts';
import { createLogger } from '../logging/logger.ts';
import { applyOrganize, recoverOrganizeLocked, seenNode } from './organize-apply.ts';
import { undoService } from './undo-service.ts';

const log = createLogger({ name: 'organize-apply-test', level: 'silent' });

let dir: string;
let cfg: Config;
let drive: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mo-organize-apply-'));
  drive = join(dir, 'drive');
  for (const d of ['downloads', 'data', 'drive/Movies', 'drive/TV']) await mkdir(join(dir, d), { recursive: true });
  cfg = validateFileConfig('test', {
    app: { dry_run: false },
    paths: { downloads: join(dir, 'downloads'), config: dir, data: join(dir, 'data') },
    drives: [{ name: 'disk1', path: drive }],
  });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const data = () => openDataDir(cfg.paths.data);

async function put(rel: string, body = rel) {
  const p = join(drive, rel);
  await mkdir(join(p, '..'), { recursive: true });
  await writeFile(p, body);
}

async function indexNow() {
  await scanIntoIndex(data().index(), libraryScanOptions(cfg));
}

async function indexedPaths(): Promise<string[]> {
  const index = await data().index().open();
  const out: string[] = [];
  try {
    await streamItems(index!, (i) => out.push(i.path.slice(drive.length + 1)));
  } finally {
    await index!.handle.close();
  }
  return out.sort();
}

const apply = (paths?: string[], progress?: (p: { done: number; total: number }) => void) =>
  applyOrganize({ config: cfg, data: data(), jobId: 'job-1', log, ...(paths ? { paths } : {}), ...(progress ? { progress } : {}) });

/** A misnamed movie folder with its file and a subtitle, and a misnamed episode with its subtitle. */
async function library() {
  await put('Movies/Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.x264-GRP.mkv');
  await put('Movies/Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.x264-GRP.en.srt');
  await put('TV/Lost/Season 1/lost.s01e01.mkv');
  await put('TV/Lost/Season 1/lost.s01e01.en.srt');
  await indexNow();
}

describe('applyOrganize', () => {
  it('renames every group, records each as a history item of mode rename, and patches the index', async () => {
    await library();
    const progress: { done: number; total: number }[] = [];
    const result = await apply(undefined, (p) => progress.push(p));
    expect(result.skipped).toEqual([]);
    expect(result.renamed.map((r) => r.to.slice(drive.length + 1))).toEqual([
      'Movies/Heat.1995.1080p.BluRay/Heat (1995).mkv',
      'Movies/Heat.1995.1080p.BluRay/Heat (1995).en.srt',
      'Movies/Heat (1995)',
      'TV/Lost/Season 1/Lost - S01E01.mkv',
      'TV/Lost/Season 1/Lost - S01E01.en.srt',
    ]);
    expect(progress.at(0)).toEqual({ done: 0, total: 5 });
    expect(progress.at(-1)).toEqual({ done: 5, total: 5 });
    expect(await readdir(join(drive, 'Movies/Heat (1995)'))).toEqual(['Heat (1995).en.srt', 'Heat (1995).mkv']);
    expect(await readdir(join(drive, 'TV/Lost/Season 1'))).toEqual(['Lost - S01E01.en.srt', 'Lost - S01E01.mkv']);
    expect(await indexedPaths()).toEqual([
      'Movies/Heat (1995)/Heat (1995).en.srt',
      'Movies/Heat (1995)/Heat (1995).mkv',
      'TV/Lost/Season 1/Lost - S01E01.en.srt',
      'TV/Lost/Season 1/Lost - S01E01.mkv',
    ]);
    const history = await data().history().read();
    expect(history.map((r) => [r.mode, r.method, r.source.slice(drive.length + 1), r.destination.slice(drive.length + 1), r.sidecars.length, r.pass])).toEqual([
      ['rename', 'rename', 'Movies/Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.x264-GRP.mkv', 'Movies/Heat.1995.1080p.BluRay/Heat (1995).mkv', 1, 'job-1'],
      ['rename', 'rename', 'Movies/Heat.1995.1080p.BluRay', 'Movies/Heat (1995)', 0, 'job-1'],
      ['rename', 'rename', 'TV/Lost/Season 1/lost.s01e01.mkv', 'TV/Lost/Season 1/Lost - S01E01.mkv', 1, 'job-1'],
    ]);
    expect(await readdir(join(cfg.paths.data, 'scanner/organize'))).toEqual([]);
    // Planned again from the patched index: nothing is left to rename.
    expect(await apply()).toEqual({ renamed: [], skipped: [] });
    // The per-folder stamps held offsets into the old index: gone, so the next scan reads every folder, and agrees.
    expect(await stat(data().index().foldersFile).catch(() => null)).toBeNull();
    const patched = await indexedPaths();
    await indexNow();
    expect(await indexedPaths()).toEqual(patched);
  });

  it('undo takes a rename back, the folder first, then its files; refused with 409 when the file changed or the old name is taken', async () => {
    await library();
    await apply();
    const undo = undoService({ config: () => cfg, data: () => data(), notify: async () => {} });
    const [heat, folder, lost] = await data().history().read();
    // The file's record names it under the folder's old name: the folder goes back first.
    await expect(undo.undo(heat!.id, log)).rejects.toMatchObject({
      code: 'conflict',
      message: `${heat!.destination} was renamed since (history item ${folder!.id}: ${folder!.source} to ${folder!.destination}): take that rename back first`,
      details: { reason: 'destination_changed', path: heat!.destination },
    });
    expect((await undo.undo(folder!.id, log)).restored).toEqual([{ from: folder!.destination, to: folder!.source, action: 'moved_back' }]);
    await undo.undo(heat!.id, log);
    expect(await readdir(join(drive, 'Movies'))).toEqual(['Heat.1995.1080p.BluRay']);
    expect(await readdir(join(drive, 'Movies/Heat.1995.1080p.BluRay'))).toEqual([
      'Heat.1995.1080p.BluRay.x264-GRP.en.srt',
      'Heat.1995.1080p.BluRay.x264-GRP.mkv',
    ]);
    await expect(undo.undo(heat!.id, log)).rejects.toMatchObject({ code: 'conflict' });

    const season = join(drive, 'TV/Lost/Season 1');
    await writeFile(join(season, 'lost.s01e01.en.srt'), 'another file');
    await expect(undo.undo(lost!.id, log)).rejects.toMatchObject({ code: 'conflict', details: { reason: 'source_taken' } });
    await rm(join(season, 'lost.s01e01.en.srt'));
    await appendFile(join(season, 'Lost - S01E01.mkv'), 'more');
    await expect(undo.undo(lost!.id, log)).rejects.toMatchObject({ code: 'conflict', details: { reason: 'destination_changed' } });
    expect(await readdir(season)).toEqual(['Lost - S01E01.en.srt', 'Lost - S01E01.mkv']);
    expect((await data().history().read()).map((r) => r.undone_at !== null)).toEqual([true, true, false]);
  });

  it('undo of a link import whose library file a rename moved since is refused until that rename is taken back', async () => {
    const source = join(dir, 'downloads', 'lost.s01e01.mkv');
    await writeFile(source, 'video');
    const destination = join(drive, 'TV/Lost/Season 1/lost.s01e01.mkv');
    await mkdir(join(drive, 'TV/Lost/Season 1'), { recursive: true });
    await link(source, destination);
    const st = await stat(destination);
    const identity = { dev: st.dev, ino: st.ino, size: st.size, mtime_ms: st.mtimeMs };
    const history = await data().history().open();
    const imported = await history.recordImport({
      at: new Date().toISOString(),
      ...{ source, destination, from: identity, to: identity, mode: 'hardlink', method: 'link', sidecars: [], created_dirs: [], pass: 'pass-1' },
    });
    await indexNow();
    await apply();
    const season = join(drive, 'TV/Lost/Season 1');
    const undo = undoService({ config: () => cfg, data: () => data(), notify: async () => {} });
    // The library path is empty and the download there: without the check it looked taken back already, and was marked so.
    await expect(undo.undo(imported.id, log)).rejects.toMatchObject({ code: 'conflict', details: { reason: 'destination_changed', path: destination } });
    expect(await readdir(season)).toEqual(['Lost - S01E01.mkv']);
    expect((await data().history().read()).map((r) => r.undone_at)).toEqual([null, null]);
    const [, renamed] = await data().history().read();
    await undo.undo(renamed!.id, log);
    expect((await undo.undo(imported.id, log)).restored).toEqual([{ from: destination, to: source, action: 'removed' }]);
    expect(await readdir(season)).toEqual([]);
  });

  it('skips, renaming nothing of it, a group whose target appeared or whose file changed since the scan, and a path no longer proposed', async () => {
    await library();
    await put('Movies/Heat.1995.1080p.BluRay/Heat (1995).en.srt', 'came later');
    await appendFile(join(drive, 'TV/Lost/Season 1/lost.s01e01.mkv'), 'grown');
    const ghost = join(drive, 'TV/Lost/Season 1/lost.s01e09.mkv');
    const result = await apply([
      join(drive, 'Movies/Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.x264-GRP.mkv'),
      join(drive, 'TV/Lost/Season 1/lost.s01e01.en.srt'),
      ghost,
    ]);
    expect(result.renamed).toEqual([]);
    expect(result.skipped.map((s) => [s.from.slice(drive.length + 1), s.reason.replace(drive, '')])).toEqual([
      ['TV/Lost/Season 1/lost.s01e09.mkv', 'is no longer a rename GET /api/library/organize lists'],
      ['Movies/Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.x264-GRP.mkv', '/Movies/Heat.1995.1080p.BluRay/Heat (1995).en.srt is taken'],
      ['Movies/Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.x264-GRP.en.srt', '/Movies/Heat.1995.1080p.BluRay/Heat (1995).en.srt is taken'],
      ['TV/Lost/Season 1/lost.s01e01.mkv', '/TV/Lost/Season 1/lost.s01e01.mkv changed since the library scan'],
      ['TV/Lost/Season 1/lost.s01e01.en.srt', '/TV/Lost/Season 1/lost.s01e01.mkv changed since the library scan'],
    ]);
    expect(await readdir(join(drive, 'Movies'))).toEqual(['Heat.1995.1080p.BluRay']);
    expect(await readdir(join(drive, 'TV/Lost/Season 1'))).toEqual(['lost.s01e01.en.srt', 'lost.s01e01.mkv']);
    expect(await data().history().read()).toEqual([]);
  });

  it('stopped mid-way (cancelled, or the worker shutting down), keeps what it renamed, recorded and indexed, and throws for the retry', async () => {
    await library();
    const stop = new AbortController();
    const run = applyOrganize({
      config: cfg,
      data: data(),
      jobId: 'job-1',
      log,
      signal: stop.signal,
      progress: (p) => {
        if (p.done >= 2) stop.abort(new Error('the worker is shutting down'));
      },
    });
    await expect(run).rejects.toThrow('shutting down');
    expect(await readdir(join(drive, 'Movies/Heat.1995.1080p.BluRay'))).toEqual(['Heat (1995).en.srt', 'Heat (1995).mkv']);
    expect(await readdir(join(drive, 'TV/Lost/Season 1'))).toEqual(['lost.s01e01.en.srt', 'lost.s01e01.mkv']);
    expect(await data().history().read()).toHaveLength(1);
    expect(await indexedPaths()).toContain('Movies/Heat.1995.1080p.BluRay/Heat (1995).mkv');
    expect(await readdir(join(cfg.paths.data, 'scanner/organize'))).toEqual([]);
    // The retry carries out the rest.
    expect((await apply()).renamed).toHaveLength(3);
  });

  it('skips a group whose folder is reached through a link out of the library folders', async () => {
    await put('Movies/Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.x264-GRP.mkv');
    await indexNow();
    const outside = join(dir, 'outside');
    await rename(join(drive, 'Movies/Heat.1995.1080p.BluRay'), outside);
    const { symlink } = await import('node:fs/promises');
    await symlink(outside, join(drive, 'Movies/Heat.1995.1080p.BluRay'));
    const result = await apply();
    expect(result.renamed).toEqual([]);
    expect(result.skipped[0]!.reason).toContain('outside the library folders by its real path');
    expect(await readdir(outside)).toEqual(['Heat.1995.1080p.BluRay.x264-GRP.mkv']);
  });
});

describe('recoverOrganizeLocked', () => {
  /** A note as applyGroup writes it before its first rename. */
  async function note(renames: { from: string; to: string }[]) {
    const noted = [];
    for (const r of renames) {
      const s = (await seenNode(r.from))!;
      noted.push({ from: r.from, to: r.to, id: { dev: s.dev, ino: s.ino, size: s.isDir ? 0 : s.size, mtime_ms: s.isDir ? 0 : s.mtimeMs, dir: s.isDir } });
    }
    await data().journals().organize().begin({ job: 'killed', renames: noted, recorded: null });
  }

  it('records a group a kill left wholly renamed and patches the index; takes a half-renamed group back', async () => {
    await library();
    const season = join(drive, 'TV/Lost/Season 1');
    const heat = join(drive, 'Movies/Heat.1995.1080p.BluRay');
    const lost = [
      { from: join(season, 'lost.s01e01.mkv'), to: join(season, 'Lost - S01E01.mkv') },
      { from: join(season, 'lost.s01e01.en.srt'), to: join(season, 'Lost - S01E01.en.srt') },
    ];
    await note(lost);
    for (const r of lost) await rename(r.from, r.to);
    const heatFiles = [
      { from: join(heat, 'Heat.1995.1080p.BluRay.x264-GRP.mkv'), to: join(heat, 'Heat (1995).mkv') },
      { from: join(heat, 'Heat.1995.1080p.BluRay.x264-GRP.en.srt'), to: join(heat, 'Heat (1995).en.srt') },
    ];
    await note(heatFiles);
    await rename(heatFiles[0]!.from, heatFiles[0]!.to);

    expect(
      await data()
        .journals()
        .locked(() => recoverOrganizeLocked(data(), log)),
    ).toEqual({ groups: 2 });
    expect(await readdir(season)).toEqual(['Lost - S01E01.en.srt', 'Lost - S01E01.mkv']);
    expect(await readdir(heat)).toEqual(['Heat.1995.1080p.BluRay.x264-GRP.en.srt', 'Heat.1995.1080p.BluRay.x264-GRP.mkv']);
    const history = await data().history().read();
    expect(history.map((r) => [r.source, r.destination, r.sidecars.map((s) => s.destination), r.pass])).toEqual([
      [lost[0]!.from, lost[0]!.to, [lost[1]!.to], 'killed'],
    ]);
    expect(await indexedPaths()).toContain('TV/Lost/Season 1/Lost - S01E01.mkv');
    expect(await readdir(join(cfg.paths.data, 'scanner/organize'))).toEqual([]);
    // Settled once: asked again, nothing is recorded twice.
    expect(
      await data()
        .journals()
        .locked(() => recoverOrganizeLocked(data(), log)),
    ).toEqual({ groups: 0 });
    expect(await data().history().read()).toHaveLength(1);
  });
});
