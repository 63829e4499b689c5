import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TransferMode } from '@mo/shared';
import { openHistoryLog } from '../history/history-log.ts';
import { historyItem } from '../history/history-record.ts';
import { createLogger } from '../logging/logger.ts';
import { dataDir } from '../data-dir/data-dir.ts';
import { recycleFile } from '../recycle/recycle-bin.ts';
import { scanStores } from '../scanner/scan-stores.ts';
import { undoImport } from '../scanner/undo-import.ts';
import { openImportTx, openUndoTx, type ImportPlan } from './driver.ts';
import { journalsStore } from './journals.ts';
import { file, put } from './test-fixtures/files.ts';

const root = mkdtempSync(join(tmpdir(), 'mo-upgrade-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const log = createLogger({ name: 'test', level: 'silent' });
let n = 0;

const text = (path: string) => readFileSync(path, 'utf8');
/** Every file under `dir`, relative, sorted. */
const tree = (dir: string): string[] =>
  existsSync(dir)
    ? (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
        .sort()
    : [];

/**
 * A library holding Heat (1995) in 480p with its subtitles, and the 1080p release in the downloads
 * with its own: the new video's destination is the held video's path.
 */
async function world(mode: TransferMode = 'move') {
  const at = join(root, `w${++n}`);
  const dirs = { downloads: join(at, 'downloads'), drive: join(at, 'drive'), data: join(at, 'data') };
  Object.values(dirs).forEach((d) => mkdirSync(d, { recursive: true }));
  const history = await openHistoryLog(dirs.data);
  const journals = journalsStore(dataDir(dirs.data));
  const drives = [{ name: 'd', path: dirs.drive }];
  const recorded: string[] = [];
  const tx = openImportTx({
    journals,
    mode,
    drives,
    owner: { uid: null, gid: null },
    history,
    log,
    record: (source, destination, error) => recorded.push(`${source} -> ${destination}${error === null ? '' : `: ${error}`}`),
    now: Date.now,
    settled: () => true,
  });
  const folder = join(dirs.drive, 'Movies/Heat (1995)');
  const held = { video: put(join(folder, 'Heat (1995).mkv'), 'old 480p'), srt: put(join(folder, 'Heat (1995).en.srt'), 'old subs') };
  const dl = {
    video: put(join(dirs.downloads, 'Heat.1995.1080p.BluRay.mkv'), 'new 1080p video'),
    srt: put(join(dirs.downloads, 'Heat.1995.1080p.BluRay.en.srt'), 'new subs'),
  };
  const plan = (): ImportPlan => ({
    video: file(dl.video),
    destination: held.video,
    drive: 'd',
    sidecars: [{ file: file(dl.srt), destination: held.srt }],
    replaces: { video: held.video, sidecars: [held.srt] },
  });
  const notes = () => {
    const d = dataDir(dirs.data).path('importJournal');
    return (existsSync(d) ? readdirSync(d) : []).filter((name) => name.endsWith('.json'));
  };
  const undo = () => openUndoTx({ journals, downloads: dirs.downloads, history, now: Date.now, drives });
  return { ...dirs, drives, history, journals, tx, recorded, held, dl, plan, notes, undo, bin: join(dirs.drive, '.recycle') };
}

describe('an upgrade inside the import transaction', () => {
  it('recycles the held video and sidecars first, places the new ones, and records one item naming the replaced', async () => {
    const w = await world();
    const r = await w.tx.importOne(w.plan(), 'p1');
    expect(r.video.ok).toBe(true);
    expect([text(w.held.video), text(w.held.srt)]).toEqual(['new 1080p video', 'new subs']);
    const day = new Date().toISOString().slice(0, 10);
    const binVideo = join(w.bin, day, 'Movies/Heat (1995)/Heat (1995).mkv');
    const binSrt = join(w.bin, day, 'Movies/Heat (1995)/Heat (1995).en.srt');
    expect([text(binVideo), text(binSrt)]).toEqual(['old 480p', 'old subs']);
    expect(r.replaced).toEqual({ path: w.held.video, recycled_to: binVideo });
    const records = w.history.records();
    expect(records).toHaveLength(1);
    expect(historyItem(records[0]!).replaced).toEqual({ path: w.held.video, recycled_to: binVideo, sidecars: [{ path: w.held.srt, recycled_to: binSrt }] });
    expect(w.notes()).toEqual([]);
  });

  it('puts the held files back when the new video cannot be placed, and fails the move', async () => {
    const w = await world();
    const plan = w.plan();
    // Rewritten since it was planned: placing refuses it.
    writeFileSync(w.dl.video, 'changed since the plan');
    const r = await w.tx.importOne(plan, 'p1');
    expect(r.video).toMatchObject({ ok: false, error: expect.stringContaining('is back in its place') });
    expect(r.replaced).toBeNull();
    expect([text(w.held.video), text(w.held.srt)]).toEqual(['old 480p', 'old subs']);
    expect(tree(w.bin)).toEqual([]);
    expect(existsSync(w.dl.video)).toBe(true);
    expect(w.history.records()).toEqual([]);
    expect(w.notes()).toEqual([]);
    expect(w.recorded.at(-1)).toContain('is back in its place');
  });

  it('replaces nothing when the recycle bin refuses the held files (its folder a file)', async () => {
    const w = await world();
    writeFileSync(w.bin, 'not a folder');
    const r = await w.tx.importOne(w.plan(), 'p1');
    expect(r.video).toMatchObject({ ok: false, error: expect.stringMatching(/could not go to the recycle bin.*is back in its place$/) });
    expect([text(w.held.video), text(w.held.srt), text(w.dl.video)]).toEqual(['old 480p', 'old subs', 'new 1080p video']);
    expect(w.history.records()).toEqual([]);
    expect(w.notes()).toEqual([]);
  });

  it('replaces nothing when the held video is gone since the plan', async () => {
    const w = await world();
    const plan = w.plan();
    unlinkSync(w.held.video);
    const r = await w.tx.importOne(plan, 'p1');
    expect(r.video.ok).toBe(false);
    expect(text(w.held.srt)).toBe('old subs');
    expect(existsSync(w.dl.video)).toBe(true);
    expect(w.notes()).toEqual([]);
  });

  it.each(['move', 'hardlink'] as const)('undo (%s mode) takes the new files back and the old ones out of the bin', async (mode) => {
    const w = await world(mode);
    await w.tx.importOne(w.plan(), 'p1');
    const record = w.history.records()[0]!;
    await w.undo().undoOne(record);
    expect([text(w.held.video), text(w.held.srt)]).toEqual(['old 480p', 'old subs']);
    expect([text(w.dl.video), text(w.dl.srt)]).toEqual(['new 1080p video', 'new subs']);
    expect(lstatSync(w.dl.video).nlink).toBe(1);
    expect(tree(w.bin)).toEqual([]);
    expect(w.history.records()[0]!.undone_at).not.toBeNull();
  });

  it('POST /api/history/:id/undo’s service: a dry run names what comes back from the bin and moves nothing; then it is done', async () => {
    const w = await world();
    await w.tx.importOne(w.plan(), 'p1');
    const record = w.history.records()[0]!;
    const opts = { data: scanStores(w.data), downloads: w.downloads, drives: w.drives, id: record.id };
    const planned = await undoImport({ ...opts, dryRun: true });
    const back = [
      { from: record.replaced!.recycled_to, to: w.held.video },
      { from: record.replaced!.sidecars[0]!.recycled_to, to: w.held.srt },
    ];
    expect(planned).toMatchObject({ dry_run: true, restored: [{ from: w.held.video, to: w.dl.video, action: 'moved_back' }, { action: 'moved_back' }] });
    expect(planned.from_recycle_bin).toEqual(expect.arrayContaining(back));
    expect(text(w.held.video)).toBe('new 1080p video');
    const done = await undoImport({ ...opts, dryRun: false });
    expect(done.from_recycle_bin).toEqual(expect.arrayContaining(back));
    expect([text(w.held.video), text(w.dl.video)]).toEqual(['old 480p', 'new 1080p video']);
    await expect(undoImport({ ...opts, dryRun: false })).rejects.toMatchObject({ code: 'conflict', details: { reason: 'undone' } });
  });

  it('completes an undo killed after the new files went back', async () => {
    const w = await world();
    await w.tx.importOne(w.plan(), 'p1');
    const record = w.history.records()[0]!;
    const binVideo = record.replaced!.recycled_to;
    // What a kill leaves after the new files moved back and the old video was linked back, not yet unlinked from the bin.
    linkSync(w.held.video, w.dl.video);
    unlinkSync(w.held.video);
    linkSync(w.held.srt, w.dl.srt);
    unlinkSync(w.held.srt);
    linkSync(binVideo, w.held.video);
    await w.undo().undoOne(record);
    expect([text(w.held.video), text(w.held.srt), text(w.dl.video)]).toEqual(['old 480p', 'old subs', 'new 1080p video']);
    expect(tree(w.bin)).toEqual([]);
  });

  it.each([
    ['gone from the bin', (p: string) => unlinkSync(p)],
    ['changed in the bin', (p: string) => writeFileSync(p, 'rewritten')],
  ])('refuses the undo, changing nothing, when the replaced file is %s', async (_, spoil) => {
    const w = await world();
    await w.tx.importOne(w.plan(), 'p1');
    const record = w.history.records()[0]!;
    spoil(record.replaced!.recycled_to);
    const before = [tree(w.drive), tree(w.downloads)];
    await expect(w.undo().undoOne(record)).rejects.toMatchObject({ code: 'conflict', details: { reason: 'recycled_changed' } });
    expect([tree(w.drive), tree(w.downloads)]).toEqual(before);
    expect(w.history.records()[0]!.undone_at).toBeNull();
  });

  describe('recovery of an upgrade a kill cut short', () => {
    /** The import's note as importOne writes it before anything moves. */
    async function noted(w: Awaited<ReturnType<typeof world>>) {
      const p = w.plan();
      const id = (path: string) => {
        const st = lstatSync(path);
        return { dev: st.dev, ino: st.ino, size: st.size, mtime_ms: st.mtimeMs };
      };
      return w.journals.imports().begin({
        source: p.video.path,
        destination: p.destination,
        from: id(p.video.path),
        mode: 'move',
        sidecars: [{ source: w.dl.srt, destination: w.held.srt, from: id(w.dl.srt) }],
        created_dirs: [],
        pass: 'killed',
        replaces: { video: { path: w.held.video, held: id(w.held.video) }, sidecars: [{ path: w.held.srt, held: id(w.held.srt) }] },
      });
    }

    it('after recycling, before placing (bin paths not yet noted): the held files come back', async () => {
      const w = await world();
      await noted(w);
      await recycleFile({ drives: w.drives, file: w.held.video, sidecars: [w.held.srt] });
      await w.tx.recover();
      expect([text(w.held.video), text(w.held.srt)]).toEqual(['old 480p', 'old subs']);
      expect(tree(w.bin)).toEqual([]);
      expect(existsSync(w.dl.video)).toBe(true);
      expect(w.history.records()).toEqual([]);
      expect(w.notes()).toEqual([]);
    });

    it('after recycling, before placing, of a download imported and undone before: not taken for that undone import, the held files come back', async () => {
      const w = await world();
      const p = w.plan();
      // The same download (same inode) to the same destination, imported once and undone since.
      await w.history.recordImport({
        source: p.video.path,
        destination: p.destination,
        from: { dev: p.video.dev, ino: p.video.ino, size: p.video.size, mtime_ms: p.video.mtimeMs },
        to: { dev: p.video.dev, ino: p.video.ino, size: p.video.size, mtime_ms: p.video.mtimeMs },
        at: new Date().toISOString(),
        mode: 'move',
        method: 'rename',
        sidecars: [],
        created_dirs: [],
        pass: 'earlier',
      });
      await w.history.recordUndo(1, new Date().toISOString());
      await noted(w);
      await recycleFile({ drives: w.drives, file: w.held.video, sidecars: [w.held.srt] });
      await w.tx.recover();
      expect([text(w.held.video), text(w.held.srt)]).toEqual(['old 480p', 'old subs']);
      expect(tree(w.bin)).toEqual([]);
      expect(existsSync(w.dl.video)).toBe(true);
      expect(w.notes()).toEqual([]);
    });

    it('while recycling (a link in the bin, the original still there): the bin link goes', async () => {
      const w = await world();
      await noted(w);
      const day = new Date().toISOString().slice(0, 10);
      const binVideo = join(w.bin, day, 'Movies/Heat (1995)/Heat (1995).mkv');
      mkdirSync(dirname(binVideo), { recursive: true });
      linkSync(w.held.video, binVideo);
      await w.tx.recover();
      expect(lstatSync(w.held.video).nlink).toBe(1);
      expect(tree(w.bin)).toEqual([]);
    });

    it('after placing, before the history: recorded with what it replaced', async () => {
      const w = await world();
      await noted(w);
      const items = await recycleFile({ drives: w.drives, file: w.held.video, sidecars: [w.held.srt] });
      linkSync(w.dl.video, w.held.video);
      unlinkSync(w.dl.video);
      await w.tx.recover();
      // The sidecar left behind followed its video.
      expect(text(w.held.srt)).toBe('new subs');
      const records = w.history.records();
      expect(records).toHaveLength(1);
      expect(historyItem(records[0]!).replaced).toEqual({
        path: w.held.video,
        recycled_to: items[0]!.path,
        sidecars: [{ path: w.held.srt, recycled_to: items[1]!.path }],
      });
      expect(w.notes()).toEqual([]);
    });
  });
});
