import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createJobClient, createLogger, createStateStore, type JobClient } from '@mo/core';
import { recordNotice } from '@mo/core/history';
import { runUpgradeJob } from '@mo/core/test-fixtures';
import { NO_OWNERSHIP } from '@mo/core/fs';
import { runScanPass } from '@mo/core/scanner';
import { historyResponse, initialState, stateSchema, undoResponse } from '@mo/shared';
import { testApp, type TestApp } from '../test-support/app.ts';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';

// Lets a test act just before the undo removes a library file, with the real fs otherwise.
const beforeUnlink = vi.hoisted(() => ({ run: null as null | ((path: string) => void) }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    unlink: async (path: Parameters<typeof actual.unlink>[0]) => {
      beforeUnlink.run?.(String(path));
      return actual.unlink(path);
    },
  };
});
afterEach(() => {
  beforeUnlink.run = null;
});

let t: TestApp;
let jobs: JobClient | undefined;
let prefix: string | undefined;
afterEach(async () => {
  await t?.close();
  await jobs?.close();
  if (prefix) await dropPrefix(testRedisUrl(), prefix);
  [jobs, prefix] = [undefined, undefined];
});

const OLD = new Date('2025-06-01T10:00:00.000Z');

function put(rel: string, bytes = 100) {
  const p = join(t.install.paths.downloads, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, Buffer.alloc(bytes, rel.length));
  utimesSync(p, OLD, OLD);
  return p;
}

/** An install with one drive and dry_run off, importing in `transfer` mode. */
async function install(transfer: 'move' | 'hardlink' | 'copy', opts: { jobs?: JobClient } = {}) {
  t = await testApp({ ...opts, toml: `[app]\ndry_run = false\n\n[library]\nsample_max_bytes = 0\ntransfer = "${transfer}"\n` });
  const drive = join(t.install.root, 'disk1');
  mkdirSync(join(drive, 'Movies'), { recursive: true });
  mkdirSync(join(drive, 'TV'), { recursive: true });
  await t.config.updateSettings({ drives: [{ name: 'disk1', path: drive }] });
  return drive;
}

/** A scanner pass as the worker runs it. */
async function pass() {
  const state = createStateStore({ file: join(t.install.paths.data, 'state.json'), schema: stateSchema, initial: initialState });
  return runScanPass({ config: t.config.current(), state, owner: NO_OWNERSHIP, log: createLogger({ name: 't', level: 'silent' }) });
}

async function history(query = '') {
  const res = await t.app.request(`/api/history${query}`);
  expect(res.status).toBe(200);
  return historyResponse.strict().parse(await res.json());
}

describe('GET /api/history', () => {
  it('lists each import newest first, page by page, filtered by source or destination', async () => {
    const drive = await install('copy');
    expect(await history()).toEqual({ items: [], next: null });
    const heat = put('Heat.1995/Heat.1995.mkv');
    const srt = put('Heat.1995/Heat.1995.en.srt', 10);
    const passA = await pass();
    const alien = put('Alien.1979.mkv');
    const ronin = put('Ronin.1998.mkv');
    await pass();

    const all = await history();
    expect(all.items.map((i) => [i.id, i.source])).toEqual([
      [3, ronin],
      [2, alien],
      [1, heat],
    ]);
    expect(all.next).toBeNull();
    expect(all.items[2]).toEqual({
      id: 1,
      at: expect.any(String),
      mode: 'copy',
      method: 'copy',
      source: heat,
      destination: join(drive, 'Movies/Heat (1995)/Heat (1995).mkv'),
      bytes: 110,
      sidecars: [{ source: srt, destination: join(drive, 'Movies/Heat (1995)/Heat (1995).en.srt') }],
      pass: passA.started_at,
      undone_at: null,
      notified: null,
      replaced: null,
    });

    const first = await history('?limit=2');
    expect([first.items.map((i) => i.id), first.next]).toEqual([[3, 2], 2]);
    const second = await history(`?limit=2&before=${first.next}`);
    expect([second.items.map((i) => i.id), second.next]).toEqual([[1], null]);

    expect((await history(`?source=${encodeURIComponent(srt)}`)).items.map((i) => i.id)).toEqual([1]);
    expect((await history(`?destination=${encodeURIComponent(join(drive, 'Movies/Alien (1979)/Alien (1979).mkv'))}`)).items.map((i) => i.id)).toEqual([2]);
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=501', 'limit'],
    ['?before=0', 'before'],
    ['?before=abc', 'before'],
    ['?source=relative.mkv', 'source'],
    ['?destination=x', 'destination'],
  ])('refuses %s with a 400 naming %s', async (query, key) => {
    await install('move');
    const res = await t.app.request(`/api/history${query}`);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: 'bad_request', details: { key } });
  });
});

