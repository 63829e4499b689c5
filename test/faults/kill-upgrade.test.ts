// SIGKILL at every point of an upgrade (issue 30 item 4): a download replacing the library's video
// of the same film, its held video and subtitles going to the recycle bin first. A child process
// (packages/core/src/import-tx/test-fixtures/upgrade-child.ts) runs the import driver and kills itself just before or just after its
// k-th change to the disk, for every k the upgrade has, in move, hardlink and copy mode; the next
// pass's recovery then runs. Whatever k, the end is one of two: the old files in the library and the
// new ones in the downloads, nothing recorded, the bin empty; or the new files in the library,
// recorded once with the old ones' bin paths, the old bytes there. Never a file lost, never both
// missing, no import note left. The same for the undo of an upgrade killed at each of its points:
// asking again completes it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from '@mo/test-support/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransferMode } from '@mo/shared';
import { dataDir } from '@mo/core';
import { openHistoryLog } from '@mo/core/history';
import { runUpgradeJob, UPGRADE_CHILD, type UpgradeWorld } from '@mo/core/test-fixtures';
import { Figures } from './support/report.ts';

const figures = new Figures('kill-upgrade');
const root = mkdtempSync(join(tmpdir(), 'mo-kill-upgrade-'));
const child = join(root, 'upgrade-child.mjs');
const OLD = new Date('2024-05-01T12:00:00.000Z');
const BYTES = { oldVideo: 'old 480p video', oldSrt: 'old subtitles', newVideo: 'new 1080p video', newSrt: 'new subtitles' };
let n = 0;

