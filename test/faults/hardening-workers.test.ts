// Issue 11, "Workers trust nothing": the attacks on the job queue, each as a case that now fails to
// do harm. A real API and a real worker process on a private queue prefix, real media made with
// ffmpeg, and jobs put straight into Redis the way Bull Board's "add job" put them: whatever the
// job says, the worker checks it again against the config of the moment (dry_run, the path
// guard, the job's options and payload) and changes no file. Also what a finished scanner pass
// costs in Redis now that its job keeps a summary.
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimeConfig, libraryScanOptions, scanLibrary, writeLibraryIndex, type RuntimeConfig } from '@mo/core';
import { probeFile } from '@mo/core/media';
import { fullClip, makeClip } from '@mo/core/test-fixtures';
import { queuedEntry, newTranscodeJobId } from '@mo/core/tools';
import { apiJobOptions, transcodeJobOptions } from '@mo/shared';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { startProcess, tempInstall, TEST_API_KEY, waitFor, type RunningProcess, type TempInstall } from '@mo/test-support/service';
import { sha256 } from './support/files.ts';
import { json, send } from './support/http.ts';
import { Figures } from './support/report.ts';

const figures = new Figures('hardening-workers');
const redisUrl = testRedisUrl();
const prefix = uniquePrefix('hard-workers');
const PASS_FILES = 500;

let install: TempInstall;
let config: RuntimeConfig;
let port: number;
let api: RunningProcess;
let worker: RunningProcess | undefined;
let queues: Record<'scan' | 'media' | 'transcode', Queue>;
let redis: Redis;
let env: Record<string, string>;

/** The files no refused job may touch, with their hashes before. */
const guarded = new Map<string, string>();
let films: string[];
let remuxable: string;
let inDownloads: string;
let outside: string;

const headers = { 'x-api-key': TEST_API_KEY };
const call = (method: string, path: string, body?: unknown) =>
  send(port, method, path, {
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    timeoutMs: 120_000,
  });

async function setDryRun(on: boolean) {
  const res = await call('POST', '/api/settings', { app: { dry_run: on } });
  expect(res.status, res.text).toBe(200);
  // The worker reads state.json once a second.
  await new Promise((r) => setTimeout(r, 2500));
}

async function startWorker() {
  worker = startProcess('worker', env);
  await waitFor(
    async () => {
      if (worker!.proc.exitCode !== null) throw new Error(`the worker exited: ${worker!.output().slice(-2000)}`);
      return worker!.output().includes('"msg":"worker started"');
    },
    30_000,
    'the worker to start',
  );
}

/** The job's record through the API once it has finished, or null once the worker removed it. */
async function finished(queue: string, id: string): Promise<any> {
  return waitFor(
    async () => {
      const res = await call('GET', `/api/jobs/${queue}/${encodeURIComponent(id)}`);
      if (res.status === 404) return { removed: true };
      const job = json(res);
      return job.state === 'completed' || job.state === 'failed' ? job : undefined;
    },
    60_000,
    `job ${queue}/${id} to finish`,
  );
}

/** Adds a job the way Bull Board's "add job" did: straight into the queue, with whatever options. */
function addRaw(name: string, data: unknown, opts: JobsOptions = {}) {
  const queue = name === 'transcode-run' ? queues.transcode : name === 'media-tracks' ? queues.media : queues.scan;
  return queue.add(name, data, opts);
}

/** What run-next does before it queues a job: the entry claimed with the job's id. */
async function claim(path: string, jobId: string) {
  const entry = { ...queuedEntry(new Date().toISOString()), job_id: jobId };
  await config.state.update((s) => ({ ...s, transcodes: { ...s.transcodes, [path]: entry } }));
}

/** The options the API gives a transcode, each with a new id (BullMQ keeps one job per id). */
const transcodeOpts = (jobId = newTranscodeJobId()) => transcodeJobOptions(jobId, 1);

async function unchanged(): Promise<string[]> {
  const changed: string[] = [];
  for (const [file, hash] of guarded) if ((await sha256(file).catch(() => 'gone')) !== hash) changed.push(file);
  return changed;
}

