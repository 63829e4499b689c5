import { existsSync, mkdirSync, readdirSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createJobClient, createLogger, createWorkerHost, type JobClient, type WorkerHost } from '@mo/core';
import { runScanPass, scanRunService, writePassFile } from '@mo/core/scanner';
import { NO_OWNERSHIP } from '@mo/core/fs';
import { manualImportPackPreviewResponse, manualImportPreviewResponse, manualImportResponse, pendingImportsResponse } from '@mo/shared';
import { testApp, type TestApp } from '../test-support/app.ts';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';

const logger = createLogger({ name: 't', level: 'silent' });
const OLD = new Date('2025-06-01T10:00:00.000Z');
let t: TestApp;
let jobs: JobClient | undefined;
let host: WorkerHost | undefined;
let prefix: string | undefined;

afterEach(async () => {
  await host?.close();
  await jobs?.close();
  await t?.close();
  if (prefix) await dropPrefix(testRedisUrl(), prefix);
  [host, jobs, prefix] = [undefined, undefined, undefined];
});

/** An install whose library holds two Doctor Who series, with a worker running manual imports when `worker` is set. */
async function install(opts: { dryRun?: boolean; transfer?: 'move' | 'copy'; worker?: boolean } = {}) {
  if (opts.worker) {
    prefix = uniquePrefix('imports');
    jobs = createJobClient({ redisUrl: testRedisUrl(), prefix, logger });
  }
  t = await testApp({
    ...(jobs ? { jobs } : {}),
    toml: `[app]\ndry_run = ${opts.dryRun ?? false}\nsettle_seconds = 0\n\n[library]\nsample_max_bytes = 0\ntransfer = "${opts.transfer ?? 'move'}"\n`,
  });
  if (opts.worker) {
    const config = t.config;
    const scanner = scanRunService({
      config: () => config.current(),
      state: config.state,
      owner: NO_OWNERSHIP,
      data: config.data,
      passes: config.data.passes(),
      identifyCache: config.data.identifyCache(),
      updateSettings: (patch) => config.updateSettings(patch),
      unrecoverable: (message) => new Error(message),
      final: (err) => err,
    });
    host = createWorkerHost({
      redisUrl: testRedisUrl(),
      prefix: prefix!,
      queues: ['scan'],
      logger,
      handlers: {
        'manual-import': (payload, ctx) => scanner.manualImport(payload, ctx),
        'scan-pass': async () => Promise.reject(new Error('no pass job in this test')),
      },
    });
  }
  for (const f of ['Doctor Who (1963)', 'Doctor Who (2005)']) mkdirSync(join(t.install.paths.drive, 'TV', f), { recursive: true });
  return t.install.paths;
}

function put(rel: string, bytes = 100) {
  const p = join(t.install.paths.downloads, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, Buffer.alloc(bytes, rel.length));
  utimesSync(p, OLD, OLD);
  return p;
}

/** A scanner pass as the worker runs it, its result kept as the pass file the pending list reads. */
async function pass(id: string) {
  const result = await runScanPass({ config: t.config.current(), state: t.config.state, owner: NO_OWNERSHIP, log: logger });
  await writePassFile(t.install.paths.data, id, result);
  return result;
}

async function pending() {
  const res = await t.app.request('/api/imports/pending');
  expect(res.status).toBe(200);
  return pendingImportsResponse.strict().parse(await res.json());
}

