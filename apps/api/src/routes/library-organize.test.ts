import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createJobClient, createLogger, createWorkerHost, libraryScanOptions, scanLibrary, writeLibraryIndex, type JobClient, type WorkerHost } from '@mo/core';
import { applyOrganize } from '@mo/core/scanner';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { testApp, type TestApp } from '../test-support/app.ts';

const logger = createLogger({ name: 't', level: 'silent' });
let t: TestApp;
afterEach(async () => t?.close());

async function put(rel: string) {
  const p = join(t.install.paths.drive, rel);
  await mkdir(join(p, '..'), { recursive: true });
  await writeFile(p, Buffer.alloc(10));
}

/** What the worker does after a library scan: write the index where the API's cache looks. */
async function indexNow() {
  const cfg = t.config.current();
  await writeLibraryIndex(cfg.paths.data, await scanLibrary(libraryScanOptions(cfg)));
  await t.library.refresh();
}

describe('GET /api/library/organize', () => {
  it('proposes nothing before the first library scan', async () => {
    t = await testApp();
    const res = await t.app.request('/api/library/organize');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ scanned_at: null, renames: [] });
  });

  it('lists the renames the templates give for what a library scan read, and renames nothing', async () => {
    t = await testApp();
    await put('TV/The Office/Season 1/the.office.s01e02.mkv');
    await put('TV/The Office/Season 1/the.office.s01e02.en.srt');
    await put('Movies/Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.x264-GRP.mkv');
    await put('Movies/Alien (1979)/Alien (1979).mkv');
    await indexNow();
    const drive = t.install.paths.drive;
    const res = await t.app.request('/api/library/organize');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { scanned_at: string; renames: { from: string; to: string; kind: string; reason: string }[] };
    expect(body.scanned_at).toBe(t.library.header()!.scanned_at);
    expect(body.renames.map((r) => [r.from, r.to, r.kind])).toEqual([
      [`${drive}/Movies/Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.x264-GRP.mkv`, `${drive}/Movies/Heat.1995.1080p.BluRay/Heat (1995).mkv`, 'movie'],
      [`${drive}/Movies/Heat.1995.1080p.BluRay`, `${drive}/Movies/Heat (1995)`, 'folder'],
      [`${drive}/TV/The Office/Season 1/the.office.s01e02.mkv`, `${drive}/TV/The Office/Season 1/The Office - S01E02.mkv`, 'episode'],
      [`${drive}/TV/The Office/Season 1/the.office.s01e02.en.srt`, `${drive}/TV/The Office/Season 1/The Office - S01E02.en.srt`, 'episode'],
    ]);
    for (const r of body.renames) expect(r.reason).not.toBe('');
    expect(await readdir(join(drive, 'Movies'))).toEqual(['Alien (1979)', 'Heat.1995.1080p.BluRay']);
  });

  it('follows the templates as they are now', async () => {
    t = await testApp();
    await put('Movies/Heat (1995)/Heat (1995).mkv');
    await indexNow();
    expect(((await (await t.app.request('/api/library/organize')).json()) as { renames: unknown[] }).renames).toEqual([]);
    const res = await t.app.request('/api/settings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ library: { movie_template: '{title} ({year})/{title}{ext}' } }),
    });
    expect(res.status).toBe(200);
    const renames = ((await (await t.app.request('/api/library/organize')).json()) as { renames: { to: string }[] }).renames;
    expect(renames.map((r) => r.to)).toEqual([`${t.install.paths.drive}/Movies/Heat (1995)/Heat.mkv`]);
  });
});