/** Every .mp4 under `dir`, but in the data folder, whose lock folders come and go while a worker runs. */
async function mp4sUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const top of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, top.name);
    if (path === install.paths.data) continue;
    if (top.isFile() && top.name.endsWith('.mp4')) out.push(path);
    if (!top.isDirectory()) continue;
    for (const e of await readdir(path, { withFileTypes: true, recursive: true }))
      if (e.isFile() && e.name.endsWith('.mp4')) out.push(join(e.parentPath, e.name));
  }
  return out;
}

const item = (path: string, ext = '.avi') => ({ path, ext, bytes: 1, kind: 'movie', title: 'Film', status: 'queued' });

beforeAll(async () => {
  install = await tempInstall(
    '[app]\ndry_run = false\nscan_interval_seconds = 0\nwatch = false\nsettle_seconds = 0\n\n[library]\nsample_max_bytes = 0\n\n' +
      '[transcoder]\nvideo_encoder = "libx264"\nkeep_original = true\n',
  );
  const movies = join(install.paths.drive, 'Movies');
  films = [];
  for (const name of ['Film A (2001)', 'Film B (2002)', 'Film C (2003)']) {
    await mkdir(join(movies, name), { recursive: true });
    const f = join(movies, name, `${name}.avi`);
    if (films.length === 0) await makeClip(f, { video: 'mpeg4', audio: 'mp3', seconds: 1 });
    else await copyFile(films[0]!, f);
    films.push(f);
  }
  remuxable = join(movies, 'Remux (2004)', 'Remux (2004).mkv');
  await mkdir(join(remuxable, '..'), { recursive: true });
  await fullClip(remuxable);
  inDownloads = join(install.paths.downloads, 'Film.D.2005.avi');
  await copyFile(films[0]!, inDownloads);
  outside = join(install.root, 'outside', 'Secret (2006).avi');
  await mkdir(join(outside, '..'), { recursive: true });
  await copyFile(films[0]!, outside);
  for (const f of [...films, remuxable, inDownloads, outside]) guarded.set(f, await sha256(f));

  config = await createRuntimeConfig({ configFile: install.configFile, pollMs: 100 });
  await writeLibraryIndex(install.paths.data, await scanLibrary(libraryScanOptions(config.current())));

  port = await freePort();
  env = { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: '127.0.0.1' };
  api = startProcess('api', env);
  await waitFor(async () => (await send(port, 'GET', '/api/ready')).status === 200, 30_000, 'the api');
  const connection = { host: new URL(redisUrl).hostname, port: Number(new URL(redisUrl).port || 6379), maxRetriesPerRequest: null };
  queues = {
    scan: new Queue('scan', { connection, prefix }),
    media: new Queue('media', { connection, prefix }),
    transcode: new Queue('transcode', { connection, prefix }),
  };
  redis = new Redis(redisUrl);
}, 120_000);

afterAll(async () => {
  figures.print();
  await worker?.stop();
  await api?.stop();
  await Promise.all(Object.values(queues ?? {}).map((q) => q.close()));
  redis?.disconnect();
  config?.close();
  await dropPrefix(redisUrl, prefix);
  await install?.cleanup();
});