async function undo(id: number | string) {
  return t.app.request(`/api/history/${id}/undo`, { method: 'POST' });
}

async function undone(id: number) {
  const res = await undo(id);
  expect(res.status).toBe(200);
  return undoResponse.strict().parse(await res.json());
}

/** Every entry under the roots with what a change would touch. */
function snapshot(...roots: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      const st = statSync(p);
      out[p] = `${st.size}:${st.mtimeMs}:${st.ino}:${st.nlink}`;
      if (st.isDirectory()) walk(p);
    }
  };
  roots.forEach(walk);
  return out;
}

describe('POST /api/history/:id/undo', () => {
  it('move: puts the video and its sidecar back, removes the folder the import made, and records the undo', async () => {
    const drive = await install('move');
    const heat = put('Heat.1995/Heat.1995.mkv');
    const srt = put('Heat.1995/Heat.1995.en.srt', 10);
    await pass();
    const lib = join(drive, 'Movies/Heat (1995)');
    expect(existsSync(heat)).toBe(false);
    expect(await undone(1)).toEqual({
      dry_run: false,
      id: 1,
      restored: [
        { from: join(lib, 'Heat (1995).mkv'), to: heat, action: 'moved_back' },
        { from: join(lib, 'Heat (1995).en.srt'), to: srt, action: 'moved_back' },
      ],
      from_recycle_bin: [],
    });
    expect(readFileSync(heat).length).toBe(100);
    expect(readFileSync(srt).length).toBe(10);
    expect(existsSync(lib)).toBe(false);
    expect(existsSync(join(drive, 'Movies'))).toBe(true);
    expect((await history()).items[0]!.undone_at).toEqual(expect.any(String));
    const again = await undo(1);
    expect(again.status).toBe(409);
    expect((await again.json()).error.details).toMatchObject({ reason: 'undone' });
  });

  it.runIf(process.getuid?.() === 0)('move: the download folder made again belongs to PUID:PGID', async () => {
    t = await testApp({ owner: { uid: 4321, gid: 4322 }, toml: '[app]\ndry_run = false\n\n[library]\nsample_max_bytes = 0\n' });
    const drive = join(t.install.root, 'disk1');
    mkdirSync(join(drive, 'Movies'), { recursive: true });
    await t.config.updateSettings({ drives: [{ name: 'disk1', path: drive }] });
    const heat = put('Heat.1995/Heat.1995.mkv');
    await pass();
    // The download's folder, emptied by the move, tidied away by hand.
    rmdirSync(join(heat, '..'));
    await undone(1);
    expect(statSync(join(heat, '..'))).toMatchObject({ uid: 4321, gid: 4322 });
  });

  it.each(['move', 'hardlink'] as const)('%s: the next pass leaves the undone file alone, until it is renamed', async (mode) => {
    const drive = await install(mode);
    const heat = put('Heat.1995.mkv');
    await pass();
    await undone(1);
    const again = await pass();
    expect(again.moves).toEqual([]);
    expect(again.skipped).toEqual([expect.objectContaining({ source: heat, reason: 'undone' })]);
    expect(existsSync(join(drive, 'Movies/Heat (1995)'))).toBe(false);
    renameSync(heat, join(t.install.paths.downloads, 'Heat.1995.1080p.mkv'));
    expect((await pass()).moves).toEqual([expect.objectContaining({ status: 'moved' })]);
  });

  it('completes an undo a kill cut short: a file already back counts as done', async () => {
    const drive = await install('move');
    const heat = put('Heat.1995/Heat.1995.mkv');
    const srt = put('Heat.1995/Heat.1995.en.srt', 10);
    await pass();
    const lib = join(drive, 'Movies/Heat (1995)');
    mkdirSync(join(srt, '..'), { recursive: true });
    renameSync(join(lib, 'Heat (1995).en.srt'), srt);
    expect((await undone(1)).restored).toEqual([{ from: join(lib, 'Heat (1995).mkv'), to: heat, action: 'moved_back' }]);
    expect(existsSync(heat) && existsSync(srt)).toBe(true);
    expect(existsSync(lib)).toBe(false);
  });

  it('hardlink: removes the link, the download stays whole; a folder that holds other files stays', async () => {
    const drive = await install('hardlink');
    const existing = join(drive, 'Movies/Heat (1995)/Heat (1995).nfo');
    mkdirSync(join(existing, '..'), { recursive: true });
    writeFileSync(existing, 'kept');
    const heat = put('Heat.1995.mkv');
    await pass();
    const dest = join(drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    expect(statSync(heat).nlink).toBe(2);
    expect((await undone(1)).restored).toEqual([{ from: dest, to: heat, action: 'removed' }]);
    expect(existsSync(dest)).toBe(false);
    expect(statSync(heat).nlink).toBe(1);
    expect(readFileSync(existing, 'utf8')).toBe('kept');
  });

  it('hardlink: removes the file it checked, though its folder becomes a link to another folder just before', async () => {
    const drive = await install('hardlink');
    const heat = put('Heat.1995.mkv');
    await pass();
    const folder = join(drive, 'Movies/Heat (1995)');
    // Another drive's file of the same name, which whoever may write the library folders points at.
    const other = join(t.install.root, 'disk2/Movies/Heat (1995)/Heat (1995).mkv');
    mkdirSync(join(other, '..'), { recursive: true });
    writeFileSync(other, 'another film');
    beforeUnlink.run = (path) => {
      if (!path.endsWith('Heat (1995).mkv')) return;
      beforeUnlink.run = null;
      renameSync(folder, `${folder}.real`);
      symlinkSync(join(other, '..'), folder);
    };
    await undo(1);
    expect(readFileSync(other, 'utf8')).toBe('another film');
    expect(statSync(heat).nlink).toBe(1);
  });

  it('copy: removes the copy, the download stays', async () => {
    const drive = await install('copy');
    const heat = put('Heat.1995.mkv');
    await pass();
    expect((await undone(1)).restored.map((r) => r.action)).toEqual(['removed']);
    expect(existsSync(join(drive, 'Movies/Heat (1995)'))).toBe(false);
    expect(readFileSync(heat).length).toBe(100);
  });

  it('dry_run on: says what it would do and changes nothing, not even the history', async () => {
    const drive = await install('move');
    put('Heat.1995.mkv');
    await pass();
    await t.config.updateSettings({ app: { dry_run: true } });
    const before = snapshot(drive, t.install.paths.downloads, t.install.paths.data);
    const answer = await undone(1);
    expect(answer).toMatchObject({ dry_run: true, id: 1, restored: [{ action: 'moved_back' }] });
    expect(snapshot(drive, t.install.paths.downloads, t.install.paths.data)).toEqual(before);
    expect((await history()).items[0]!.undone_at).toBeNull();
  });

  it.each([
    ['the library file was rewritten (size)', (dest: string) => writeFileSync(dest, 'other'), 'destination_changed'],
    ['the library file was touched (mtime)', (dest: string) => utimesSync(dest, new Date(), new Date()), 'destination_changed'],
    [
      'the library file was replaced by an equal copy (identity)',
      (dest: string) => {
        writeFileSync(`${dest}.new`, readFileSync(dest));
        utimesSync(`${dest}.new`, OLD, OLD);
        renameSync(`${dest}.new`, dest);
      },
      'destination_changed',
    ],
    ['the download path is taken', (_dest: string, source: string) => writeFileSync(source, 'a new download'), 'source_taken'],
  ])('409 when %s, changing nothing', async (_name, change, reason) => {
    const drive = await install('move');
    const source = put('Heat.1995.mkv');
    await pass();
    change(join(drive, 'Movies/Heat (1995)/Heat (1995).mkv'), source);
    const before = snapshot(drive, t.install.paths.downloads, t.install.paths.data);
    const res = await undo(1);
    expect(res.status).toBe(409);
    expect((await res.json()).error).toMatchObject({ code: 'conflict', details: { reason } });
    expect(snapshot(drive, t.install.paths.downloads, t.install.paths.data)).toEqual(before);
  });

  it("409 when the download's folder is now a link that leads outside the downloads folder, changing nothing", async () => {
    const drive = await install('move');
    const source = put('Heat.1995/Heat.1995.mkv');
    put('Heat.1995/Heat.1995.en.srt', 10);
    await pass();
    const outside = join(t.install.root, 'outside');
    mkdirSync(outside);
    rmdirSync(join(source, '..'));
    symlinkSync(outside, join(source, '..'));
    const before = snapshot(drive, t.install.paths.downloads, t.install.paths.data, outside);
    const res = await undo(1);
    expect(res.status).toBe(409);
    expect((await res.json()).error).toMatchObject({ code: 'conflict', details: { reason: 'source_taken', path: source } });
    expect(snapshot(drive, t.install.paths.downloads, t.install.paths.data, outside)).toEqual(before);
    expect(readdirSync(outside)).toEqual([]);
  });

  it("409 naming the link when the download's folder is now a link, even one to another folder of the downloads: nothing moves through a link", async () => {
    const drive = await install('move');
    const source = put('Heat.1995/Heat.1995.mkv');
    await pass();
    const elsewhere = join(t.install.paths.downloads, 'elsewhere');
    mkdirSync(elsewhere);
    rmdirSync(join(source, '..'));
    symlinkSync(elsewhere, join(source, '..'));
    const before = snapshot(drive, t.install.paths.downloads, t.install.paths.data);
    const res = await undo(1);
    expect(res.status).toBe(409);
    const { error } = await res.json();
    expect(error).toMatchObject({ code: 'conflict', details: { reason: 'source_taken', path: source } });
    expect(error.message).toContain(`${join(source, '..')}, on the way to ${source}, is a symbolic link`);
    expect(snapshot(drive, t.install.paths.downloads, t.install.paths.data)).toEqual(before);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('409 for a link whose download was deleted: the library file is the last copy', async () => {
    const drive = await install('hardlink');
    const source = put('Heat.1995.mkv');
    await pass();
    unlinkSync(source);
    const res = await undo(1);
    expect(res.status).toBe(409);
    expect((await res.json()).error.details).toMatchObject({ reason: 'download_changed' });
    expect(readFileSync(join(drive, 'Movies/Heat (1995)/Heat (1995).mkv')).length).toBe(100);
  });

  it('an upgrade: the new files back in the downloads, the replaced ones out of the recycle bin; 409 once a bin item is gone, changing nothing', async () => {
    const drive = await install('move');
    const lib = join(drive, 'Movies/Heat (1995)');
    mkdirSync(lib, { recursive: true });
    writeFileSync(join(lib, 'Heat (1995).mkv'), 'old 480p');
    writeFileSync(join(lib, 'Heat (1995).en.srt'), 'old subs');
    const held = { video: join(lib, 'Heat (1995).mkv'), srt: join(lib, 'Heat (1995).en.srt') };
    const dl = { video: put('Heat.1995.1080p.mkv', 50), srt: put('Heat.1995.1080p.en.srt', 5) };
    const world = { data: t.install.paths.data, downloads: t.install.paths.downloads, drive, mode: 'move' as const, held, dl };
    await runUpgradeJob({ ...world, job: 'import' });
    const [item] = (await history()).items;
    expect(item!.replaced).toMatchObject({ path: held.video, sidecars: [{ path: held.srt }] });

    // A bin item gone (moved away): refused whole.
    const binSrt = item!.replaced!.sidecars[0]!.recycled_to;
    renameSync(binSrt, `${binSrt}.away`);
    const before = snapshot(drive, t.install.paths.downloads);
    const res = await undo(item!.id);
    expect(res.status).toBe(409);
    expect((await res.json()).error.details).toMatchObject({ reason: 'recycled_changed', path: binSrt });
    expect(snapshot(drive, t.install.paths.downloads)).toEqual(before);

    // Back as it went in: the undo goes through.
    renameSync(`${binSrt}.away`, binSrt);
    const done = await undone(item!.id);
    expect(done.restored.map((r) => r.to)).toEqual([dl.video, dl.srt]);
    expect(done.from_recycle_bin).toEqual(
      expect.arrayContaining([
        { from: item!.replaced!.recycled_to, to: held.video },
        { from: binSrt, to: held.srt },
      ]),
    );
    expect([readFileSync(held.video, 'utf8'), readFileSync(held.srt, 'utf8'), readFileSync(dl.video).length]).toEqual(['old 480p', 'old subs', 50]);
  });

  it('404 for an unknown id, 400 for one that is not a number', async () => {
    await install('move');
    expect((await undo(5)).status).toBe(404);
    const bad = await undo('abc');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.details).toMatchObject({ key: 'id' });
  });
});

describe("the undo's notice to the media servers", () => {
  /** An install whose job client is real Redis under a fresh prefix, with one webhook target enabled. */
  async function withQueue() {
    prefix = uniquePrefix('undo-notify');
    jobs = createJobClient({ redisUrl: testRedisUrl(), prefix, logger: createLogger({ name: 't', level: 'silent' }) });
    const drive = await install('move', { jobs });
    await t.config.updateSettings({ notifications: { targets: [{ name: 'hook', kind: 'webhook', url: 'http://127.0.0.1:9/hook', enabled: true }] } });
    return drive;
  }
  const notices = async () => {
    const queue = jobs!.queues().find((q) => q.name === 'notify')!;
    return (await queue.getJobs(['waiting', 'delayed', 'active'])).map((j) => ({ data: j.data, attempts: j.opts.attempts }));
  };

  it("a real undo queues one notify job naming the removed library files, with the pass's retries", async () => {
    const drive = await withQueue();
    const heat = put('Heat.1995/Heat.1995.mkv');
    const srt = put('Heat.1995/Heat.1995.en.srt', 10);
    const { started_at } = await pass();
    await undone(1);
    const lib = join(drive, 'Movies/Heat (1995)');
    expect(await notices()).toEqual([
      {
        data: {
          pass: started_at,
          undone: 1,
          imports: [
            { source: heat, destination: join(lib, 'Heat (1995).mkv') },
            { source: srt, destination: join(lib, 'Heat (1995).en.srt') },
          ],
        },
        attempts: 5,
      },
    ]);
  });

  it('dry_run on, or no target enabled: no notice', async () => {
    await withQueue();
    put('Heat.1995.mkv');
    put('Ronin.1998.mkv');
    await pass();
    await t.config.updateSettings({ app: { dry_run: true } });
    await undone(1);
    expect(await notices()).toEqual([]);
    await t.config.updateSettings({
      app: { dry_run: false },
      notifications: { targets: [{ name: 'hook', kind: 'webhook', url: 'http://127.0.0.1:9/hook', enabled: false }] },
    });
    await undone(2);
    expect(await notices()).toEqual([]);
  });

  it('a queue that cannot be reached does not fail the undo', async () => {
    await install('move', { jobs: { submit: () => new Promise(() => {}) } as unknown as JobClient });
    await t.config.updateSettings({ notifications: { targets: [{ name: 'hook', kind: 'webhook', url: 'http://127.0.0.1:9/hook', enabled: true }] } });
    const heat = put('Heat.1995.mkv');
    await pass();
    expect(await undone(1)).toMatchObject({ dry_run: false, id: 1 });
    expect(existsSync(heat)).toBe(true);
  }, 15_000);

  it('GET /api/history shows what the targets were told, for each import of the pass', async () => {
    await install('copy');
    const heat = put('Heat.1995.mkv');
    const ronin = put('Ronin.1998.mkv');
    const { started_at, moves } = await pass();
    const imports = moves.map((m) => ({ source: m.source, destination: m.destination }));
    expect(
      await recordNotice(t.install.paths.data, { pass: '4', imports }, { at: '2026-01-01T00:00:00.000Z', told: ['jf'], failed: { plex: 'answered HTTP 401' } }),
    ).toBe(2);
    const items = (await history()).items;
    expect(items.map((i) => [i.source, i.pass, i.notified])).toEqual([
      [ronin, started_at, { event: 'imported', at: '2026-01-01T00:00:00.000Z', told: ['jf'], failed: { plex: 'answered HTTP 401' } }],
      [heat, started_at, { event: 'imported', at: '2026-01-01T00:00:00.000Z', told: ['jf'], failed: { plex: 'answered HTTP 401' } }],
    ]);
  });
});
