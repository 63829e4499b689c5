// Redis killed (SIGKILL) and started again while the service runs and a remux is mid-way, several
// times. Redis keeps its data on disk (appendonly, as docker-compose.yml runs it). While it is down
// the cached reads keep answering 200 and every job route answers 503 within 2 s; once it is back
// both processes recover by themselves, and every job that was running or waiting ends completed
// or failed: none is silently lost.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeFile, muxerFor, streamsAfter, sameStreams, type MediaStream } from '@mo/core/media';
import { makeClip, ffmpegWrapper, slowStart } from '@mo/core/test-fixtures';
import { freePort, PrivateRedis, uniquePrefix } from '@mo/test-support/redis';
import { buildApps, startProcess, tempInstall, waitFor, type RunningProcess, type TempInstall } from '@mo/test-support/service';

import { sha256OrNull } from './support/files.ts';
import { json, send } from './support/http.ts';
import { jobFinal, jobStarted, sleep } from './support/jobs.ts';
import { Figures, percentile } from './support/report.ts';

const CYCLES = Number(process.env.FAULTS_REDIS_CYCLES ?? 3);
/** How long Redis stays down in each cycle; the remux's ffmpeg is held 4 s, so some outages outlast it. */
const OUTAGES_MS = [3000, 6000, 2000, 5000];
const figures = new Figures('redis-restart');
const CACHED = [
  '/api/library',
  '/api/dashboard',
  '/api/tools/subtitles',
  '/api/tools/transcoder',
  '/api/tools/duplicates',
  '/api/releases',
  '/api/config',
  '/api/theme/custom.css',
  '/api/downloads',
  '/api/health',
];

let redis: PrivateRedis;
let install: TempInstall;
let api: RunningProcess;
let worker: RunningProcess;
let port: number;
let template: string;
let templateHash: string | null;
let templateStreams: MediaStream[];
let avi: string;

beforeAll(async () => {
  buildApps();
  install = await tempInstall('[app]\ndry_run = false\nscan_interval_seconds = 0\nwatch = false\n');
  redis = await PrivateRedis.start(join(install.root, 'redis'));
  template = join(install.root, 'template.mkv');
  await makeClip(template, { seconds: 20, size: '320x240', subtitles: true });
  templateHash = await sha256OrNull(template);
  templateStreams = (await probeFile(template)).streams;
  // Something for each cached view: a movie, a series with a gap, a non-MP4 for the transcoder.
  const movie = join(install.paths.drive, 'Movies', 'Heat (1995)');
  const season = join(install.paths.drive, 'TV', 'Show Name', 'Season 01');
  await mkdir(movie, { recursive: true });
  await mkdir(season, { recursive: true });
  await writeFile(join(movie, 'Heat (1995).mkv'), Buffer.alloc(4096));
  for (const e of ['01', '02', '04']) await writeFile(join(season, `Show Name - S01E${e}.mkv`), Buffer.alloc(4096));
  avi = join(install.paths.drive, 'Movies', 'Tape (2001)', 'Tape (2001).avi');
  await mkdir(join(avi, '..'), { recursive: true });
  await writeFile(avi, Buffer.alloc(4096));

  // The worker's ffmpeg waits 4 s before it starts: a remux is "mid-way" long enough to pull Redis from under it.
  const PATH = await ffmpegWrapper(join(install.root, 'bin'), slowStart(4));
  port = await freePort();
  const env = {
    MEDIA_ORGANIZER_CONFIG: install.configFile,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: uniquePrefix('restart'),
    PORT: String(port),
    HOST: '127.0.0.1',
  };
  api = startProcess('api', env, { built: true });
  worker = startProcess('worker', { ...env, PATH }, { built: true });
  await waitFor(async () => (await send(port, 'GET', '/api/ready')).status === 200, 30_000, 'the api');
  await waitFor(async () => worker.output().includes('"msg":"worker started"'), 30_000, 'the worker');
  const scan = await send(port, 'POST', '/api/library/scan?wait=60', { timeoutMs: 70_000 });
  expect(scan.status, scan.text).toBe(200);
}, 180_000);

afterAll(async () => {
  figures.print();
  await api?.stop('SIGKILL');
  await worker?.stop('SIGKILL');
  await redis?.stop();
  await install?.cleanup();
});