function importAs(body: unknown, query = '') {
  return t.app.request(`/api/imports/manual${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** Every file under the downloads folder and the drive: what a refused request must leave as it was. */
function tree(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) e.isDirectory() ? walk(join(dir, e.name)) : out.push(join(dir, e.name));
  };
  walk(t.install.paths.downloads);
  walk(t.install.paths.drive);
  return out.sort();
}

const episode = { kind: 'episode', title: 'Doctor Who (2005)', season: 1, episodes: [1] };

describe('GET /api/imports/pending', () => {
  it('lists the videos the last pass could not settle, without their sidecars or orphan subtitles, and drops one gone since', async () => {
    await install({ dryRun: true });
    expect(await pending()).toEqual({ items: [], scanned_at: null });
    const who = put('Doctor.Who.S01E01.720p.HDTV.x264-ORENJI.mkv', 300);
    put('Doctor.Who.S01E01.720p.HDTV.x264-ORENJI.en.srt', 10);
    put('lonely.srt', 10);
    put('Heat.1995.mkv');
    const odd = put('Something.Odd.mkv', 200);
    const p = await pass('1');
    expect(p.skipped.map((s) => s.reason)).toContain('ambiguous');

    const listed = await pending();
    expect(listed.scanned_at).toBe(p.finished_at);
    expect(listed.items.map((i) => [i.path, i.reason, i.bytes])).toEqual([
      [who, 'ambiguous', 300],
      [odd, 'unrecognized', 200],
    ]);
    expect(listed.items[0]!.detail).toMatch(/Doctor Who \(1963\)/);
    expect(listed.items[0]!.candidates.length).toBeGreaterThan(0);
    const hdtv = { resolution: 720, source: 'hdtv', codec: 'x264', proper: false, repack: false, group: 'ORENJI' };
    expect(listed.items[0]!.candidates.map((c) => c.quality)).toEqual(listed.items[0]!.candidates.map(() => hdtv));

    unlinkSync(odd);
    expect((await pending()).items.map((i) => i.path)).toEqual([who]);
  });
});

describe('POST /api/imports/manual', () => {
  it('previews a file with ?dry_run=true into the existing folder the title names, sidecars with it, and changes nothing', async () => {
    const { drive } = await install();
    const who = put('Doctor.Who.S01E01.mkv');
    const srt = put('Doctor.Who.S01E01.en.srt', 10);
    const before = tree();
    const res = await importAs({ path: who, as: episode }, '?dry_run=true');
    expect(res.status).toBe(200);
    const body = manualImportPreviewResponse.parse(await res.json());
    const dir = join(drive, 'TV/Doctor Who (2005)/Season 01');
    expect(body.plan).toMatchObject({ source: who, kind: 'episode', title: 'Doctor Who', year: 2005, season: 1, episodes: [1] });
    expect(body.plan.destination.startsWith(`${dir}/`)).toBe(true);
    expect(body.plan.sidecars).toEqual([{ source: srt, destination: expect.stringMatching(/\.en\.srt$/) }]);
    expect(tree()).toEqual(before);
  });

  it('answers the plan with dry_run on in the config, whatever the query says', async () => {
    await install({ dryRun: true });
    const who = put('Doctor.Who.S01E01.mkv');
    const res = await importAs({ path: who, as: episode }, '?dry_run=false');
    expect(res.status).toBe(200);
    expect((await res.json()).dry_run).toBe(true);
    expect(existsSync(who)).toBe(true);
  });

  it('imports through a job into the existing folder, leaves the pending list, and is undone like any import', async () => {
    const { drive } = await install({ worker: true });
    const who = put('Doctor.Who.S01E01.mkv');
    const srt = put('Doctor.Who.S01E01.en.srt', 10);
    await t.config.updateSettings({ app: { dry_run: true } });
    await pass('1');
    await t.config.updateSettings({ app: { dry_run: false } });
    expect((await pending()).items.map((i) => i.path)).toEqual([who]);

    const res = await importAs({ path: who, as: episode }, '?wait=20');
    expect(res.status).toBe(200);
    const result = manualImportResponse.parse(await res.json());
    expect(result.moves).toMatchObject([{ source: who, status: 'moved', mode: 'move' }]);
    const dest = result.moves[0]!.destination;
    expect(dest.startsWith(join(drive, 'TV/Doctor Who (2005)/Season 01/'))).toBe(true);
    expect(existsSync(dest)).toBe(true);
    expect(existsSync(who) || existsSync(srt)).toBe(false);
    expect(readdirSync(join(drive, 'TV/Doctor Who (2005)/Season 01')).sort()).toHaveLength(2);
    expect((await pending()).items).toEqual([]);

    const history = (await (await t.app.request('/api/history')).json()) as { items: { id: number; source: string }[] };
    expect(history.items.map((i) => i.source)).toEqual([who]);
    const undo = await t.app.request(`/api/history/${history.items[0]!.id}/undo`, { method: 'POST' });
    expect(undo.status).toBe(200);
    expect(existsSync(who) && existsSync(srt)).toBe(true);
    expect(existsSync(dest)).toBe(false);
    // Back in the downloads, it waits for the owner again.
    expect((await pending()).items.map((i) => i.path)).toEqual([who]);
  }, 30_000);

  it("remembers the download's series name once, shown in /api/config, and the next pass files that name alone", async () => {
    const { drive } = await install({ worker: true });
    const first = put('Doctor.Who.S01E01.mkv');
    const res = await importAs({ path: first, as: episode, remember: true }, '?wait=20');
    expect(res.status).toBe(200);
    expect(manualImportResponse.parse(await res.json()).remembered).toEqual([{ name: 'Doctor Who', series: 'Doctor Who (2005)' }]);
    const again = put('Doctor.Who.S01E03.mkv');
    expect((await importAs({ path: again, as: { ...episode, episodes: [3] }, remember: true }, '?wait=20')).status).toBe(200);
    const config = (await (await t.app.request('/api/config')).json()) as { library: { aliases: unknown[] } };
    expect(config.library.aliases).toEqual([{ name: 'Doctor Who', series: 'Doctor Who (2005)' }]);

    const next = put('Doctor.Who.S01E02.mkv');
    const p = await pass('2');
    expect(p.moves).toMatchObject([{ source: next, status: 'moved' }]);
    expect(p.moves[0]!.destination.startsWith(join(drive, 'TV/Doctor Who (2005)/Season 01/'))).toBe(true);
  }, 30_000);

  it('imports a season pack folder, each file by its own episode numbers, leaving behind one whose numbers it cannot read', async () => {
    const { drive } = await install();
    const e1 = put('Who.Pack.S02/Doctor.Who.S02E01.mkv');
    const e2 = put('Who.Pack.S02/Doctor.Who.S02E02.REPACK.1080p.WEB-DL.mkv');
    const odd = put('Who.Pack.S02/Behind the Scenes.mkv');
    const res = await importAs(
      { path: join(t.install.paths.downloads, 'Who.Pack.S02'), as: { kind: 'episode', title: 'Doctor Who (2005)', season: 2 } },
      '?dry_run=true',
    );
    expect(res.status).toBe(200);
    const body = manualImportPackPreviewResponse.parse(await res.json());
    expect(body.plans.map((p) => [p.source, p.episodes, p.quality])).toEqual([
      [e1, [1], { resolution: null, source: null, codec: null, proper: false, repack: false, group: null }],
      [e2, [2], { resolution: 1080, source: 'web-dl', codec: null, proper: false, repack: true, group: null }],
    ]);
    expect(body.plans.every((p) => p.destination.startsWith(join(drive, 'TV/Doctor Who (2005)/Season 02/')))).toBe(true);
    expect(body.skipped).toMatchObject([{ source: odd, reason: 'unrecognized' }]);
  });

  it('leaves behind a pack file whose own name gives another season, and refuses a movie folder of several videos', async () => {
    await install();
    const e1 = put('Who.Pack.S02/Doctor.Who.S02E01.mkv');
    const other = put('Who.Pack.S02/Doctor.Who.S01E05.mkv');
    const res = await importAs(
      { path: join(t.install.paths.downloads, 'Who.Pack.S02'), as: { kind: 'episode', title: 'Doctor Who (2005)', season: 2 } },
      '?dry_run=true',
    );
    const body = manualImportPackPreviewResponse.parse(await res.json());
    expect(body.plans.map((p) => p.source)).toEqual([e1]);
    expect(body.skipped).toMatchObject([{ source: other, reason: 'unrecognized', detail: expect.stringMatching(/season 1, not season 2/) }]);

    put('Heat.1995/Heat.1995.CD1.avi');
    put('Heat.1995/Heat.1995.CD2.avi');
    const before = tree();
    const cds = await importAs({ path: join(t.install.paths.downloads, 'Heat.1995'), as: { kind: 'movie', title: 'Heat', year: 1995 } });
    expect(cds.status).toBe(400);
    expect((await cds.json()).error).toMatchObject({ details: { key: 'path' }, message: expect.stringMatching(/several videos/) });
    expect(tree()).toEqual(before);
  });

  it('answers 409 when the destination exists, and previews a replacement of the held file with replace; moves nothing', async () => {
    const { drive } = await install();
    mkdirSync(join(drive, 'Movies/Heat (1995)'), { recursive: true });
    const held = join(drive, 'Movies/Heat (1995)/Heat (1995).avi');
    writeFileSync(held, 'held');
    writeFileSync(join(drive, 'Movies/Heat (1995)/Heat (1995).en.srt'), 'held');
    const heat = put('heat-final.mkv');
    const before = tree();
    const refused = await importAs({ path: heat, as: { kind: 'movie', title: 'Heat', year: 1995 } });
    expect(refused.status).toBe(409);
    const { error } = await refused.json();
    expect(error.details).toMatchObject({ reason: 'exists', path: heat, detail: expect.stringContaining(held) });
    // The owner's word: whatever the qualities (unknown on both sides here), the held file goes.
    const preview = await importAs({ path: heat, as: { kind: 'movie', title: 'Heat', year: 1995 }, replace: true }, '?dry_run=true');
    expect(preview.status).toBe(200);
    const body = manualImportPreviewResponse.parse(await preview.json());
    expect(body.plan).toMatchObject({
      destination: join(drive, 'Movies/Heat (1995)/Heat (1995).mkv'),
      replaces: { path: held, quality: { resolution: null } },
    });
    expect(tree()).toEqual(before);
    // A pack with one episode held in a file of two: replace is not silently dropped for the others.
    mkdirSync(join(drive, 'TV/Doctor Who (2005)/Season 02'), { recursive: true });
    writeFileSync(join(drive, 'TV/Doctor Who (2005)/Season 02/Doctor Who (2005) - S02E01-E02.mkv'), 'held');
    put('Who.S02/Doctor.Who.S02E01.mkv');
    put('Who.S02/Doctor.Who.S02E03.mkv');
    const packBefore = tree();
    const pack = await importAs({
      path: join(t.install.paths.downloads, 'Who.S02'),
      as: { kind: 'episode', title: 'Doctor Who (2005)', season: 2 },
      replace: true,
    });
    expect(pack.status).toBe(409);
    expect((await pack.json()).error.message).toMatch(/holds episode 2 as well/);
    expect(tree()).toEqual(packBefore);
  });

  it('answers 400 naming as.title when several library folders fit it', async () => {
    await install();
    const who = put('Doctor.Who.S01E01.mkv');
    const res = await importAs({ path: who, as: { ...episode, title: 'Doctor Who' } });
    expect(res.status).toBe(400);
    expect((await res.json()).error.details.key).toBe('as.title');
  });

  it.each([
    ['no path', { as: episode }, 'path'],
    ['an empty path', { path: '', as: episode }, 'path'],
    ['a relative path', { path: 'Doctor.Who.S01E01.mkv', as: episode }, 'path'],
    ['no as', { path: '@who' }, 'as'],
    ['an unknown kind', { path: '@who', as: { ...episode, kind: 'song' } }, 'as.kind'],
    ['season -1', { path: '@who', as: { ...episode, season: -1 } }, 'as.season'],
    ['season as text', { path: '@who', as: { ...episode, season: '1' } }, 'as.season'],
    ['episodes []', { path: '@who', as: { ...episode, episodes: [] } }, 'as.episodes'],
    ['a file without episodes', { path: '@who', as: { kind: 'episode', title: 'Doctor Who (2005)', season: 1 } }, 'as.episodes'],
    ['an empty title', { path: '@who', as: { ...episode, title: '  ' } }, 'as.title'],
    ['a title too long', { path: '@who', as: { ...episode, title: 'x'.repeat(256) } }, 'as.title'],
    ['a movie without its year', { path: '@who', as: { kind: 'movie', title: 'Heat' } }, 'as.year'],
    ['a bad air date', { path: '@who', as: { kind: 'episode', title: 'News', air_date: '2024-02-30' } }, 'as.air_date'],
    ['an extra key', { path: '@who', as: episode, force: true }, 'force'],
    ['an extra key in as', { path: '@who', as: { ...episode, quality: '1080p' } }, 'as.quality'],
    ['remember on a movie', { path: '@who', as: { kind: 'movie', title: 'Heat', year: 1995 }, remember: true }, 'remember'],
    ['replace as text', { path: '@who', as: episode, replace: 'yes' }, 'replace'],
    ['a subtitle', { path: '@srt', as: episode }, 'path'],
    ['a title of dots alone', { path: '@who', as: { ...episode, title: '..' } }, 'as.title'],
    ['a title with a right-to-left override', { path: '@who', as: { ...episode, title: 'Doctor\u202eWho' } }, 'as.title'],
  ])('refuses %s with a 400 naming the key, and moves nothing', async (_what, body, key) => {
    await install();
    const who = put('Doctor.Who.S01E01.mkv');
    const srt = put('Doctor.Who.S01E01.en.srt', 10);
    const before = tree();
    const sent = JSON.parse(JSON.stringify(body).replaceAll('"@who"', JSON.stringify(who)).replaceAll('"@srt"', JSON.stringify(srt)));
    const res = await importAs(sent);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: 'bad_request', details: { key } });
    expect(tree()).toEqual(before);
  });

  it('refuses a body that is not JSON with a 400', async () => {
    await install();
    const res = await t.app.request('/api/imports/manual', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"path": ' });
    expect(res.status).toBe(400);
  });

  it('answers 403 for a path outside the downloads folder by .. or by a symlink, and 404 for one that is not there', async () => {
    const { downloads, drive } = await install();
    mkdirSync(join(drive, 'TV/Doctor Who (2005)/Season 01'), { recursive: true });
    const held = join(drive, 'TV/Doctor Who (2005)/Season 01/Doctor Who (2005) - S01E01.mkv');
    writeFileSync(held, 'library file');
    symlinkSync(join(drive, 'TV/Doctor Who (2005)'), join(downloads, 'sneaky'));
    symlinkSync(held, join(downloads, 'Sneaky.S01E01.mkv'));
    const before = tree();
    for (const path of [
      join(downloads, '..', 'media/disk1/TV/Doctor Who (2005)/Season 01/Doctor Who (2005) - S01E01.mkv'),
      join(downloads, 'sneaky'),
      join(downloads, 'Sneaky.S01E01.mkv'),
      '/etc/passwd',
    ]) {
      const res = await importAs({ path, as: episode });
      expect([path, res.status]).toEqual([path, 403]);
    }
    expect((await importAs({ path: join(downloads, 'Not.There.S01E01.mkv'), as: episode })).status).toBe(404);
    expect(tree()).toEqual(before);
  });
});

describe('POST /api/imports/aliases/remove', () => {
  const remove = (body: unknown) =>
    t.app.request('/api/imports/aliases/remove', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('removes the one alias under the settings lock, keeping the others; 404 for none such, 400 for a bad body', async () => {
    await install();
    const keep = { name: 'Sousou no Frieren', series: 'Frieren (2023)' };
    const gone = { name: 'Dr Who', series: 'Doctor Who (2005)' };
    await t.config.updateSettings({ library: { aliases: [gone, keep] } });
    const res = await remove({ name: 'dr who', series: 'Doctor Who (2005)' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ aliases: [keep] });
    expect(t.config.current().library.aliases).toEqual([keep]);
    expect((await remove(gone)).status).toBe(404);
    const bad = await remove({ name: 'Dr Who' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.details.key).toBe('series');
    expect(t.config.current().library.aliases).toEqual([keep]);
  });
});
