import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TransferMode } from '@mo/shared';
import { openHistoryLog } from '../history/history-log.ts';
import { createLogger } from '../logging/logger.ts';
import { openImportTx, openUndoTx, type ImportPlan } from './driver.ts';
import { dataDir } from '../data-dir/data-dir.ts';
import { journalsStore } from './journals.ts';
import { file, OLD, put } from './test-fixtures/files.ts';

const root = mkdtempSync(join(tmpdir(), 'mo-import-tx-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const log = createLogger({ name: 'test', level: 'silent' });
let n = 0;

const from = (path: string) => {
  const st = lstatSync(path);
  return { dev: st.dev, ino: st.ino, size: st.size, mtime_ms: st.mtimeMs };
};

async function world(mode: TransferMode = 'move', settled: (mtimeMs: number) => boolean = () => true) {
  const at = join(root, `w${++n}`);
  const dirs = { downloads: join(at, 'downloads'), drive: join(at, 'drive'), data: join(at, 'data') };
  Object.values(dirs).forEach((d) => mkdirSync(d, { recursive: true }));
  const history = await openHistoryLog(dirs.data);
  const journals = journalsStore(dataDir(dirs.data));
  const recorded: string[] = [];
  const tx = openImportTx({
    journals,
    mode,
    drives: [{ name: 'd', path: dirs.drive }],
    owner: { uid: null, gid: null },
    history,
    log,
    record: (source, destination, error) => recorded.push(`${source} -> ${destination}${error === null ? '' : `: ${error}`}`),
    now: Date.now,
    settled,
  });
  const notes = () =>
    (['transferJournal', 'legacySidecarJournal', 'importJournal'] as const).flatMap((f) => {
      const d = dataDir(dirs.data).path(f);
      return (existsSync(d) ? readdirSync(d) : []).filter((name) => name.endsWith('.json'));
    });
  return { ...dirs, history, tx, recorded, notes, journals };
}

describe('openImportTx', () => {
  it('imports a video and its sidecar, records it once, and leaves no note', async () => {
    const w = await world();
    const video = put(join(w.downloads, 'Heat.1995.mkv'), 'video');
    const srt = put(join(w.downloads, 'Heat.1995.en.srt'), 'subs');
    const dest = join(w.drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    const plan: ImportPlan = { video: file(video), destination: dest, drive: 'd', sidecars: [{ file: file(srt), destination: `${dest.slice(0, -4)}.en.srt` }] };
    const r = await w.tx.importOne(plan, 'p1');
    expect(r).toMatchObject({ video: { ok: true, method: 'rename' }, sidecarErrors: [] });
    expect(w.history.records()).toHaveLength(1);
    expect(w.history.records()[0]).toMatchObject({ source: video, destination: dest, pass: 'p1', created_dirs: [join(w.drive, 'Movies'), dirname(dest)] });
    expect(w.history.records()[0]!.sidecars.map((s) => s.destination)).toEqual([`${dest.slice(0, -4)}.en.srt`]);
    expect(w.notes()).toEqual([]);
    expect(w.recorded).toHaveLength(2);
  });

  it('recovers a pass killed after the video moved: the sidecar follows it and both are recorded', async () => {
    const w = await world();
    const video = put(join(w.downloads, 'Heat.1995.mkv'), 'video');
    const srt = put(join(w.downloads, 'Heat.1995.en.srt'), 'subs');
    const dest = join(w.drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    const srtDest = `${dest.slice(0, -4)}.en.srt`;
    const ids = { video: from(video), srt: from(srt) };
    // What a kill right after the video's rename leaves: the import's record, the video placed, the sidecar not.
    await w.journals.imports().begin({
      source: video,
      destination: dest,
      from: ids.video,
      mode: 'move',
      sidecars: [{ source: srt, destination: srtDest, from: ids.srt }],
      created_dirs: [dirname(dest)],
      pass: 'killed',
    });
    mkdirSync(dirname(dest), { recursive: true });
    renameSync(video, dest);

    await w.tx.recover();
    expect(lstatSync(srtDest).ino).toBe(ids.srt.ino);
    expect(w.history.records()).toHaveLength(1);
    expect(w.history.records()[0]).toMatchObject({ source: video, destination: dest, method: 'rename', pass: 'killed' });
    expect(w.history.records()[0]!.sidecars.map((s) => s.destination)).toEqual([srtDest]);
    expect(w.notes()).toEqual([]);
  });

  it('drops the note of an import killed before its video was placed, recording nothing', async () => {
    const w = await world('hardlink');
    const video = put(join(w.downloads, 'Ronin.1998.mkv'), 'video');
    const dest = join(w.drive, 'Movies/Ronin (1998)/Ronin (1998).mkv');
    await w.journals.imports().begin({
      source: video,
      destination: dest,
      from: from(video),
      mode: 'hardlink',
      sidecars: [],
      created_dirs: [],
      pass: 'killed',
    });
    await w.tx.recover();
    expect(w.history.records()).toEqual([]);
    expect(w.notes()).toEqual([]);
    expect(lstatSync(video).nlink).toBe(1);
  });

  it('records the import but keeps its record while a sidecar left behind is still being written, and places it on a later recovery', async () => {
    let settled = false;
    const w = await world('move', () => settled);
    const video = put(join(w.downloads, 'Heat.1995.mkv'), 'video');
    const srt = put(join(w.downloads, 'Heat.1995.en.srt'), 'subs');
    const dest = join(w.drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    const srtDest = `${dest.slice(0, -4)}.en.srt`;
    await w.journals.imports().begin({
      source: video,
      destination: dest,
      from: from(video),
      mode: 'move',
      sidecars: [{ source: srt, destination: srtDest, from: from(srt) }],
      created_dirs: [dirname(dest)],
      pass: 'killed',
    });
    mkdirSync(dirname(dest), { recursive: true });
    renameSync(video, dest);

    await w.tx.recover();
    expect(existsSync(srt)).toBe(true);
    expect(w.history.records()).toMatchObject([{ destination: dest, sidecars: [] }]);
    expect(w.notes()).toHaveLength(1);

    settled = true;
    await w.tx.recover();
    expect(existsSync(srtDest)).toBe(true);
    expect(w.history.records()).toHaveLength(1);
    expect(w.notes()).toEqual([]);
  });

  it('migrates a sidecar note an older version left in scanner/sidecars/: its sidecar placed and recorded with the video, the folder removed', async () => {
    const w = await world();
    const video = put(join(w.downloads, 'Heat.1995.mkv'), 'video');
    const srt = put(join(w.downloads, 'Heat.1995.en.srt'), 'subs');
    const dest = join(w.drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    const srtDest = `${dest.slice(0, -4)}.en.srt`;
    const ids = { video: from(video), srt: from(srt) };
    // Both notes as an older version wrote them, its pass killed right after the video's rename.
    const legacy = join(w.data, 'scanner', 'sidecars');
    mkdirSync(legacy, { recursive: true });
    writeFileSync(
      join(legacy, '1700000000000-0123456789ab.json'),
      JSON.stringify({ video: { source: video, destination: dest }, sidecars: [{ source: srt, destination: srtDest, size: 4, mtime_ms: OLD.getTime() }] }),
    );
    await w.journals.imports().begin({
      source: video,
      destination: dest,
      from: ids.video,
      mode: 'move',
      sidecars: [{ source: srt, destination: srtDest, from: ids.srt }],
      created_dirs: [dirname(dest)],
      pass: 'killed',
    });
    mkdirSync(dirname(dest), { recursive: true });
    renameSync(video, dest);

    await w.tx.recover();
    expect(lstatSync(srtDest).ino).toBe(ids.srt.ino);
    expect(existsSync(srt)).toBe(false);
    expect(w.history.records()).toHaveLength(1);
    expect(w.history.records()[0]!.sidecars.map((s) => s.destination)).toEqual([srtDest]);
    expect(existsSync(legacy)).toBe(false);
    expect(w.notes()).toEqual([]);
    expect(w.recorded).toEqual([`${srt} -> ${srtDest}`]);
  });

  it('places the sidecars of a legacy note with no import record, as the older version would have', async () => {
    const w = await world('hardlink');
    const video = put(join(w.downloads, 'Ronin.1998.mkv'), 'video');
    const srt = put(join(w.downloads, 'Ronin.1998.en.srt'), 'subs');
    const dest = join(w.drive, 'Movies/Ronin (1998)/Ronin (1998).mkv');
    const srtDest = `${dest.slice(0, -4)}.en.srt`;
    const legacy = join(w.data, 'scanner', 'sidecars');
    mkdirSync(legacy, { recursive: true });
    writeFileSync(
      join(legacy, '1700000000000-0123456789ab.json'),
      JSON.stringify({
        video: { source: video, destination: dest },
        keep_source: true,
        sidecars: [{ source: srt, destination: srtDest, size: 4, mtime_ms: 0 }],
      }),
    );
    mkdirSync(dirname(dest), { recursive: true });
    linkSync(video, dest);

    await w.tx.recover();
    expect(lstatSync(srtDest).ino).toBe(lstatSync(srt).ino);
    expect(existsSync(legacy)).toBe(false);
  });

  it('undoes an import through the same loop, completing one a kill cut short after its sidecar went back', async () => {
    const w = await world();
    const video = put(join(w.downloads, 'Heat.1995/Heat.1995.mkv'), 'video');
    const srt = put(join(w.downloads, 'Heat.1995/Heat.1995.en.srt'), 'subs');
    const dest = join(w.drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    const srtDest = `${dest.slice(0, -4)}.en.srt`;
    await w.tx.importOne({ video: file(video), destination: dest, drive: 'd', sidecars: [{ file: file(srt), destination: srtDest }] }, 'p1');
    const [record] = w.history.records();
    // What an undo killed after taking the sidecar back leaves.
    renameSync(srtDest, srt);

    const undo = openUndoTx({ journals: w.journals, downloads: w.downloads, history: w.history, now: Date.now, drives: [] });
    await undo.recover();
    await undo.undoOne(record!);
    expect([existsSync(video), existsSync(srt), existsSync(dest)]).toEqual([true, true, false]);
    expect(existsSync(join(w.drive, 'Movies'))).toBe(false);
    expect(w.history.records()[0]!.undone_at).not.toBeNull();
    expect(w.notes()).toEqual([]);
  });
});