describe('POST /api/library/organize', () => {
  const post = (body: unknown) =>
    t.app.request('/api/library/organize', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  async function library() {
    t = await testApp({ toml: '[app]\ndry_run = true\n' });
    await put('TV/Lost/Season 1/lost.s01e01.mkv');
    await put('TV/Lost/Season 1/lost.s01e02.mkv');
    await indexNow();
    return join(t.install.paths.drive, 'TV/Lost/Season 1');
  }

  it('with dry run on previews all the renames, or those named, and renames nothing', async () => {
    const season = await library();
    const all = await post({});
    expect(all.status).toBe(200);
    expect(((await all.json()) as { renames: { from: string }[] }).renames.map((r) => r.from)).toEqual([
      `${season}/lost.s01e01.mkv`,
      `${season}/lost.s01e02.mkv`,
    ]);
    const some = await post({ paths: [`${season}/lost.s01e02.mkv`] });
    expect(some.status).toBe(200);
    expect(await some.json()).toEqual({
      dry_run: true,
      renames: [
        {
          from: `${season}/lost.s01e02.mkv`,
          to: `${season}/Lost - S01E02.mkv`,
          kind: 'episode',
          reason: 'the file name is not what the episode template gives for Lost S01E02',
        },
      ],
    });
    expect(await readdir(season)).toEqual(['lost.s01e01.mkv', 'lost.s01e02.mkv']);
  });

  it('with dry run on, naming a sidecar previews its whole group, as the job would carry it out', async () => {
    const season = await library();
    await put('TV/Lost/Season 1/lost.s01e01.en.srt');
    await indexNow();
    const res = await post({ paths: [`${season}/lost.s01e01.en.srt`] });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { renames: { from: string }[] }).renames.map((r) => r.from)).toEqual([
      `${season}/lost.s01e01.mkv`,
      `${season}/lost.s01e01.en.srt`,
    ]);
  });

  it('refuses a path that is no proposed rename, with a sentence naming it', async () => {
    const season = await library();
    const drive = t.install.paths.drive;
    for (const [path, why] of [
      [`${season}/Lost - S01E01.mkv`, 'is no rename GET /api/library/organize lists'],
      [`${season}/../Season 1/lost.s01e01.mkv`, 'must not hold "." or ".." folders'],
      ['/etc/passwd', 'lies outside the library folders'],
      [`${drive}/Downloads/lost.s01e01.mkv`, 'lies outside the library folders'],
      ['lost.s01e01.mkv', 'is not an absolute path'],
    ]) {
      const res = await post({ paths: [`${season}/lost.s01e01.mkv`, path] });
      expect(res.status, path).toBe(400);
      const err = ((await res.json()) as { error: { message: string; details: { key: string } } }).error;
      expect(err.message).toBe(`paths.1: ${path} ${why}`);
      expect(err.details.key).toBe('paths.1');
    }
    for (const bad of [{ paths: 'x' }, { paths: [''] }, { paths: [] }, { other: 1 }]) expect((await post(bad)).status).toBe(400);
    expect(await readdir(season)).toEqual(['lost.s01e01.mkv', 'lost.s01e02.mkv']);
  });

  it('takes a body of many thousand paths from the owner (past the 1 MiB of other routes), never from a stranger', async () => {
    const season = await library();
    const many = Array.from({ length: 20_000 }, (_, i) => `${season}/not-proposed-${String(i).padStart(6, '0')}.mkv`);
    const body = JSON.stringify({ paths: many });
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body };
    const res = await t.app.request('/api/library/organize', init);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { details: { key: string } } }).error.details.key).toBe('paths.0');
    expect((await t.anonymous('/api/library/organize', init)).status).toBe(401);
    // A stranger's body is never read past what the route may take: declared too big, refused
    // unread; of no declared size, the connection closes rather than drain it.
    const declared = { ...init, headers: { ...init.headers, 'content-length': String(17 * 1024 * 1024) } };
    expect((await t.anonymous('/api/library/organize', declared)).status).toBe(413);
    const endless = new ReadableStream({ pull: (ctl) => ctl.enqueue(new Uint8Array(64 * 1024)) });
    const streamed = await t.anonymous('/api/library/organize', {
      method: 'POST',
      body: endless,
      duplex: 'half',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    } as RequestInit);
    expect([streamed.status, streamed.headers.get('connection')]).toEqual([401, 'close']);
    expect((await t.app.request('/api/scan', init)).status).toBe(413);
    expect(await readdir(season)).toEqual(['lost.s01e01.mkv', 'lost.s01e02.mkv']);
  });

  it('refuses a path named twice, and a wrong type, renaming nothing', async () => {
    const season = await library();
    const twice = await post({ paths: [`${season}/lost.s01e01.mkv`, `${season}/lost.s01e01.mkv`] });
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { error: { details: { key: string } } }).error.details.key).toBe('paths.1');
    for (const bad of [{ paths: [1] }, { paths: null }, { paths: [['x']] }]) expect((await post(bad)).status, JSON.stringify(bad)).toBe(400);
    expect(await readdir(season)).toEqual(['lost.s01e01.mkv', 'lost.s01e02.mkv']);
  });
});