beforeAll(() => {
  // The esbuild CLI, not its JS API: the API's service hangs in vitest's forked workers.
  const r = spawnSync(
    join(REPO_ROOT, 'node_modules/.bin/esbuild'),
    [
      UPGRADE_CHILD,
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--target=node20',
      `--outfile=${child}`,
      '--log-level=error',
      // Bundled CommonJS dependencies (pino) ask for require.
      "--banner:js=import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  if (r.status !== 0) throw new Error(`esbuild: ${r.stderr}`);
}, 60_000);

afterAll(() => {
  figures.print();
  rmSync(root, { recursive: true, force: true });
});

function put(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  utimesSync(path, OLD, OLD);
  return path;
}

function world(mode: TransferMode): UpgradeWorld {
  const at = join(root, `w${++n}`);
  const w = { data: join(at, 'data'), downloads: join(at, 'downloads'), drive: join(at, 'drive') };
  mkdirSync(w.data, { recursive: true });
  const folder = join(w.drive, 'Movies/Heat (1995)');
  return {
    ...w,
    mode,
    held: { video: put(join(folder, 'Heat (1995).mkv'), BYTES.oldVideo), srt: put(join(folder, 'Heat (1995).en.srt'), BYTES.oldSrt) },
    dl: {
      video: put(join(w.downloads, 'Heat.1995.1080p.BluRay.x264-GRP.mkv'), BYTES.newVideo),
      srt: put(join(w.downloads, 'Heat.1995.1080p.BluRay.x264-GRP.en.srt'), BYTES.newSrt),
    },
  };
}

/** Runs the job in a child killed at point `killAt` (0: never); the points it passed, or null once killed. */
function inChild(w: UpgradeWorld, job: 'import' | 'undo', killAt: number): number | null {
  const r = spawnSync(process.execPath, [child], {
    env: { ...process.env, KILL_AT: String(killAt), UPGRADE_JOB: JSON.stringify({ ...w, job }) },
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (r.signal === 'SIGKILL') return null;
  if (r.status !== 0) throw new Error(`the ${job} child failed: ${r.stderr}`);
  return Number(/points (\d+)/.exec(r.stdout)?.[1]);
}

const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : null);
const filesUnder = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name))
    : [];
const notes = (w: UpgradeWorld) => filesUnder(dataDir(w.data).path('importJournal')).filter((f) => f.endsWith('.json'));

/** Which of the two allowed ends the disk and the history show, or what is wrong with them. */
async function outcome(w: UpgradeWorld): Promise<'old kept' | 'upgraded' | 'undone' | string> {
  const records = (await openHistoryLog(w.data)).records();
  const bin = filesUnder(join(w.drive, '.recycle'));
  const library = [read(w.held.video), read(w.held.srt)];
  const downloads = [read(w.dl.video), read(w.dl.srt)];
  const keepsDownload = w.mode !== 'move';
  if (notes(w).length > 0) return `import notes left: ${notes(w).join(', ')}`;
  if (library[0] === BYTES.oldVideo && library[1] === BYTES.oldSrt) {
    if (downloads[0] !== BYTES.newVideo || downloads[1] !== BYTES.newSrt) return `old kept, but the downloads hold ${JSON.stringify(downloads)}`;
    if (bin.length > 0) return `old kept, but the bin still holds ${bin.join(', ')}`;
    if (records.length === 0) return 'old kept';
    return records.length === 1 && records[0]!.undone_at !== null ? 'undone' : `old kept, but the history holds ${records.length}`;
  }
  if (library[0] === BYTES.newVideo && library[1] === BYTES.newSrt) {
    if (records.length !== 1 || records[0]!.undone_at !== null) return `upgraded, but the history holds ${JSON.stringify(records)}`;
    const replaced = records[0]!.replaced;
    if (!replaced || read(replaced.recycled_to) !== BYTES.oldVideo || read(replaced.sidecars[0]?.recycled_to ?? '') !== BYTES.oldSrt)
      return `upgraded, but the old files are not where the history says: ${JSON.stringify(replaced)}`;
    if (keepsDownload && (downloads[0] !== BYTES.newVideo || downloads[1] !== BYTES.newSrt))
      return `upgraded, but the kept downloads are ${JSON.stringify(downloads)}`;
    if (!keepsDownload && (downloads[0] !== null || downloads[1] !== null)) return `upgraded, but the downloads still hold ${JSON.stringify(downloads)}`;
    return 'upgraded';
  }
  return `neither end: library ${JSON.stringify(library)}, downloads ${JSON.stringify(downloads)}, bin ${bin.join(', ')}`;
}

describe('SIGKILL at every point of an upgrade', () => {
  it.each(['move', 'hardlink', 'copy'] as const)('%s mode: killed at each change, recovered, both files survive', async (mode) => {
    const total = inChild(world(mode), 'import', 0)!;
    expect(total).toBeGreaterThan(10);
    const ends: Record<string, number> = {};
    for (let k = 1; k <= total; k++) {
      const w = world(mode);
      expect(inChild(w, 'import', k), `kill point ${k}`).toBeNull();
      await runUpgradeJob({ ...w, job: 'recover' });
      const end = await outcome(w);
      expect([`${k}: ${end}`]).toContainEqual(expect.stringMatching(/^\d+: (old kept|upgraded)$/));
      ends[end] = (ends[end] ?? 0) + 1;
    }
    // Both ends are reached: the sweep did cut before and after the new video got away.
    expect(Object.keys(ends).sort()).toEqual(['old kept', 'upgraded']);
    figures.set(`${mode}: import kill points`, total);
    for (const [end, count] of Object.entries(ends)) figures.set(`${mode}: ${end}`, count);
  });

  // Copy mode's undo removes the copy as hardlink mode's removes the link: the same steps.
  it.each(['move', 'hardlink'] as const)('%s mode: an undo killed at each change completes when asked again', async (mode) => {
    const first = world(mode);
    expect(inChild(first, 'import', 0)).not.toBeNull();
    const total = inChild(first, 'undo', 0)!;
    expect(await outcome(first)).toBe('undone');
    for (let k = 1; k <= total; k++) {
      const w = world(mode);
      // The import itself in this process: only the undo is killed.
      await runUpgradeJob({ ...w, job: 'import' });
      expect(inChild(w, 'undo', k), `kill point ${k}`).toBeNull();
      // Before asking again, the files are each somewhere whole.
      const bin = filesUnder(join(w.drive, '.recycle')).map(read);
      const everywhere = [read(w.held.video), read(w.held.srt), read(w.dl.video), read(w.dl.srt), ...bin];
      for (const bytes of Object.values(BYTES)) expect(everywhere, `kill point ${k}: ${bytes}`).toContain(bytes);
      await runUpgradeJob({ ...w, job: 'undo' });
      expect(`${k}: ${await outcome(w)}`).toBe(`${k}: undone`);
    }
    figures.set(`${mode}: undo kill points`, total);
  });
});
