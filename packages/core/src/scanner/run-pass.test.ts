import {
  copyFileSync,
  linkSync,
  readFileSync,
  renameSync,
  symlinkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  chmodSync,
  existsSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, initialState, scanResultSchema, stateSchema, type Config } from '@mo/shared';
import { createLogger } from '../logging/logger.ts';
import { createStateStore } from '../state/state-store.ts';
import { writeLibraryIndex } from '../library/index-store.ts';
import { PARTIAL_PREFIX } from '../fs/transfer.ts';
import { makeImmutable, twoFilesystems } from './test-fixtures/filesystems.ts';
import { dataDir } from '../data-dir/data-dir.ts';
import { openDataDir } from '../config/data-stores.ts';
import { runScanPass } from './run-pass.ts';
import { readHistory } from '../history/history-log.ts';
import { undoImport } from './undo-import.ts';

const fx = twoFilesystems('pass');
if (fx.skip) console.warn(fx.skip);
afterAll(() => fx.cleanup());

const log = createLogger({ name: 'test', level: 'silent' });
const OLD = new Date('2024-01-01T00:00:00Z');
const MB = 1024 * 1024;
let n = 0;

interface Setup {
  cfg: Config;
  downloads: string;
  drive: string;
  data: string;
  state: ReturnType<typeof createStateStore<ReturnType<typeof initialState>>>;
}

/** Downloads on tmpfs, the drive and the data folder on the disk: moves between them meet EXDEV. */
function setup(over: { app?: Partial<Config['app']>; downloadsOnDisk?: boolean; transfer?: Config['library']['transfer'] } = {}): Setup {
  const id = ++n;
  const downloads = join(over.downloadsOnDisk ? fx.disk : fx.shm, `downloads${id}`);
  const drive = join(fx.disk, `disk${id}`);
  const data = join(fx.disk, `data${id}`);
  for (const d of [downloads, join(drive, 'Movies'), join(drive, 'TV'), data]) mkdirSync(d, { recursive: true });
  const cfg: Config = {
    ...DEFAULT_CONFIG,
    app: { ...DEFAULT_CONFIG.app, dry_run: false, ...over.app },
    paths: { downloads, data, config: data },
    drives: [{ name: 'disk1', path: drive }],
    library: { ...DEFAULT_CONFIG.library, transfer: over.transfer ?? 'move' },
  };
  const state = createStateStore({ file: join(data, 'state.json'), schema: stateSchema, initial: initialState });
  return { cfg, downloads, drive, data, state };
}

function put(root: string, rel: string, bytes = 60 * MB, mtime = OLD): string {
  const p = join(root, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, Buffer.alloc(bytes, rel.length % 251));
  chmodSync(p, 0o644);
  utimesSync(p, mtime, mtime);
  return p;
}

/** Every entry under the roots with what a change would touch. */
function snapshot(...roots: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      const st = lstatSync(p);
      out[p] = `${st.mode}:${st.size}:${st.mtimeMs}:${st.ino}`;
      if (st.isDirectory()) walk(p);
    }
  };
  roots.forEach(walk);
  return out;
}

const pass = (s: Setup, extra: Partial<Parameters<typeof runScanPass>[0]> = {}) =>
  runScanPass({ config: s.cfg, state: s.state, owner: { uid: null, gid: null }, log, ...extra });