describe('POST /api/library/organize with dry run off', () => {
  let jobs: JobClient | undefined;
  let host: WorkerHost | undefined;
  let prefix: string | undefined;
  let scans = 0;
  afterEach(async () => {
    scans = 0;
    await host?.close();
    await jobs?.close();
    if (prefix) await dropPrefix(testRedisUrl(), prefix);
    host = jobs = prefix = undefined;
  });

  const post = (body: unknown, wait = 30) =>
    t.app.request(`/api/library/organize?wait=${wait}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  /** An API and a worker on the library queue whose organize handler is the real one. */
  async function setup() {
    prefix = uniquePrefix('organize');
    jobs = createJobClient({ redisUrl: testRedisUrl(), prefix, logger });
    t = await testApp({ toml: '[app]\ndry_run = false\n', jobs });
    host = createWorkerHost({
      redisUrl: testRedisUrl(),
      prefix,
      queues: ['library'],
      logger,
      handlers: {
        'library-scan': () => {
          scans++;
          return Promise.reject(new Error('no library scan in this test'));
        },
        'recycle-purge': () => Promise.reject(new Error('no purge in this test')),
        'library-organize': (payload, ctx) =>
          applyOrganize({
            config: t.config.current(),
            data: t.config.data,
            ...(payload.paths ? { paths: payload.paths } : {}),
            jobId: ctx.jobId,
            log: ctx.log,
            progress: (p) => void ctx.progress(p),
          }),
      },
    });
    await put('TV/Lost/Season 1/lost.s01e01.mkv');
    await put('TV/Lost/Season 1/lost.s01e01.en.srt');
    await put('TV/Lost/Season 1/lost.s01e02.mkv');
    await put('Movies/Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.x264-GRP.mkv');
    await indexNow();
    return join(t.install.paths.drive, 'TV/Lost/Season 1');
  }

  it('renames the chosen group as a library job, shows it in the history as mode rename, and the preview lists it no more; undo takes it back', async () => {
    const season = await setup();
    const res = await post({ paths: [`${season}/lost.s01e01.mkv`] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      renamed: [
        { from: `${season}/lost.s01e01.mkv`, to: `${season}/Lost - S01E01.mkv` },
        { from: `${season}/lost.s01e01.en.srt`, to: `${season}/Lost - S01E01.en.srt` },
      ],
      skipped: [],
    });
    expect(await readdir(season)).toEqual(['Lost - S01E01.en.srt', 'Lost - S01E01.mkv', 'lost.s01e02.mkv']);
    const history = (await (await t.app.request('/api/history')).json()) as {
      items: { id: number; mode: string; source: string; destination: string; sidecars: unknown[] }[];
    };
    expect(history.items).toHaveLength(1);
    expect(history.items[0]).toMatchObject({
      mode: 'rename',
      method: 'rename',
      source: `${season}/lost.s01e01.mkv`,
      destination: `${season}/Lost - S01E01.mkv`,
      sidecars: [{ source: `${season}/lost.s01e01.en.srt`, destination: `${season}/Lost - S01E01.en.srt` }],
      undone_at: null,
    });
    await t.library.refresh();
    const left = ((await (await t.app.request('/api/library/organize')).json()) as { renames: { from: string }[] }).renames.map((r) => r.from);
    expect(left).not.toContain(`${season}/lost.s01e01.mkv`);
    expect(left).toContain(`${season}/lost.s01e02.mkv`);

    const undo = await t.app.request(`/api/history/${history.items[0]!.id}/undo`, { method: 'POST' });
    expect(undo.status).toBe(200);
    expect(await readdir(season)).toEqual(['lost.s01e01.en.srt', 'lost.s01e01.mkv', 'lost.s01e02.mkv']);
    // The index still holds the new names: a library scan is queued to follow the undo.
    for (let i = 0; i < 100 && scans === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(scans).toBe(1);
    expect((await t.app.request(`/api/history/${history.items[0]!.id}/undo`, { method: 'POST' })).status).toBe(409);
  });

  it('answers 202 with the job to follow, whose progress is {done, total}, and renames all when no paths are named', async () => {
    await setup();
    const res = await post({}, 0);
    expect(res.status).toBe(202);
    const { status_url } = (await res.json()) as { status_url: string };
    let job: { state: string; progress: unknown; result: { renamed: unknown[] } } | undefined;
    for (let i = 0; i < 100 && job?.state !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      job = (await (await t.app.request(status_url)).json()) as typeof job;
    }
    expect(job!.state).toBe('completed');
    expect(job!.progress).toEqual({ done: 5, total: 5 });
    expect(job!.result.renamed).toHaveLength(5);
    expect(await readdir(join(t.install.paths.drive, 'Movies'))).toEqual(['Heat (1995)']);
  });

  it('answers 409 naming the path when a proposed file changed or its target is taken since the scan, renaming nothing', async () => {
    const season = await setup();
    await writeFile(join(season, 'lost.s01e01.mkv'), Buffer.alloc(99));
    await put('TV/Lost/Season 1/Lost - S01E02.mkv');
    for (const [i, why] of [
      [0, 'changed since the library scan'],
      [1, `cannot be renamed: ${season}/Lost - S01E02.mkv is taken`],
    ] as const) {
      const paths = i === 0 ? [`${season}/lost.s01e01.mkv`] : [`${season}/lost.s01e01.en.srt`, `${season}/lost.s01e02.mkv`];
      const res = await post({ paths });
      expect(res.status).toBe(409);
      const err = ((await res.json()) as { error: { message: string; details: { key: string } } }).error;
      expect(err.details.key).toBe(`paths.${i}`);
      expect(err.message).toBe(`paths.${i}: ${paths[i]} ${why}`);
    }
    expect(await readdir(season)).toEqual(['Lost - S01E02.mkv', 'lost.s01e01.en.srt', 'lost.s01e01.mkv', 'lost.s01e02.mkv']);
  });
});
