// The steerable transcode queue under faults: real bundled processes. A run-all of a dozen
// transcodes on a worker running two at a time, whose worker is SIGKILLed again and again; and a
// pause that must hold across a killed API, a restarted worker and a Redis that forgot it (BullMQ's
// own pause flag cleared by hand, as a Redis that keeps nothing would). After everything: no
// original lost, every entry telling the truth, nothing temporary left, and every file
// transcoded once the failed ones are retried.
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeFile } from '@mo/core/media';
import { makeClip } from '@mo/core/test-fixtures';
import { dropPrefix, fastForwardStalls, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { buildApps, startProcess, tempInstall, waitFor, type RunningProcess, type TempInstall } from '@mo/test-support/service';
import { ageLocks, filesIn, findLeftovers, sha256, sha256OrNull } from './support/files.ts';
import { json, send } from './support/http.ts';
import { jobFinal, kill, sleep, startWorker } from './support/jobs.ts';
import { rng, suiteSeed } from '@mo/test-support/prng';
import { Figures } from './support/report.ts';

const FILES = 12;
const KILLS = Number(process.env.FAULTS_QUEUE_KILLS ?? 6);
const redisUrl = testRedisUrl();
const prefix = uniquePrefix('kqueue');
const figures = new Figures('kill-transcode-queue');
const random = rng(suiteSeed()).fork('transcode-queue');
const running: RunningProcess[] = [];
let install: TempInstall;
let port: number;
let api: RunningProcess;
let template: string;
let templateHash: string;
let duration: number;

type Entry = { path: string; status: string; position: number | null; job_id: string | null; original: string | null };
const post = (path: string, body?: unknown) =>
  send(port, 'POST', path, body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const entries = async (): Promise<Entry[]> => (json(await send(port, 'GET', '/api/tools/transcoder'))?.queue ?? []) as Entry[];
const env = (extra: Record<string, string> = {}) => ({ MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, ...extra });

async function startApi() {
  port = await freePort();
  api = startProcess('api', { ...env(), PORT: String(port), HOST: '127.0.0.1' }, { built: true });
  running.push(api);
  await waitFor(async () => (await send(port, 'GET', '/api/ready')).status === 200, 30_000, 'the api');
}

async function transcodeWorker() {
  const w = await startWorker(env({ WORKER_QUEUES: 'transcode', WORKER_CONCURRENCY: 'transcode=2' }));
  running.push(w);
  return w;
}

/** Movies to transcode, indexed by a library scan. */
async function addMovies(names: string[]) {
  for (const name of names) {
    const folder = join(install.paths.drive, 'Movies', name);
    await mkdir(folder, { recursive: true });
    await copyFile(template, join(folder, `${name}.avi`));
  }
  const lib = startProcess('worker', env({ WORKER_QUEUES: 'library' }), { built: true });
  running.push(lib);
  const scan = await send(port, 'POST', '/api/library/scan?wait=60', { timeoutMs: 70_000 });
  expect(scan.status, scan.text).toBe(200);
  await lib.stop('SIGTERM');
  return names.map((n) => join(install.paths.drive, 'Movies', n, `${n}.avi`));
}

async function goodMp4(mp4: string): Promise<boolean> {
  const p = await probeFile(mp4).catch(() => null);
  const video = p?.streams.find((s) => s.type === 'video');
  return !!p && video?.codec === 'h264' && Math.abs((p.duration_seconds ?? 0) - duration) / duration < 0.02;
}

/** Each source: the original byte for byte, or gone with a verified MP4 in its place. */
async function fileStates(sources: string[]) {
  const out: Record<string, 'original' | 'transcoded' | 'both' | 'lost' | 'changed'> = {};
  for (const src of sources) {
    const hash = await sha256OrNull(src);
    const mp4 = src.replace(/\.avi$/, '.mp4');
    const good = existsSync(mp4) && (await goodMp4(mp4));
    if (hash !== null && hash !== templateHash) out[src] = 'changed';
    else if (existsSync(mp4) && !good) out[src] = 'changed';
    else if (hash === null) out[src] = good ? 'transcoded' : 'lost';
    else out[src] = good ? 'both' : 'original';
  }
  return out;
}

beforeAll(async () => {
  buildApps();
  install = await tempInstall('[app]\ndry_run = false\nscan_interval_seconds = 0\nwatch = false\n');
  template = join(install.root, 'clip.avi');
  await makeClip(template, { seconds: 4, size: '320x240', video: 'mpeg4', audio: 'mp3' });
  templateHash = await sha256(template);
  duration = (await probeFile(template)).duration_seconds ?? 4;
  await startApi();
}, 180_000);

afterAll(async () => {
  figures.print();
  for (const p of running) await p.stop('SIGKILL');
  await install?.cleanup();
  await dropPrefix(redisUrl, prefix);
});

describe('the transcode queue under SIGKILL and restarts', () => {
  it(`run-all of ${FILES} transcodes, two at a time, with the worker SIGKILLed ${KILLS} times: nothing lost, every entry true, all done after retries`, async () => {
    const sources = await addMovies(Array.from({ length: FILES }, (_, i) => `Q${String(i).padStart(2, '0')} Queued (${2000 + i})`));
    let worker = await transcodeWorker();
    try {
      const all = await post('/api/tools/transcoder/run-all');
      expect(all.status, all.text).toBe(202);
      const jobs = json(all).jobs as { path: string; job: { id: string } }[];
      expect(jobs).toHaveLength(FILES);

      const seenRunning: number[] = [];
      for (let k = 0; k < KILLS; k++) {
        const busy = await waitFor(
          async () => {
            const n = (await entries()).filter((e) => e.status === 'running').length;
            return n > 0 ? n : (await entries()).every((e) => e.status !== 'queued') ? -1 : false;
          },
          60_000,
          'a transcode to run',
        );
        if (busy < 0) break;
        seenRunning.push(busy);
        await sleep(random.int(100, 1300));
        await kill(worker);
        await fastForwardStalls(redisUrl, prefix, 'transcode');
        await ageLocks([join(install.paths.data, 'state.json.lock'), join(install.paths.data, 'transcodes.jsonl.lock')]);
        const mid = await fileStates(sources);
        expect(
          Object.entries(mid).filter(([, s]) => s === 'lost' || s === 'changed'),
          `after kill ${k + 1}`,
        ).toEqual([]);
        worker = await transcodeWorker();
      }
      figures.set('run-all: kills', seenRunning.length);
      figures.set('run-all: transcodes running at each kill', seenRunning.join(' '));
      expect(Math.max(...seenRunning)).toBeLessThanOrEqual(2);

      const outcomes = await Promise.all(jobs.map((j) => jobFinal(port, 'transcode', j.job.id, 180_000)));
      expect(
        outcomes.filter((o) => o === null),
        'jobs left unfinished',
      ).toEqual([]);
      const states = await fileStates(sources);
      const listed = await entries();
      const entryOf = (path: string) => listed.find((e) => e.path === path);
      // A job killed after its MP4 was verified, placed and recorded, and killed again when delivered
      // anew, fails for stalling with its entry rightly done; its original stays if the kill came
      // before its removal, and the entry says which.
      const finishedFirst = jobs.filter((j, i) => outcomes[i]!.state === 'failed' && entryOf(j.path)?.status === 'done').map((j) => j.path);
      // A job killed after placing its verified MP4 but before recording it, and killed again, fails
      // with its original intact beside that MP4; its retry takes that MP4 up.
      const placedFirst = jobs
        .filter((j, i) => outcomes[i]!.state === 'failed' && !finishedFirst.includes(j.path) && states[j.path] === 'both')
        .map((j) => j.path);
      for (const [i, j] of jobs.entries()) {
        const done = outcomes[i]!.state === 'completed' || finishedFirst.includes(j.path);
        const allowed = done ? ['transcoded', 'both'] : ['original', 'both'];
        expect(allowed, `${basename(j.path)}: job ${outcomes[i]!.state}, entry ${entryOf(j.path)?.status}`).toContain(states[j.path]);
      }
      await waitFor(
        async () => {
          const now = await entries();
          return jobs.every((j, i) => {
            const status = now.find((e) => e.path === j.path)?.status;
            return outcomes[i]!.state === 'completed' ? status === 'done' : status === 'failed' || finishedFirst.includes(j.path);
          });
        },
        30_000,
        'every entry to say what became of its job',
      );
      // A job killed between recording its MP4 and removing the original leaves it, recorded as kept.
      const truthful = await entries();
      const doneEntries = truthful.filter((e) => sources.includes(e.path) && e.status === 'done');
      for (const e of doneEntries) expect(e.original, basename(e.path)).toBe(states[e.path] === 'both' ? 'kept' : 'removed');
      figures.set('run-all: done with the original kept after a kill', doneEntries.filter((e) => e.original === 'kept').length);
      figures.set(
        'run-all: jobs completed / failed after the kills',
        `${outcomes.filter((o) => o!.state === 'completed').length} / ${outcomes.filter((o) => o!.state === 'failed').length}`,
      );
      figures.set('run-all: failed jobs whose transcode had finished (entry done)', finishedFirst.length);
      figures.set('run-all: failed jobs whose MP4 was placed but not recorded (retried, MP4 taken up)', placedFirst.length);

      // The failed ones, asked again, complete; then nothing is left behind.
      const failed = jobs.filter((j, i) => outcomes[i]!.state === 'failed' && !finishedFirst.includes(j.path));
      for (const j of failed) expect((await post('/api/tools/transcoder/retry', { path: j.path })).status).toBe(200);
      if (failed.length > 0) {
        const again = await post('/api/tools/transcoder/run-all');
        expect(again.status, again.text).toBe(202);
        for (const j of json(again).jobs as { job: { id: string } }[]) expect((await jobFinal(port, 'transcode', j.job.id, 120_000))?.state).toBe('completed');
      }
      const end = await fileStates(sources);
      const finalEntries = await entries();
      const keptAfterKill = (src: string) => finalEntries.find((e) => e.path === src)?.original === 'kept';
      expect(sources.filter((src) => end[src] !== 'transcoded' && !(end[src] === 'both' && keptAfterKill(src)))).toEqual([]);
      expect(await findLeftovers([install.paths.drive, install.paths.data])).toEqual([]);
      expect(await filesIn(join(install.paths.data, 'media-work'))).toEqual([]);
    } finally {
      // The next test needs no transcode worker alive when it queues its jobs.
      await kill(worker);
    }
  }, 600_000);

  it('a pause holds across a killed API, a restarted worker and a Redis that forgot it; resume runs the waiting jobs', async () => {
    const sources = await addMovies(['P01 Paused (2011)', 'P02 Paused (2012)', 'P03 Paused (2013)']);
    const all = await post('/api/tools/transcoder/run-all');
    expect(all.status, all.text).toBe(202);
    const jobs = json(all).jobs as { path: string; job: { id: string } }[];
    expect(jobs.map((j) => j.path).sort()).toEqual([...sources].sort());
    expect(json(await post('/api/tools/transcoder/pause'))).toEqual({ paused: true });

    await kill(api);
    const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
    const queue = new Queue('transcode', { connection, prefix });
    try {
      await queue.resume();
      expect(await queue.isPaused()).toBe(false);
    } finally {
      await queue.close();
      connection.disconnect();
    }
    await startApi();
    const worker = await transcodeWorker();
    await sleep(4000);
    const seen = new Redis(redisUrl, { maxRetriesPerRequest: null });
    const seenQueue = new Queue('transcode', { connection: seen, prefix });
    try {
      // The restarted worker brought BullMQ's own pause back in line with the records.
      expect(await seenQueue.isPaused()).toBe(true);
    } finally {
      await seenQueue.close();
      seen.disconnect();
    }
    expect(Object.values(await fileStates(sources))).toEqual(['original', 'original', 'original']);
    const listed = (await entries()).filter((e) => sources.includes(e.path));
    expect(listed.map((e) => [e.status, e.position !== null])).toEqual([
      ['queued', true],
      ['queued', true],
      ['queued', true],
    ]);
    expect(json(await send(port, 'GET', '/api/tools/transcoder')).paused).toBe(true);
    expect((await post('/api/tools/transcoder/run-next')).status).toBe(409);
    for (const d of await readdir(dirname(sources[0]!))) expect(d.startsWith('.mo-transcode-')).toBe(false);

    const t0 = Date.now();
    expect(json(await post('/api/tools/transcoder/resume'))).toEqual({ paused: false });
    for (const j of jobs) expect((await jobFinal(port, 'transcode', j.job.id, 60_000))?.state).toBe('completed');
    figures.set('pause: seconds from resume to the last of 3 done', ((Date.now() - t0) / 1000).toFixed(1));
    expect(Object.values(await fileStates(sources))).toEqual(['transcoded', 'transcoded', 'transcoded']);
    await kill(worker);
  }, 300_000);
});