describe('Redis killed and restarted while the service works', () => {
  it(`${CYCLES} outages with a remux mid-way: cached reads 200, job routes 503 within 2 s, recovery without a restart, no job lost`, async () => {
    const cached = { requests: 0, non200: [] as string[], ms: [] as number[] };
    const jobRoutes = { requests: 0, wrong: [] as string[], ms: [] as number[] };
    const recovery = { readyMs: [] as number[], jobPostMs: [] as number[] };
    const interrupted: { id: string; file: string; req: { action: 'remove' | 'set_default'; stream: number }; wasRunning: boolean }[] = [];
    const apiPid = api.proc.pid;
    const workerPid = worker.proc.pid;

    for (let c = 0; c < CYCLES; c++) {
      const outage = OUTAGES_MS[c % OUTAGES_MS.length]!;
      // One remux that will be running when Redis dies, one waiting behind it.
      const jobs: string[] = [];
      for (const k of [0, 1]) {
        const file = join(install.paths.downloads, `Outage ${c}-${k}.mkv`);
        await copyFile(template, file);
        const req = k === 0 ? { action: 'remove' as const, stream: 2 } : { action: 'set_default' as const, stream: 2 };
        const r = await send(port, 'POST', '/api/media/tracks?wait=0', {
          body: JSON.stringify({ path: file, ...req }),
          headers: { 'content-type': 'application/json' },
        });
        expect(r.status, r.text).toBe(202);
        const id = String(json(r).job.id);
        jobs.push(id);
        interrupted.push({ id, file, req, wasRunning: k === 0 });
      }
      await jobStarted(worker, jobs[0]!, 30_000);
      await sleep(500);
      await redis.stop();
      const downAt = Date.now();

      // While it is down: readers hammer the cached routes; the job routes are tried one by one.
      let down = true;
      const readers = Array.from({ length: 6 }, async (_, k) => {
        for (let i = k; down; i++) {
          const path = CACHED[i % CACHED.length]!;
          const a = await send(port, 'GET', path, { timeoutMs: 5000 });
          cached.requests++;
          cached.ms.push(a.ms);
          if (a.status !== 200) cached.non200.push(`${path}: ${a.status} ${a.text.slice(0, 100)} (outage ${c}, ${Date.now() - downAt} ms in)`);
        }
      });
      const tries: [string, string, string?][] = [
        ['POST', '/api/scan'],
        ['POST', '/api/scan?wait=0'],
        ['POST', '/api/library/scan'],
        ['POST', '/api/media/tracks', JSON.stringify({ path: join(install.paths.downloads, `Outage ${c}-0.mkv`), action: 'set_default', stream: 1 })],
        ['POST', '/api/tools/transcoder/run-next'],
        ['GET', `/api/jobs/media/${jobs[0]}`],
        ['GET', '/api/ready'],
      ];
      while (Date.now() - downAt < outage) {
        for (const [method, path, body] of tries) {
          const a = await send(port, method, path, { ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}), timeoutMs: 10_000 });
          jobRoutes.requests++;
          jobRoutes.ms.push(a.ms);
          if (a.status !== 503 || a.ms >= 2000) jobRoutes.wrong.push(`${method} ${path}: ${a.status} in ${Math.round(a.ms)} ms (outage ${c})`);
        }
        await sleep(200);
      }
      // run-next gave its claim back when it could not queue: the entry is still "queued".
      const entry = (json(await send(port, 'GET', '/api/tools/transcoder'))?.queue ?? []).find((e: { path: string }) => e.path === avi);
      if (entry?.status !== 'queued') jobRoutes.wrong.push(`after run-next failed for want of Redis, the transcoder entry is "${entry?.status}"`);
      down = false;
      await Promise.all(readers);

      await redis.start();
      const upAt = Date.now();
      await waitFor(async () => (await send(port, 'GET', '/api/ready')).status === 200, 30_000, 'ready again');
      recovery.readyMs.push(Date.now() - upAt);
      await waitFor(async () => (await send(port, 'POST', '/api/scan?wait=10', { timeoutMs: 15_000 })).status === 200, 60_000, 'a scan pass after the restart');
      recovery.jobPostMs.push(Date.now() - upAt);
    }

    // Every job that was running or waiting when Redis died ends with a record.
    const outcomes = { completed: 0, failed: 0, lost: 0 };
    const fileProblems: string[] = [];
    const muxer = muxerFor('x.mkv')!;
    for (const j of interrupted) {
      const rec = await jobFinal(port, 'media', j.id, 120_000);
      if (!rec) outcomes.lost++;
      else if (rec.state === 'completed') outcomes.completed++;
      else if (rec.error) outcomes.failed++;
      else outcomes.lost++;
      const hash = await sha256OrNull(j.file);
      const probe = hash && hash !== templateHash ? await probeFile(j.file).catch(() => null) : null;
      const remuxed = !!probe && sameStreams(probe.streams, streamsAfter(templateStreams, j.req, muxer), { positions: false });
      if (hash !== templateHash && !remuxed) fileProblems.push(`${j.file}: neither the original nor a verified remux`);
      if (rec?.state === 'completed' && !remuxed) fileProblems.push(`${j.file}: job completed but the file is not remuxed`);
    }

    const sortedCached = [...cached.ms].sort((a, b) => a - b);
    figures.set('outages (Redis SIGKILLed, restarted from its AOF)', CYCLES);
    figures.set('outage lengths (ms)', OUTAGES_MS.slice(0, CYCLES).join(', '));
    figures.set('cached GETs during outages', cached.requests);
    figures.set('cached GETs not 200', cached.non200.length);
    figures.set('cached GET p99 / max during outages (ms)', `${percentile(sortedCached, 99).toFixed(1)} / ${Math.max(...cached.ms).toFixed(1)}`);
    figures.set('job-route requests during outages', jobRoutes.requests);
    figures.set('job-route answers not 503 within 2 s', jobRoutes.wrong.length);
    figures.set('job-route slowest answer (ms)', Math.round(Math.max(...jobRoutes.ms)));
    figures.set('ready again after restart, max (ms)', Math.max(...recovery.readyMs));
    figures.set('job POST (a scan pass) answered 200 again, max (ms)', Math.max(...recovery.jobPostMs));
    figures.set('jobs running or waiting at the kill', interrupted.length);
    figures.set('  completed / failed with reason / lost', `${outcomes.completed} / ${outcomes.failed} / ${outcomes.lost}`);
    figures.set('files neither original nor verified', fileProblems.length);

    expect(cached.non200).toEqual([]);
    expect(jobRoutes.wrong).toEqual([]);
    expect(fileProblems).toEqual([]);
    expect(outcomes.lost).toBe(0);
    expect(api.proc.pid).toBe(apiPid);
    expect(worker.proc.pid).toBe(workerPid);
    expect(api.proc.exitCode).toBeNull();
    expect(worker.proc.exitCode).toBeNull();
  }, 400_000);
});