describe('the job queue, attacked', () => {
  it('a transcode run-next queued while dry_run was off does nothing once dry_run is on', async () => {
    // No worker yet: the job waits in the queue while the owner turns dry_run on.
    const next = await call('POST', '/api/tools/transcoder/run-next');
    expect(next.status, next.text).toBe(202);
    const id = json(next).job.id as string;
    await setDryRun(true);
    await startWorker();
    const job = await finished('transcode', id);
    expect(job).toMatchObject({
      state: 'failed',
      error_code: 'conflict',
      error: expect.stringMatching(/^dry_run is on: the transcode of .* was not run; nothing changed$/),
    });
    expect(await unchanged()).toEqual([]);
    expect(await mp4sUnder(install.root)).toEqual([]);
    figures.set('run-next job run with dry_run turned on since', 'refused (409), no file changed');
  });

  it('Bull Board refuses "add job", promote and edit with 403 before they reach the queue', async () => {
    const before = await Promise.all(Object.values(queues).map((q) => q.getJobCounts()));
    const attempts = [
      ['POST', 'transcode/add', { name: 'transcode-run', data: { item: item(films[1]!) }, options: { repeat: { every: 1000 } } }],
      ['POST', 'media/add', { name: 'media-tracks', data: { path: remuxable, action: 'remove', stream: 1, before: [] } }],
      ['PUT', 'transcode/promote', undefined],
      ['PUT', 'transcode/pause', undefined],
    ] as const;
    for (const [method, path, body] of attempts) {
      const res = await call(method, `/api/admin/queues/api/queues/${path}`, body);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(403);
      expect(json(res)).toMatchObject({ error: { code: 'forbidden' } });
    }
    expect(await Promise.all(Object.values(queues).map((q) => q.getJobCounts()))).toEqual(before);
    expect(await queues.transcode.isPaused()).toBe(false);
    figures.set('Bull Board add / promote / pause', '403, nothing queued');
  });

  it('with dry_run on, a remux and a transcode put straight into the queue change nothing, and a repeat leaves nothing in Redis', async () => {
    const streams = (await probeFile(remuxable)).streams;
    const jobs = [
      await addRaw('media-tracks', { path: remuxable, action: 'remove', stream: 1, before: streams }, apiJobOptions('media-tracks')),
      await addRaw('transcode-run', { item: item(films[1]!) }, transcodeOpts()),
    ];
    for (const job of jobs) {
      expect(await finished(job.queueName, job.id!)).toMatchObject({
        state: 'failed',
        error_code: 'conflict',
        error: expect.stringContaining('dry_run is on'),
      });
    }
    const repeat = await addRaw('transcode-run', { item: item(films[1]!) }, { repeat: { every: 300 }, removeOnFail: false, removeOnComplete: false });
    // Refused, it fails, then the worker removes it: a poll may see the failed job in between.
    await waitFor(
      async () => (await call('GET', `/api/jobs/transcode/${encodeURIComponent(repeat.id!)}`)).status === 404,
      30_000,
      'the refused repeat to be removed',
    );
    await waitFor(async () => (await queues.transcode.getJobSchedulers()).length === 0, 10_000, 'the schedule to go');
    await new Promise((r) => setTimeout(r, 1000));
    const left = (await redis.keys(`${prefix}:transcode:*`)).filter((k) => k.includes('repeat'));
    expect(left).toEqual([]);
    expect(await unchanged()).toEqual([]);
    expect(await mp4sUnder(install.root)).toEqual([]);
    figures.set('remux / transcode added by hand in dry run', 'refused (409), no file changed');
    figures.set('repeat job added by hand', 'refused and removed, no repeat key left');
  });

  it('with dry_run off, a transcode or remux the API did not make is refused and no file changes', async () => {
    await setDryRun(false);
    // Claimed as run-next would, so that only the worker's own path check stands in the way.
    const [outsideId, downloadsId] = [newTranscodeJobId(), newTranscodeJobId()];
    await claim(outside, outsideId);
    await claim(inDownloads, downloadsId);
    const cases: [string, Awaited<ReturnType<typeof addRaw>>, RegExp][] = [
      ['not claimed by run-next', await addRaw('transcode-run', { item: item(films[2]!) }, transcodeOpts()), /run-next did not claim it/],
      ['outside the roots', await addRaw('transcode-run', { item: item(outside) }, transcodeOpts(outsideId)), /^path: outside/],
      ['in the downloads', await addRaw('transcode-run', { item: item(inDownloads) }, transcodeOpts(downloadsId)), /^path: outside/],
      [
        'keep_original forced off',
        await addRaw('transcode-run', { item: { ...item(films[2]!), keep_original: false } }, transcodeOpts()),
        /item\.keep_original: unknown key/,
      ],
      [
        'an output of its own',
        await addRaw('transcode-run', { item: item(films[2]!), output: join(install.root, 'x.mp4') }, transcodeOpts()),
        /output: unknown key/,
      ],
      [
        'an MP4 written over itself',
        await addRaw('transcode-run', { item: { ...item(films[2]!.replace(/avi$/, 'mp4'), '.mp4') } }, transcodeOpts()),
        /never transcoded/,
      ],
      [
        'a remux outside the roots',
        await addRaw('media-tracks', { path: outside, action: 'remove', stream: 1, before: (await probeFile(outside)).streams }, apiJobOptions('media-tracks')),
        /^path: outside/,
      ],
      ['with a job id of its own', await addRaw('transcode-run', { item: item(films[2]!) }, { ...transcodeOpts(), jobId: 'mine' }), /removed/],
      ['with priority 0 (before every other job)', await addRaw('transcode-run', { item: item(films[2]!) }, { ...transcodeOpts(), priority: 0 }), /removed/],
    ];
    for (const [what, job, why] of cases) {
      const record = await finished(job.queueName, job.id!);
      if (record.removed) expect('removed', what).toMatch(why);
      else expect(record.error, what).toMatch(why);
      figures.set(`refused: ${what}`, record.removed ? 'removed' : `${record.error_code}`);
    }
    expect(await unchanged()).toEqual([]);
    expect(await mp4sUnder(install.root)).toEqual([]);
    // What run-next queues still runs, and keeps the original as the config says.
    const next = await call('POST', '/api/tools/transcoder/run-next');
    expect(next.status, next.text).toBe(202);
    const done = await finished('transcode', json(next).job.id);
    expect(done, JSON.stringify(done)).toMatchObject({ state: 'completed', result: { original_removed: false } });
    expect((await mp4sUnder(install.root)).length).toBe(1);
    expect(await unchanged()).toEqual([]);
  });

  it(`a finished pass of ${PASS_FILES} files keeps a summary in Redis; the API still answers the whole result`, async () => {
    await setDryRun(true);
    for (let i = 0; i < PASS_FILES; i++) {
      const name = `Some.Movie.Title.Number.${i}.${1950 + (i % 70)}.1080p.BluRay.x264-GROUP`;
      await mkdir(join(install.paths.downloads, name), { recursive: true });
      await copyFile(films[0]!, join(install.paths.downloads, name, `${name}.mkv`));
    }
    const res = await call('POST', '/api/scan?wait=120');
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    const body = json(res);
    expect(Object.keys(body).sort()).toEqual(['dry_run', 'finished_at', 'moves', 'plans', 'skipped', 'started_at']);
    expect(body.plans.length).toBeGreaterThanOrEqual(PASS_FILES);
    const ids = await queues.scan.getJobs(['completed']);
    const id = ids[0]!.id!;
    const view = json(await call('GET', `/api/jobs/scan/${id}`));
    expect(view.result).toEqual(body);
    const bytes = Number(await redis.memory('USAGE', `${prefix}:scan:${id}`, 'SAMPLES', 0));
    const stored = (await redis.hget(`${prefix}:scan:${id}`, 'returnvalue'))!;
    figures.set(`pass of ${body.plans.length} plans: job hash in Redis (MEMORY USAGE)`, `${bytes} bytes`);
    figures.set('  its returnvalue', `${stored.length} chars (the full result: ${JSON.stringify(body).length})`);
    expect(JSON.parse(stored)).toMatchObject({ counts: { plans: body.plans.length }, pass_file: `passes/${id}.json` });
    // Before: ~460 bytes a plan, 230 KB for this pass, kept for each of up to 1000 passes.
    expect(bytes).toBeLessThan(4096);
  }, 300_000);

  it('every job record left in Redis asks to be kept a bounded time and number; the event streams are capped', async () => {
    const usage = async (key: string) => Number(await redis.memory('USAGE', key, 'SAMPLES', 0));
    for (const [name, q] of Object.entries(queues)) {
      const jobs = await q.getJobs(['completed', 'failed']);
      for (const job of jobs) {
        for (const keep of [job.opts.removeOnComplete, job.opts.removeOnFail]) {
          expect(keep, `${name}/${job.id}`).toMatchObject({ age: expect.any(Number), count: expect.any(Number) });
          expect((keep as { count: number }).count).toBeLessThanOrEqual(1000);
        }
      }
      const sizes = await Promise.all(jobs.map((j) => usage(`${prefix}:${name}:${j.id}`)));
      if (sizes.length > 0) figures.set(`${name}: finished job records (largest)`, `${sizes.length} (${Math.max(...sizes)} bytes)`);
      const events = `${prefix}:${name}:events`;
      figures.set(`${name}: event stream`, `${await redis.xlen(events)} entries, ${await usage(events)} bytes (capped at ~10,000 entries)`);
    }
  });
});