/** A sidecar note as versions before the import record wrote them (nothing writes one now): recovery migrates it. */
function legacySidecarNote(at: Setup, note: { video: { source: string; destination: string }; sidecars: object[] }) {
  const dir = dataDir(at.data).path('legacySidecarJournal');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${Date.now()}-${++n}.json`), JSON.stringify(note));
}

/** What a pass of such a version killed between a video and its sidecar left: the note of the sidecar still to move. */
const noteSidecar = (at: Setup, video: string, srt: string, dir: string) =>
  legacySidecarNote(at, {
    video: { source: video, destination: join(dir, 'Heat (1995).mkv') },
    sidecars: [{ source: srt, destination: join(dir, 'Heat (1995).en.srt'), size: 100, mtime_ms: OLD.getTime() }],
  });

let s: Setup;

describe('a dry-run pass', () => {
  beforeEach(() => {
    s = setup({ app: { dry_run: true } });
  });

  it('records its plans in state and changes nothing on disk', async () => {
    put(s.downloads, 'Heat.1995.1080p/Heat.1995.1080p.mkv');
    put(s.downloads, 'Heat.1995.1080p/Heat.1995.1080p.en.srt', 100);
    put(s.downloads, 'Show.S01E01.mkv.part');
    const before = snapshot(s.downloads, s.drive);
    const result = await pass(s);
    expect(snapshot(s.downloads, s.drive)).toEqual(before);
    expect(scanResultSchema.parse(result)).toEqual(result);
    expect(result).toMatchObject({ dry_run: true, moves: [], skipped: [{ source: join(s.downloads, 'Show.S01E01.mkv.part'), reason: 'partial' }] });
    const dest = join(s.drive, 'Movies/Heat (1995)/Heat (1995)');
    expect(result.plans).toEqual([
      expect.objectContaining({
        source: join(s.downloads, 'Heat.1995.1080p/Heat.1995.1080p.mkv'),
        destination: `${dest}.mkv`,
        sidecars: [{ source: join(s.downloads, 'Heat.1995.1080p/Heat.1995.1080p.en.srt'), destination: `${dest}.en.srt` }],
      }),
    ]);
    const state = await s.state.read();
    expect(state.last_scan_at).toBe(result.started_at);
    expect(state.recent.map((e) => [e.type, e.status, e.destination]).sort()).toEqual([
      ['plan', 'planned', `${dest}.en.srt`],
      ['plan', 'planned', `${dest}.mkv`],
    ]);
  });

  it('does not pile up the same plans pass after pass', async () => {
    put(s.downloads, 'Heat.1995.mkv');
    await pass(s);
    await pass(s);
    expect((await s.state.read()).recent).toHaveLength(1);
  });

  it('leaves a previous pass’s leftovers alone too', async () => {
    const temp = join(s.drive, 'Movies', `${PARTIAL_PREFIX}x`);
    writeFileSync(temp, 'x');
    await openDataDir(s.data).journals().copies().begin({ source: '/x', destination: '/y', temp, size: 1, mtime_ms: 1 });
    await pass(s);
    expect(existsSync(temp)).toBe(true);
  });
});

describe.skipIf(fx.skip !== null)('a pass with dry_run off, across filesystems', () => {
  beforeEach(() => {
    s = setup();
  });

  it('moves each plan with its sidecars, records the moves, and gives every file a plan or a reason', async () => {
    const movie = put(s.downloads, 'Heat.1995.1080p/Heat.1995.1080p.mkv');
    put(s.downloads, 'Heat.1995.1080p/Heat.1995.1080p.en.forced.srt', 100);
    put(s.downloads, 'Heat.1995.1080p/Heat.1995.1080p.nfo', 100);
    put(s.downloads, 'Heat.1995.1080p/Sample/heat.sample.mkv', 5 * MB);
    put(s.downloads, 'Show.S01E01E02.720p.mkv');
    put(s.downloads, 'new.S01E03.mkv', 60 * MB, new Date());
    put(s.downloads, 'notes.txt', 10);
    const result = await pass(s);
    const heat = join(s.drive, 'Movies/Heat (1995)/Heat (1995)');
    const show = join(s.drive, 'TV/Show/Season 01/Show - S01E01-E02.mkv');
    expect(result.moves.map((m) => [m.destination, m.status, m.error])).toEqual([
      [`${heat}.mkv`, 'moved', undefined],
      [show, 'moved', undefined],
    ]);
    expect(Object.fromEntries(result.skipped.map((k) => [k.source.slice(s.downloads.length + 1), k.reason]))).toEqual({
      'Heat.1995.1080p/Sample/heat.sample.mkv': 'sample',
      'new.S01E03.mkv': 'settling',
      'notes.txt': 'unrecognized',
    });
    expect(readdirSync(dirname(`${heat}.mkv`)).sort()).toEqual(['Heat (1995).en.forced.srt', 'Heat (1995).mkv', 'Heat (1995).nfo']);
    expect(statSync(`${heat}.mkv`)).toMatchObject({ size: 60 * MB, mtimeMs: OLD.getTime(), mode: statSync(`${heat}.nfo`).mode });
    expect(existsSync(movie)).toBe(false);
    expect(readdirSync(join(s.downloads, 'Heat.1995.1080p'))).toEqual(['Sample']);
    expect(existsSync(dataDir(s.data).path('legacySidecarJournal'))).toBe(false);

    const state = await s.state.read();
    expect(state.last_scan_at).toBe(result.started_at);
    expect(state.recent.filter((e) => e.type === 'move' && e.status === 'moved')).toHaveLength(4);
    expect(state.recent.every((e) => e.type === 'move')).toBe(true);
  });

  it('a job delivered again moves nothing twice and does not fail', async () => {
    put(s.downloads, 'Heat.1995.mkv');
    const first = await pass(s);
    const again = await pass(s);
    expect(first.moves).toHaveLength(1);
    expect(again).toMatchObject({ plans: [], moves: [], skipped: [] });
  });

  it('two passes at once (two worker boxes) move each file exactly once', async () => {
    for (let i = 1; i <= 6; i++) put(s.downloads, `Show.S01E0${i}.mkv`, 55 * MB);
    const [a, b] = await Promise.all([pass(s), pass(s)]);
    const moved = [...a.moves, ...b.moves];
    expect(moved.map((m) => m.status)).toEqual(Array(6).fill('moved'));
    expect(readdirSync(join(s.drive, 'TV/Show/Season 01'))).toHaveLength(6);
    expect(readdirSync(s.downloads)).toEqual([]);
  });

  it('never overwrites: an existing destination is skipped as "exists" and left as it was', async () => {
    put(s.downloads, 'Heat.1995.mkv');
    const existing = put(s.drive, 'Movies/Heat (1995)/Heat (1995).mkv', 10);
    const result = await pass(s);
    expect(result.skipped).toEqual([
      {
        source: join(s.downloads, 'Heat.1995.mkv'),
        reason: 'exists',
        detail: `the library holds this movie already: ${existing} (quality unknown); this download: quality unknown`,
      },
    ]);
    expect(statSync(existing).size).toBe(10);
    expect(existsSync(join(s.downloads, 'Heat.1995.mkv'))).toBe(true);
  });

  it('skips as "exists" a destination the library holds under another case, with its sidecar', async () => {
    put(s.downloads, 'Breaking.Bad.S01E06.1080p.mkv');
    put(s.downloads, 'Breaking.Bad.S01E06.1080p.en.srt', 10);
    const existing = put(s.drive, 'TV/Breaking Bad/Season 01/breaking bad - S01E06.mkv', 10);
    put(s.drive, 'TV/Breaking Bad/Season 01/breaking bad - S01E06.en.srt', 10);
    const result = await pass(s);
    expect(result.moves).toEqual([]);
    expect(result.skipped.map((k) => [k.source, k.reason]).sort()).toEqual([
      [join(s.downloads, 'Breaking.Bad.S01E06.1080p.en.srt'), 'exists'],
      [join(s.downloads, 'Breaking.Bad.S01E06.1080p.mkv'), 'exists'],
    ]);
    expect(readdirSync(dirname(existing)).sort()).toEqual(['breaking bad - S01E06.en.srt', 'breaking bad - S01E06.mkv']);
  });

  it('puts an episode into the season folder the series already has, as Sonarr spells it (Season 1)', async () => {
    put(s.downloads, 'Severance.S01E02.1080p.mkv');
    put(s.drive, 'TV/Severance/Season 1/Severance - S01E01.mkv', 10);
    const result = await pass(s);
    expect(result.moves.map((m) => [m.status, m.destination])).toEqual([['moved', join(s.drive, 'TV/Severance/Season 1/Severance - S01E02.mkv')]]);
    expect(readdirSync(join(s.drive, 'TV/Severance'))).toEqual(['Season 1']);
  });

  it('skips as "exists" an episode its season folder holds under an older name, and leaves both where they are', async () => {
    put(s.downloads, 'Doctor.Who.2005.S01E02.720p.mkv');
    const older = put(s.drive, 'TV/Doctor Who (2005)/Season 01/Doctor Who - S01E02.mkv', 10);
    const result = await pass(s);
    expect(result.moves).toEqual([]);
    expect(result.skipped).toEqual([
      {
        source: join(s.downloads, 'Doctor.Who.2005.S01E02.720p.mkv'),
        reason: 'exists',
        detail: `the library holds this episode already: ${older} (quality unknown); this download: 720p`,
      },
    ]);
    expect(readdirSync(dirname(older))).toEqual(['Doctor Who - S01E02.mkv']);
  });

  it('a failed move keeps its source, leaves nothing at the destination, and the rest of the pass goes on', async (ctx) => {
    put(s.downloads, 'Alien.1979.mkv');
    put(s.downloads, 'Show.S01E01.mkv');
    // Even root cannot create the movie's folder in an immutable Movies folder.
    if (!makeImmutable(join(s.drive, 'Movies'), true)) ctx.skip('chattr +i is not permitted here');
    let result;
    try {
      result = await pass(s);
    } finally {
      makeImmutable(join(s.drive, 'Movies'), false);
    }
    expect(result.moves.map((m) => [m.title, m.status])).toEqual([
      ['Alien', 'failed'],
      ['Show', 'moved'],
    ]);
    expect(result.moves[0]!.error).toMatch(/EPERM/);
    expect(statSync(join(s.downloads, 'Alien.1979.mkv')).size).toBe(60 * MB);
    expect(readdirSync(join(s.drive, 'Movies'))).toEqual([]);
    const state = await s.state.read();
    expect(state.recent.find((e) => e.source.endsWith('Alien.1979.mkv'))).toMatchObject({
      type: 'move',
      status: 'failed',
      error: expect.stringMatching(/EPERM/),
    });
  });

  it('skips as "exists" a destination blocked by a file where its folder should be', async () => {
    put(s.downloads, 'Alien.1979.mkv');
    writeFileSync(join(s.drive, 'Movies', 'Alien (1979)'), 'in the way');
    expect((await pass(s)).skipped).toEqual([{ source: join(s.downloads, 'Alien.1979.mkv'), reason: 'exists' }]);
  });

  it('settles what an interrupted pass left: its temp file goes, then the file moves', async () => {
    const source = put(s.downloads, 'Heat.1995.mkv');
    const dir = join(s.drive, 'Movies', 'Heat (1995)');
    mkdirSync(dir, { recursive: true });
    const temp = join(dir, `${PARTIAL_PREFIX}0123456789abcdef`);
    writeFileSync(temp, Buffer.alloc(MB));
    await openDataDir(s.data)
      .journals()
      .copies()
      .begin({
        source,
        destination: join(dir, 'Heat (1995).mkv'),
        temp,
        size: 60 * MB,
        mtime_ms: OLD.getTime(),
      });
    const result = await pass(s);
    expect(result.moves.map((m) => m.status)).toEqual(['moved']);
    expect(readdirSync(dir)).toEqual(['Heat (1995).mkv']);
    expect(readdirSync(dataDir(s.data).path('transferJournal'))).toEqual([]);
  });

  it('moves the sidecars an older version’s killed pass left behind after their video (its sidecar note), which nothing else would claim', async () => {
    const folder = 'Heat.1995.1080p';
    const video = join(s.downloads, folder, 'Heat.1995.1080p.mkv');
    const srt = put(s.downloads, `${folder}/Heat.1995.1080p.en.srt`, 100);
    const dir = join(s.drive, 'Movies', 'Heat (1995)');
    // What the killed pass got done: the video is in the library, its note still says what follows it.
    put(dir, 'Heat (1995).mkv');
    const note = {
      video: { source: video, destination: join(dir, 'Heat (1995).mkv') },
      sidecars: [{ source: srt, destination: join(dir, 'Heat (1995).en.srt'), size: 100, mtime_ms: OLD.getTime() }],
    };

    const withoutNote = await pass(s);
    expect(withoutNote.skipped).toEqual([{ source: srt, reason: 'unrecognized', detail: 'no video it belongs to' }]);

    legacySidecarNote(s, note);
    const result = await pass(s);
    expect(result).toMatchObject({ plans: [], moves: [], skipped: [] });
    expect(readdirSync(dir).sort()).toEqual(['Heat (1995).en.srt', 'Heat (1995).mkv']);
    expect(existsSync(srt)).toBe(false);
    expect(existsSync(dataDir(s.data).path('legacySidecarJournal'))).toBe(false);
    expect((await s.state.read()).recent).toContainEqual(
      expect.objectContaining({ type: 'move', source: srt, destination: join(dir, 'Heat (1995).en.srt'), status: 'moved' }),
    );
  });

  it('keeps an older version’s note of a left-behind sidecar it cannot move yet, and moves it on a later pass', async (ctx) => {
    const video = join(s.downloads, 'Heat.1995.1080p', 'Heat.1995.1080p.mkv');
    const srt = put(s.downloads, 'Heat.1995.1080p/Heat.1995.1080p.en.srt', 100);
    const dir = join(s.drive, 'Movies', 'Heat (1995)');
    put(dir, 'Heat (1995).mkv');
    noteSidecar(s, video, srt, dir);
    // Even root cannot add a file to an immutable folder: the move fails with EPERM.
    if (!makeImmutable(dir, true)) ctx.skip('chattr +i is not permitted here');
    try {
      await pass(s);
    } finally {
      makeImmutable(dir, false);
    }
    expect(existsSync(srt)).toBe(true);
    expect(readdirSync(dataDir(s.data).path('legacySidecarJournal'))).toHaveLength(1);
    // Rewritten meanwhile (a subtitle tool fixing its timing): it waits settle_seconds, like any download.
    utimesSync(srt, new Date(), new Date());
    await pass(s);
    expect(existsSync(srt)).toBe(true);
    utimesSync(srt, OLD, OLD);
    await pass(s);
    expect(readdirSync(dir).sort()).toEqual(['Heat (1995).en.srt', 'Heat (1995).mkv']);
    expect(existsSync(dataDir(s.data).path('legacySidecarJournal'))).toBe(false);
  });

  it('records with its video a sidecar it moves for a pass killed between the two, though the copy is a new inode', async () => {
    const video = put(s.downloads, 'Heat.1995.1080p/Heat.1995.1080p.mkv');
    const srt = put(s.downloads, 'Heat.1995.1080p/Heat.1995.1080p.en.srt', 100);
    const dir = join(s.drive, 'Movies', 'Heat (1995)');
    const dest = join(dir, 'Heat (1995).mkv');
    const id = (p: string) => {
      const st = statSync(p);
      return { dev: st.dev, ino: st.ino, size: st.size, mtime_ms: st.mtimeMs };
    };
    // What the killed pass left: the import's record, the video's copy in place (noted by its inode), the sidecar not started.
    const note = await openDataDir(s.data)
      .journals()
      .imports()
      .begin({
        source: video,
        destination: dest,
        from: id(video),
        mode: 'move',
        created_dirs: [dir],
        pass: 'killed',
        sidecars: [{ source: srt, destination: join(dir, 'Heat (1995).en.srt'), from: id(srt) }],
      });
    mkdirSync(dir, { recursive: true });
    copyFileSync(video, dest);
    utimesSync(dest, OLD, OLD);
    await note.made(dest, statSync(dest));
    unlinkSync(video);

    await pass(s);
    const [record, ...more] = await readHistory(s.data);
    expect(more).toEqual([]);
    expect(record).toMatchObject({
      source: video,
      destination: dest,
      method: 'copy',
      sidecars: [{ source: srt, destination: join(dir, 'Heat (1995).en.srt') }],
    });
    expect(existsSync(srt)).toBe(false);
  });

  it('drops the note of a video that never moved: the next plan takes the group whole', async () => {
    const video = put(s.downloads, 'Heat.1995.1080p/Heat.1995.1080p.mkv');
    const srt = put(s.downloads, 'Heat.1995.1080p/Heat.1995.1080p.en.srt', 100);
    const dir = join(s.drive, 'Movies', 'Heat (1995)');
    noteSidecar(s, video, srt, dir);
    const result = await pass(s);
    expect(result.moves.map((m) => [m.status, m.sidecars.length])).toEqual([['moved', 1]]);
    expect(readdirSync(dir).sort()).toEqual(['Heat (1995).en.srt', 'Heat (1995).mkv']);
    expect(existsSync(dataDir(s.data).path('legacySidecarJournal'))).toBe(false);
  });

  it('gives the folders and files it creates to PUID:PGID, keeping each file’s mode', async () => {
    const src = put(s.downloads, 'Show.S02E01.mkv');
    chmodSync(src, 0o600);
    await pass(s, { owner: { uid: 1234, gid: 4321 } });
    const file = join(s.drive, 'TV/Show/Season 02/Show - S02E01.mkv');
    expect(statSync(file)).toMatchObject({ uid: 1234, gid: 4321, mode: statSync(file).mode });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(s.drive, 'TV/Show'))).toMatchObject({ uid: 1234, gid: 4321 });
    expect(statSync(join(s.drive, 'TV')).uid).toBe(process.getuid!());
  });

  it('puts an episode into the folder the index knows, on that drive, under its name', async () => {
    const second = join(fx.disk, `disk${++n}`);
    mkdirSync(join(second, 'TV Shows', 'Doctor Who (2005)', 'Season 01'), { recursive: true });
    s.cfg = { ...s.cfg, drives: [...s.cfg.drives, { name: 'disk2', path: second }] };
    await writeLibraryIndex(s.data, {
      version: 1,
      scanned_at: OLD.toISOString(),
      duration_ms: 1,
      truncated: false,
      timed_out: false,
      skipped: [],
      drives: [],
      items: [
        {
          path: join(second, 'TV Shows/Doctor Who (2005)/Season 01/Doctor Who - S01E01.mkv'),
          drive: 'disk2',
          section: 'tv',
          root: join(second, 'TV Shows'),
          folder: join(second, 'TV Shows/Doctor Who (2005)'),
          bytes: 1,
          mtime_ms: 1,
          ext: '.mkv',
          type: 'video',
          title: 'Doctor Who',
          year: 2005,
          season: 1,
          episodes: [1],
          air_date: null,
          extra: false,
          nfo: null,
        },
      ],
    });
    put(s.downloads, 'Doctor.Who.2005.S01E02.720p.mkv');
    const result = await pass(s);
    expect(result.moves[0]).toMatchObject({
      drive: 'disk2',
      status: 'moved',
      destination: join(second, 'TV Shows/Doctor Who (2005)/Season 01/Doctor Who (2005) - S01E02.mkv'),
    });
  });
});

describe('a pass with dry_run off, on one filesystem', () => {
  it('renames: the library file is the same inode as the download was', async () => {
    s = setup({ downloadsOnDisk: true });
    const src = put(s.downloads, 'Heat.1995.mkv');
    const ino = statSync(src).ino;
    const result = await pass(s);
    expect(result.moves.map((m) => m.status)).toEqual(['moved']);
    expect(statSync(result.moves[0]!.destination).ino).toBe(ino);
  });
});

describe('a download folder swapped for a link while the pass runs', () => {
  it('moves nothing from where the link leads, even a file of the same name, size and mtime', async () => {
    s = setup({ downloadsOnDisk: true });
    put(s.downloads, 'A/Alien.1979.mkv');
    put(s.downloads, 'B/Heat.1995.mkv');
    // Someone else's file, which the one who writes the downloads can see but not touch.
    const elsewhere = join(fx.disk, `elsewhere${n}`);
    const victim = put(elsewhere, 'Heat.1995.mkv');
    const victimIno = statSync(victim).ino;
    const swap = () => {
      if (lstatSync(join(s.downloads, 'B')).isSymbolicLink()) return;
      renameSync(join(s.downloads, 'B'), join(s.downloads, 'B.old'));
      symlinkSync(elsewhere, join(s.downloads, 'B'));
    };
    const result = await pass(s, { progress: swap });
    expect(result.moves.map((m) => [m.source, m.status])).toEqual([
      [join(s.downloads, 'A/Alien.1979.mkv'), 'moved'],
      [join(s.downloads, 'B/Heat.1995.mkv'), 'failed'],
    ]);
    expect(statSync(victim).ino).toBe(victimIno);
    expect(existsSync(join(s.drive, 'Movies/Heat (1995)'))).toBe(false);
  });
});

describe('a drive inside the downloads folder', () => {
  it('is never walked as downloads: its library stays as it is, the download moves', async () => {
    s = setup({ downloadsOnDisk: true });
    const inner = join(s.downloads, 'pool');
    const kept = put(inner, 'Movies/Heat (1995)/Heat (1995).mkv');
    put(inner, 'TV/Show/Season 01/Show - S01E01.mkv');
    s.cfg = { ...s.cfg, drives: [{ name: 'disk1', path: inner }] };
    put(s.downloads, 'Alien.1979.mkv');
    const before = snapshot(join(inner, 'Movies', 'Heat (1995)'), join(inner, 'TV'));
    const result = await pass(s);
    expect(result.skipped).toEqual([]);
    expect(result.moves.map((m) => [m.destination, m.status])).toEqual([[join(inner, 'Movies/Alien (1979)/Alien (1979).mkv'), 'moved']]);
    expect(snapshot(join(inner, 'Movies', 'Heat (1995)'), join(inner, 'TV'))).toEqual(before);
    expect(existsSync(kept)).toBe(true);
  });
});

describe('a downloads folder in a library folder (set in the TOML file, which no settings route checks)', () => {
  it('stops the pass before it walks: the library stays as it is, nothing is recorded', async () => {
    s = setup({ downloadsOnDisk: true });
    put(s.drive, 'TV/Show/Show.S01E01.720p.HDTV.x264-GRP.mkv');
    put(s.drive, 'TV/Heat.1995.1080p.BluRay.x264-GRP.mkv');
    const before = snapshot(s.drive);
    // Through a link, as a bind mount or a link in the config's path would reach it.
    const link = join(s.downloads, 'tv');
    symlinkSync(join(s.drive, 'TV'), link);
    s.cfg = { ...s.cfg, paths: { ...s.cfg.paths, downloads: link } };
    await expect(pass(s)).rejects.toThrow(`the downloads folder ${link} lies in the library folder ${join(s.drive, 'TV')}`);
    expect(snapshot(s.drive)).toEqual(before);
    expect((await s.state.read()).recent).toEqual([]);
  });

  it('also when the downloads folder is a folder inside a library folder, and before it settles what an interrupted pass left', async () => {
    s = setup({ downloadsOnDisk: true });
    const video = put(s.drive, 'Movies/incoming/Heat.1995.1080p.BluRay.x264-GRP.mkv');
    const srt = put(s.drive, 'Movies/incoming/Heat.1995.1080p.BluRay.x264-GRP.en.srt', 100);
    const dir = join(s.drive, 'Movies', 'Heat (1995)');
    put(dir, 'Heat (1995).mkv');
    noteSidecar(s, video, srt, dir);
    const before = snapshot(s.drive);
    s.cfg = { ...s.cfg, paths: { ...s.cfg.paths, downloads: join(s.drive, 'Movies', 'incoming') } };
    await expect(pass(s)).rejects.toThrow(`lies in the library folder ${join(s.drive, 'Movies')}`);
    expect(snapshot(s.drive)).toEqual(before);
    expect(readdirSync(dataDir(s.data).path('legacySidecarJournal'))).toHaveLength(1);
  });
});

describe('a pass records what it moved so far when it is stopped', () => {
  it('saves the moves done before an abort, then fails', async () => {
    s = setup({ downloadsOnDisk: true });
    put(s.downloads, 'Alien.1979.mkv');
    put(s.downloads, 'Heat.1995.mkv');
    const ctl = new AbortController();
    await expect(pass(s, { signal: ctl.signal, progress: () => ctl.abort() })).rejects.toThrow();
    const state = await s.state.read();
    expect(state.recent.map((e) => [e.type, e.status, e.source])).toEqual([['move', 'moved', join(s.downloads, 'Alien.1979.mkv')]]);
    expect(existsSync(join(s.downloads, 'Heat.1995.mkv'))).toBe(true);
  });
});

describe('transfer modes', () => {
  const heat = (s: Setup) => join(s.drive, 'Movies/Heat (1995)/Heat (1995)');

  it('hardlink on one filesystem: the library file is a second link, the download stays, and later passes skip it as imported', async () => {
    s = setup({ downloadsOnDisk: true, transfer: 'hardlink' });
    const src = put(s.downloads, 'Heat.1995/Heat.1995.mkv');
    const srt = put(s.downloads, 'Heat.1995/Heat.1995.en.srt', 100);
    const result = await pass(s);
    expect(result.moves.map((m) => [m.status, m.mode, m.method])).toEqual([['moved', 'hardlink', 'link']]);
    expect(statSync(`${heat(s)}.mkv`).ino).toBe(statSync(src).ino);
    expect(statSync(src).nlink).toBe(2);
    expect(statSync(`${heat(s)}.en.srt`).ino).toBe(statSync(srt).ino);

    const [record] = await readHistory(s.data);
    expect(record).toMatchObject({
      id: 1,
      mode: 'hardlink',
      method: 'link',
      source: src,
      destination: `${heat(s)}.mkv`,
      pass: result.started_at,
      undone_at: null,
    });
    expect(record!.sidecars.map((x) => x.destination)).toEqual([`${heat(s)}.en.srt`]);
    expect(record!.created_dirs).toEqual([join(s.drive, 'Movies/Heat (1995)')]);

    const again = await pass(s);
    expect(again.plans).toEqual([]);
    expect(again.skipped.map((k) => [k.source, k.reason])).toEqual([
      [srt, 'imported'],
      [src, 'imported'],
    ]);
    expect(await readHistory(s.data)).toHaveLength(1);
  });

  it('copy: an equal copy on another inode, the download stays, imported once', async () => {
    s = setup({ downloadsOnDisk: true, transfer: 'copy' });
    const src = put(s.downloads, 'Heat.1995.mkv', 2 * MB);
    s.cfg.library.sample_max_bytes = 0;
    const result = await pass(s);
    expect(result.moves.map((m) => [m.status, m.mode, m.method])).toEqual([['moved', 'copy', 'copy']]);
    expect(readFileSync(`${heat(s)}.mkv`).equals(readFileSync(src))).toBe(true);
    expect(statSync(`${heat(s)}.mkv`).ino).not.toBe(statSync(src).ino);
    expect((await pass(s)).skipped.map((k) => k.reason)).toEqual(['imported']);
    expect(await readHistory(s.data)).toHaveLength(1);
  });

  it('records a link a killed pass made but never recorded, instead of calling it `exists` each pass', async () => {
    s = setup({ downloadsOnDisk: true, transfer: 'hardlink' });
    const src = put(s.downloads, 'Heat.1995.mkv');
    mkdirSync(dirname(`${heat(s)}.mkv`), { recursive: true });
    linkSync(src, `${heat(s)}.mkv`);
    const result = await pass(s);
    expect(result.moves.map((m) => [m.status, m.method])).toEqual([['moved', 'link']]);
    expect(await readHistory(s.data)).toHaveLength(1);
    expect((await pass(s)).skipped.map((k) => k.reason)).toEqual(['imported']);
  });

  it.skipIf(fx.skip !== null)('hardlink across filesystems: a verified copy, said so in the move record', async () => {
    s = setup({ transfer: 'hardlink' });
    const src = put(s.downloads, 'Heat.1995.mkv');
    const result = await pass(s);
    expect(result.moves.map((m) => [m.status, m.mode, m.method])).toEqual([['moved', 'hardlink', 'copy']]);
    expect(readFileSync(`${heat(s)}.mkv`).equals(readFileSync(src))).toBe(true);
    expect(readdirSync(dataDir(s.data).path('transferJournal'))).toEqual([]);
    expect((await readHistory(s.data))[0]).toMatchObject({ mode: 'hardlink', method: 'copy' });
  });

  it('upgrades a held episode: the better release takes its place, the old one and its subtitle go to the recycle bin, one history item, undone whole', async () => {
    s = setup({ downloadsOnDisk: true });
    const season = join(s.drive, 'TV/The Office/Season 1');
    const held = put(s.drive, 'TV/The Office/Season 1/The.Office.S01E02.480p.HDTV.x264.avi', 10);
    const heldSrt = put(s.drive, 'TV/The Office/Season 1/The.Office.S01E02.480p.HDTV.x264.en.srt', 3);
    const src = put(s.downloads, 'The.Office.S01E02.1080p.BluRay.x264-GRP.mkv');
    const worse = put(s.downloads, 'The.Office.S01E03.480p.HDTV.x264.mkv');
    put(s.drive, 'TV/The Office/Season 1/The.Office.S01E03.1080p.BluRay.x264.mkv', 7);
    const result = await pass(s);
    const placed = join(season, 'The Office - S01E02.mkv');
    expect(result.moves).toMatchObject([{ source: src, destination: placed, status: 'moved', replaced: { path: held } }]);
    expect(result.skipped).toMatchObject([{ source: worse, reason: 'exists' }]);
    expect(result.skipped[0]!.detail).toMatch(/1080p BluRay.*480p HDTV/);
    const binned = result.moves[0]!.replaced!.recycled_to;
    expect(binned.startsWith(join(s.drive, '.recycle/'))).toBe(true);
    expect([existsSync(held), existsSync(heldSrt), statSync(binned).size, statSync(placed).size]).toEqual([false, false, 10, 60 * MB]);
    expect(await readHistory(s.data)).toMatchObject([{ id: 1, source: src, replaced: { path: held, recycled_to: binned } }]);
    await undoImport({ data: openDataDir(s.data), downloads: s.downloads, drives: s.cfg.drives, id: 1, dryRun: false });
    expect([existsSync(held), existsSync(heldSrt), existsSync(src), existsSync(placed), existsSync(binned)]).toEqual([true, true, true, false, false]);
  });

  it('move mode records its imports too', async () => {
    s = setup({ downloadsOnDisk: true });
    const src = put(s.downloads, 'Heat.1995.mkv');
    const result = await pass(s);
    expect(result.moves.map((m) => [m.mode, m.method])).toEqual([['move', 'rename']]);
    expect(await readHistory(s.data)).toMatchObject([{ id: 1, mode: 'move', method: 'rename', source: src }]);
  });

  it('records an import a pass killed before it could record it: moved, with its sidecar', async () => {
    s = setup({ downloadsOnDisk: true });
    const src = put(s.downloads, 'Heat.1995/Heat.1995.mkv');
    const srt = put(s.downloads, 'Heat.1995/Heat.1995.en.srt', 100);
    const id = (p: string) => {
      const st = statSync(p);
      return { dev: st.dev, ino: st.ino, size: st.size, mtime_ms: st.mtimeMs };
    };
    const dest = `${heat(s)}.mkv`;
    const killed = { source: src, destination: dest, from: id(src), mode: 'move' as const, created_dirs: [dirname(dest)], pass: 'killed' };
    await openDataDir(s.data)
      .journals()
      .imports()
      .begin({ ...killed, sidecars: [{ source: srt, destination: `${heat(s)}.en.srt`, from: id(srt) }] });
    // A second note, of an import killed before it placed anything: only dropped.
    await openDataDir(s.data)
      .journals()
      .imports()
      .begin({
        ...killed,
        source: join(s.downloads, 'Ronin.1998.mkv'),
        destination: join(s.drive, 'Movies/Ronin (1998)/Ronin (1998).mkv'),
        sidecars: [],
      });
    mkdirSync(dirname(dest), { recursive: true });
    renameSync(src, dest);
    renameSync(srt, `${heat(s)}.en.srt`);

    const result = await pass(s);
    expect(result.moves).toEqual([]);
    expect(await readHistory(s.data)).toMatchObject([
      { id: 1, mode: 'move', method: 'rename', source: src, destination: dest, pass: 'killed', created_dirs: [dirname(dest)], sidecars: [{ source: srt }] },
    ]);
    expect(readdirSync(dataDir(s.data).path('importJournal'))).toEqual([]);
    await pass(s);
    expect(await readHistory(s.data)).toHaveLength(1);
  });

  it('leaves no import note behind after a pass', async () => {
    s = setup({ downloadsOnDisk: true, transfer: 'copy' });
    put(s.downloads, 'Heat.1995.mkv');
    await pass(s);
    expect(readdirSync(dataDir(s.data).path('importJournal'))).toEqual([]);
  });
});

describe('copy mode and a library file of the same size and mtime as a download', () => {
  it('takes it for the owner’s file, not a copy of the download: skipped as "exists", nothing recorded, nothing an undo could remove', async () => {
    s = setup({ downloadsOnDisk: true, transfer: 'copy' });
    s.cfg.library.sample_max_bytes = 0;
    const src = put(s.downloads, 'Heat.1995.mkv', 2 * MB);
    const own = join(s.drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    mkdirSync(dirname(own), { recursive: true });
    writeFileSync(own, Buffer.alloc(2 * MB, 7));
    utimesSync(own, OLD, OLD);
    const result = await pass(s);
    // Before this was refused, the pass recorded an import and its undo deleted the owner's file.
    const undo = await undoImport({ data: openDataDir(s.data), downloads: s.downloads, drives: s.cfg.drives, id: 1, dryRun: false }).then(
      () => 'undone',
      (err: Error) => err.message,
    );
    expect(readFileSync(own).equals(Buffer.alloc(2 * MB, 7))).toBe(true);
    expect(undo).toBe('no import 1 in the history');
    expect(result.moves).toEqual([]);
    expect(result.skipped).toEqual([
      { source: src, reason: 'exists', detail: `the library holds this movie already: ${own} (quality unknown); this download: quality unknown` },
    ]);
    expect(await readHistory(s.data)).toEqual([]);
  });

  it('records a copy a killed pass placed but never recorded, known by the inode its note says it was made on', async () => {
    s = setup({ downloadsOnDisk: true, transfer: 'copy' });
    const src = put(s.downloads, 'Heat.1995.mkv', 2 * MB);
    const dest = join(s.drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    const st = statSync(src);
    const from = { dev: st.dev, ino: st.ino, size: st.size, mtime_ms: st.mtimeMs };
    const ticket = await openDataDir(s.data).journals().imports().begin({
      source: src,
      destination: dest,
      from,
      mode: 'copy',
      sidecars: [],
      created_dirs: [],
      pass: 'killed',
    });
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, readFileSync(src));
    utimesSync(dest, OLD, OLD);
    const copy = statSync(dest);
    await ticket.made(dest, { dev: copy.dev, ino: copy.ino });
    const result = await pass(s);
    expect(await readHistory(s.data)).toMatchObject([{ id: 1, method: 'copy', destination: dest, to: { ino: copy.ino } }]);
    expect(result.skipped.map((k) => k.reason)).toEqual(['imported']);
    await undoImport({ data: openDataDir(s.data), downloads: s.downloads, drives: s.cfg.drives, id: 1, dryRun: false });
    expect(existsSync(dest)).toBe(false);
    expect(existsSync(src)).toBe(true);
  });

  it('a note of a killed import is not recorded on the strength of such a file: only the inode the copy was made on counts', async () => {
    s = setup({ downloadsOnDisk: true, transfer: 'copy' });
    const src = put(s.downloads, 'Heat.1995.mkv', 2 * MB);
    const own = join(s.drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    const st = statSync(src);
    await openDataDir(s.data)
      .journals()
      .imports()
      .begin({
        source: src,
        destination: own,
        from: { dev: st.dev, ino: st.ino, size: st.size, mtime_ms: st.mtimeMs },
        mode: 'copy',
        sidecars: [],
        created_dirs: [],
        pass: 'killed',
      });
    mkdirSync(dirname(own), { recursive: true });
    writeFileSync(own, Buffer.alloc(2 * MB, 7));
    utimesSync(own, OLD, OLD);
    await pass(s);
    expect(await readHistory(s.data)).toEqual([]);
    expect(readFileSync(own).equals(Buffer.alloc(2 * MB, 7))).toBe(true);
  });
});

describe('a library folder that is a symbolic link', () => {
  it.each(['move', 'hardlink', 'copy'] as const)(
    '%s: nothing lands where a movie, series or season folder link leads; each download is skipped as "exists", naming the link',
    async (transfer) => {
      s = setup({ downloadsOnDisk: true, transfer });
      const outside = join(fx.disk, `outside${++n}`);
      mkdirSync(join(outside, 'movie'), { recursive: true });
      mkdirSync(join(outside, 'season'), { recursive: true });
      symlinkSync(join(outside, 'movie'), join(s.drive, 'Movies', 'Outside Film (2005)'));
      mkdirSync(join(s.drive, 'TV', 'Show Name'), { recursive: true });
      symlinkSync(join(outside, 'season'), join(s.drive, 'TV', 'Show Name', 'Season 02'));
      const movie = put(s.downloads, 'Outside.Film.2005.1080p.mkv');
      const episode = put(s.downloads, 'Show.Name.S02E03.720p.mkv');
      const result = await pass(s);
      expect(readdirSync(join(outside, 'movie'))).toEqual([]);
      expect(readdirSync(join(outside, 'season'))).toEqual([]);
      expect(result.moves).toEqual([]);
      expect(result.skipped).toEqual([
        { source: movie, reason: 'exists', detail: expect.stringContaining(join(s.drive, 'Movies', 'Outside Film (2005)')) },
        { source: episode, reason: 'exists', detail: expect.stringContaining(join(s.drive, 'TV', 'Show Name', 'Season 02')) },
      ]);
      expect(result.skipped.every((k) => k.detail!.includes('symbolic link'))).toBe(true);
      expect(existsSync(movie) && existsSync(episode)).toBe(true);
    },
  );
});
