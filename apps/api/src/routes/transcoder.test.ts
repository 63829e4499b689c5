import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError, createJobClient, createLogger, createWorkerHost, libraryScanOptions, scanLibrary, writeLibraryIndex, type JobClient } from '@mo/core';
import { makeClip } from '@mo/core/test-fixtures';
import { probeFile, snapshot } from '@mo/core/media';
import { isCancelRequested } from '@mo/core/queue';
import { newTranscodeJobId, queuedEntry } from '@mo/core/tools';
import { runNextResponse, TRANSCODE_JOB_ID, transcoderResponse, transcodeRetryResponse, type TranscodeStatus } from '@mo/shared';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { stubJobs, testApp, type TestApp } from '../test-support/app.ts';

let template: string;
let t: TestApp;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  template = join(await mkdtemp(join(tmpdir(), 'mo-transcoder-route-')), 'clip.avi');
  await makeClip(template, { video: 'mpeg4', audio: 'mp3', seconds: 1 });
});
afterAll(() => rm(join(template, '..'), { recursive: true, force: true }));
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await t?.close();
});

function recordingJobs(calls: any[], fail?: Error): JobClient {
  return {
    ...stubJobs(),
    queueTranscodes: async (jobs) => {
      if (fail) throw fail;
      calls.push(...jobs.map((j) => ({ name: 'transcode-run', ...j })));
      return jobs.map((j) => ({ id: j.jobId, queue: 'transcode' as const, state: 'waiting' as const }));
    },
    reprioritize: async (queue, id, priority) => {
      calls.push({ reprioritize: { queue, id, priority } });
      return true;
    },
    setPaused: async (queue, paused) => void calls.push({ setPaused: { queue, paused } }),
    progressOf: async () => new Map(),
  };
}

/** A record as the transitions write them. */
const rec = (status: TranscodeStatus['status'], extra: Partial<TranscodeStatus> = {}): TranscodeStatus => ({
  ...queuedEntry(new Date().toISOString()),
  status,
  job_id: '3',
  ...extra,
});

/** Real clips on the drive, indexed the way a library scan indexes them. */
async function library(opts: { jobs?: JobClient } = {}) {
  t = await testApp(opts.jobs ? { jobs: opts.jobs } : {});
  const drive = t.install.paths.drive;
  const files = ['Movies/B (2002)/B (2002).avi', 'Movies/A (2001)/A (2001).avi', 'TV/Show/Season 01/Show - S01E01.avi'];
  for (const rel of files) {
    await mkdir(join(drive, rel, '..'), { recursive: true });
    await copyFile(template, join(drive, rel));
  }
  await mkdir(join(drive, 'Movies/C (2003)'), { recursive: true });
  await writeFile(join(drive, 'Movies/C (2003)/C (2003).mp4'), 'already mp4');
  const cfg = t.config.current();
  const index = await scanLibrary({ ...libraryScanOptions(cfg), readNfo: false });

  await writeLibraryIndex(cfg.paths.data, index);
  await t.library.refresh();
  return {
    a: join(drive, 'Movies/A (2001)/A (2001).avi'),
    b: join(drive, 'Movies/B (2002)/B (2002).avi'),
    e1: join(drive, 'TV/Show/Season 01/Show - S01E01.avi'),
  };
}

async function get(path: string) {
  const res = await t.app.request(path);
  return { status: res.status, body: (await res.json()) as any };
}
async function post(path: string, body?: unknown) {
  const init = body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
  const res = await t.app.request(path, { method: 'POST', ...init });
  return { status: res.status, body: (await res.json()) as any };
}

describe('GET /api/tools/transcoder', () => {
  it('is empty before the first library scan', async () => {
    t = await testApp();
    expect(await get('/api/tools/transcoder')).toEqual({ status: 200, body: { scanned_at: null, paused: false, queue: [] } });
  });

  it('lists indexed video that is not MP4, by path, with each entry’s status from the state', async () => {
    const { a, b, e1 } = await library();
    await t.config.state.update((s) => ({
      ...s,
      transcodes: { [b]: rec('failed', { error: 'boom' }) },
    }));
    await t.config.refresh();
    const { status, body } = await get('/api/tools/transcoder');
    expect(status).toBe(200);
    expect(transcoderResponse.safeParse(body).success).toBe(true);
    expect(body.scanned_at).toBe(t.library.header()!.scanned_at);
    expect(body.queue.map((e: any) => [e.path, e.ext, e.kind, e.status, e.position, e.error])).toEqual([
      [a, '.avi', 'movie', 'queued', 1, null],
      [b, '.avi', 'movie', 'failed', null, 'boom'],
      [e1, '.avi', 'episode', 'queued', 2, null],
    ]);
  });
});

describe('POST /api/tools/transcoder/run-next', () => {
  it('with dry_run on, reports the first queued entry and its command, and runs nothing', async () => {
    const calls: unknown[] = [];
    const { a } = await library({ jobs: recordingJobs(calls) });
    const { status, body } = await post('/api/tools/transcoder/run-next');
    expect(status).toBe(200);
    expect(runNextResponse.safeParse(body).success).toBe(true);
    expect(body.dry_run).toBe(true);
    expect(body.item).toMatchObject({ path: a, status: 'queued' });
    expect(body.command.slice(0, 2)).toEqual(['ffmpeg', '-nostdin']);
    expect(body.command).toContain('libx264');
    expect(body.command.at(-1)).toMatch(/\/\.mo-transcode-[0-9a-f]+\.A \(2001\)\.mp4\.part$/);
    expect(body.dropped).toEqual([]);
    expect(calls).toEqual([]);
    expect(t.config.currentState().transcodes).toEqual({});
  });

  it('with dry_run off, queues the next entry with a job named from the start, and answers 202 at once', async () => {
    const calls: any[] = [];
    const { a, b, e1 } = await library({ jobs: recordingJobs(calls) });
    await t.config.updateSettings({ app: { dry_run: false } });
    // Read once before, so that a cached answer has to notice the status change.
    expect((await get('/api/tools/transcoder')).body.queue.map((e: any) => e.status)).toEqual(['queued', 'queued', 'queued']);
    const first = await post('/api/tools/transcoder/run-next');
    expect(first.status).toBe(202);
    expect(runNextResponse.safeParse(first.body).success).toBe(true);
    const id = first.body.job.id as string;
    expect(id).toMatch(TRANSCODE_JOB_ID);
    expect(first.body).toMatchObject({ item: { path: a, status: 'queued' }, job: { queue: 'transcode' }, status_url: `/api/jobs/transcode/${id}` });
    expect(calls[0]).toMatchObject({ name: 'transcode-run', jobId: id, payload: { item: { path: a, status: 'queued' } } });
    expect(t.config.currentState().transcodes[a]).toMatchObject({ status: 'queued', job_id: id });
    // Two at once take two different entries.
    const [second, third] = await Promise.all([post('/api/tools/transcoder/run-next'), post('/api/tools/transcoder/run-next')]);
    expect([second.body.item.path, third.body.item.path].sort()).toEqual([b, e1].sort());
    expect(await post('/api/tools/transcoder/run-next')).toEqual({ status: 200, body: { item: null } });
    const listed = (await get('/api/tools/transcoder')).body.queue;
    expect(listed.map((e: any) => [e.status, e.position])).toEqual([
      ['queued', 1],
      ['queued', 2],
      ['queued', 3],
    ]);
    expect(new Set(listed.map((e: any) => e.job_id)).size).toBe(3);
  });

  it('gives the entry back when the job cannot be queued', async () => {
    const { a } = await library({ jobs: recordingJobs([], new AppError('unavailable', 'the job queue cannot be reached')) });
    await t.config.updateSettings({ app: { dry_run: false } });
    expect((await post('/api/tools/transcoder/run-next')).status).toBe(503);
    expect(t.config.currentState().transcodes).toEqual({});
    expect((await get('/api/tools/transcoder')).body.queue[0]).toMatchObject({ path: a, status: 'queued' });
  });

  it('answers item: null when nothing is queued', async () => {
    t = await testApp();
    expect(await post('/api/tools/transcoder/run-next')).toEqual({ status: 200, body: { item: null } });
  });
});

describe('POST /api/tools/transcoder/retry', () => {
  const retry = async (body: unknown, type = 'application/json') => {
    const res = await t.app.request('/api/tools/transcoder/retry', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': type } });
    return { status: res.status, body: (await res.json()) as any };
  };
  const entry = (status: 'running' | 'done' | 'failed') => rec(status, { error: status === 'failed' ? 'boom' : null });
  /** Job 3 in the given state (null: the queue no longer has it). */
  const jobsWithJob3 = (state: 'waiting' | 'active' | 'delayed' | 'completed' | 'failed' | null, calls: unknown[] = []): JobClient => ({
    ...recordingJobs(calls),
    get: async (queue, id) =>
      id === '3' && state !== null
        ? { id, queue, name: 'transcode-run', state, progress: 0, result: null, error: null, error_code: null, created_at: null, finished_at: null }
        : null,
  });

  it('puts a failed entry whose job has ended back in the queue, in its place, for run-next to take', async () => {
    const calls: any[] = [];
    const { a, b } = await library({ jobs: jobsWithJob3('failed', calls) });
    await t.config.state.update((s) => ({ ...s, transcodes: { [a]: entry('failed') } }));
    await t.config.refresh();
    const res = await retry({ path: a });
    expect(res.status).toBe(200);
    expect(transcodeRetryResponse.safeParse(res.body).success).toBe(true);
    expect(res.body.item).toMatchObject({ path: a, status: 'queued' });
    expect(t.config.currentState().transcodes).toEqual({});
    expect((await get('/api/tools/transcoder')).body.queue.map((e: any) => e.status)).toEqual(['queued', 'queued', 'queued']);
    await t.config.updateSettings({ app: { dry_run: false } });
    expect((await post('/api/tools/transcoder/run-next')).body.item.path).toBe(a);
    // Still queued: asking again changes nothing and says so.
    expect((await retry({ path: b })).body.item).toMatchObject({ path: b, status: 'queued' });
  });

  it.each(['waiting', 'active', 'delayed'] as const)('409 while the failed entry’s job is still %s (BullMQ may retry it), and leaves it', async (state) => {
    const { a } = await library({ jobs: jobsWithJob3(state) });
    await t.config.state.update((s) => ({ ...s, transcodes: { [a]: entry('failed') } }));
    const res = await retry({ path: a });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain(`transcode/3 is still ${state}`);
    expect(t.config.currentState().transcodes[a]).toMatchObject({ status: 'failed', job_id: '3' });
  });

  it('takes back an entry whose job the queue no longer has', async () => {
    const { a } = await library({ jobs: jobsWithJob3(null) });
    await t.config.state.update((s) => ({ ...s, transcodes: { [a]: entry('failed') } }));
    expect((await retry({ path: a })).status).toBe(200);
    expect(t.config.currentState().transcodes).toEqual({});
  });

  it('409 for an entry running or done, and leaves it as it was', async () => {
    const { a, b } = await library({ jobs: jobsWithJob3('active') });
    const before = { [a]: entry('running'), [b]: entry('done') };
    await t.config.state.update((s) => ({ ...s, transcodes: before }));
    await t.config.refresh();
    expect([(await retry({ path: a })).status, (await retry({ path: b })).status]).toEqual([409, 409]);
    expect(t.config.currentState().transcodes).toEqual(before);
  });

  it('404 for a path not in the queue, 400 for a body that is not { path }, and nothing changes', async () => {
    const { a } = await library({ jobs: jobsWithJob3('failed') });
    await t.config.state.update((s) => ({ ...s, transcodes: { [a]: entry('failed') } }));
    await t.config.refresh();
    const before = t.config.currentState().transcodes;
    for (const path of [`${a}x`, a.replace('/Movies/', '/Movies/../Movies/'), a.toUpperCase(), `${a}\u0000`]) {
      expect((await retry({ path })).status, path).toBe(404);
    }
    for (const body of [{}, { path: '' }, { path: 1 }, { path: a, extra: 1 }, [a], null]) {
      expect((await retry(body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await retry({ path: a }, 'text/plain')).status).toBe(400);
    expect(t.config.currentState().transcodes).toEqual(before);
  });
});

describe('POST /api/jobs/transcode/:id/cancel', () => {
  async function withRedis() {
    const prefix = uniquePrefix('cancel-route');
    const logger = createLogger({ name: 't', level: 'silent' });
    const jobs = createJobClient({ redisUrl: testRedisUrl(), prefix, logger });
    closers.push(
      () => dropPrefix(testRedisUrl(), prefix),
      () => jobs.close(),
    );
    return { prefix, jobs, logger };
  }

  it('marks a waiting job cancelled for whichever worker takes it, and its entry failed', async () => {
    const { jobs, prefix } = await withRedis();
    const { a } = await library({ jobs });
    await t.config.updateSettings({ app: { dry_run: false } });
    const { body } = await post('/api/tools/transcoder/run-next');
    const id = body.job.id as string;
    const res = await post(`/api/jobs/transcode/${id}/cancel`);
    expect(res).toEqual({ status: 202, body: { cancelled: true, job: { id, queue: 'transcode', state: 'waiting' }, status_url: `/api/jobs/transcode/${id}` } });
    const queue = jobs.queues().find((q) => q.name === 'transcode')!;
    expect(await isCancelRequested(await queue.client, prefix, { queue: 'transcode', id })).toBe(true);
    expect(t.config.currentState().transcodes[a]).toMatchObject({ status: 'failed', error: 'cancelled' });
  });

  it('404 for an unknown job, 409 for a finished one', async () => {
    const { jobs, prefix, logger } = await withRedis();
    t = await testApp({ jobs });
    expect((await post('/api/jobs/transcode/999/cancel')).status).toBe(404);
    const item = { path: '/x.avi', ext: '.avi', bytes: 1, kind: null, title: null, status: 'queued' as const };
    const result = {
      item,
      output: '/x.mp4',
      command: [],
      encoder: null,
      dropped: [],
      original_removed: false,
      original_recycled_to: null,
      before: null,
      after: null,
      seconds: null,
    };
    const host = createWorkerHost({ redisUrl: testRedisUrl(), prefix, queues: ['transcode'], logger, handlers: { 'transcode-run': async () => result } });
    closers.push(() => host.close());
    const [job] = await jobs.queueTranscodes([{ payload: { item }, jobId: newTranscodeJobId(), priority: 1 }]);
    await expect.poll(async () => (await jobs.get('transcode', job!.id))?.state, { timeout: 10_000 }).toBe('completed');
    expect(await post(`/api/jobs/transcode/${job!.id}/cancel`)).toMatchObject({ status: 409, body: { error: { code: 'conflict' } } });
  });

  it('answers 503 without Redis', async () => {
    t = await testApp({ jobs: { ...stubJobs(), get: () => Promise.reject(new AppError('unavailable', 'the job queue cannot be reached')) } });
    expect((await post('/api/jobs/transcode/1/cancel')).status).toBe(503);
    expect(await readdir(t.install.paths.data)).not.toContain('state.json');
  });
});

describe('POST /api/tools/transcoder/run-all', () => {
  it('with dry_run on, lists every queued entry in run order with its command, and queues nothing', async () => {
    const calls: any[] = [];
    const { a, b, e1 } = await library({ jobs: recordingJobs(calls) });
    await t.config.state.update((s) => ({ ...s, transcodes: { [e1]: { ...queuedEntry('t'), priority: 2 } } }));
    await t.config.refresh();
    const { status, body } = await post('/api/tools/transcoder/run-all');
    expect(status).toBe(200);
    expect(body.dry_run).toBe(true);
    expect(body.total).toBe(3);
    expect(body.items.map((i: any) => i.item.path)).toEqual([e1, a, b]);
    expect(body.items.every((i: any) => i.command[0] === 'ffmpeg' && i.error === null)).toBe(true);
    expect(calls).toEqual([]);
  });

  it('with dry_run off, queues one job per queued entry in one go, each with its priority, and skips the rest', async () => {
    const calls: any[] = [];
    const { a, b, e1 } = await library({ jobs: recordingJobs(calls) });
    await t.config.updateSettings({ app: { dry_run: false } });
    await t.config.state.update((s) => ({ ...s, transcodes: { [b]: rec('failed', { error: 'boom' }), [e1]: { ...queuedEntry('t'), priority: 4 } } }));
    const { status, body } = await post('/api/tools/transcoder/run-all');
    expect(status).toBe(202);
    expect(body.queued).toBe(2);
    expect(body.jobs.map((j: any) => j.path)).toEqual([e1, a]);
    expect(calls.map((c) => [c.payload.item.path, c.priority])).toEqual([
      [e1, 999_997],
      [a, 1_000_001],
    ]);
    const state = t.config.currentState().transcodes;
    expect(state[e1]).toMatchObject({ status: 'queued', job_id: body.jobs[0].job.id, priority: 4 });
    expect(state[b]).toMatchObject({ status: 'failed' });
    expect(await post('/api/tools/transcoder/run-all')).toEqual({ status: 200, body: { queued: 0, jobs: [], paused: false } });
  });

  it('?expect= queues only when that many entries wait, the number the user was asked about; otherwise 409 and nothing changes', async () => {
    const calls: any[] = [];
    await library({ jobs: recordingJobs(calls) });
    await t.config.updateSettings({ app: { dry_run: false } });
    const before = t.config.currentState().transcodes;
    const changed = await post('/api/tools/transcoder/run-all?expect=2');
    expect(changed).toMatchObject({ status: 409, body: { error: { code: 'conflict', details: { reason: 'changed', key: 'expect', waiting: 3 } } } });
    expect(changed.body.error.message).toBe('The line changed: 3 files wait to be queued now, not the 2 asked about. Nothing was queued; ask again.');
    expect(calls).toEqual([]);
    expect(t.config.currentState().transcodes).toEqual(before);
    for (const bad of ['-1', '1e2', 'x', '2.5']) {
      expect(await post(`/api/tools/transcoder/run-all?expect=${bad}`)).toMatchObject({ status: 400, body: { error: { details: { key: 'expect' } } } });
    }
    expect(calls).toEqual([]);
    const res = await post('/api/tools/transcoder/run-all?expect=3');
    expect(res).toMatchObject({ status: 202, body: { queued: 3 } });
    expect(calls).toHaveLength(3);
  });

  it('queues a long line in batches; a batch Redis refuses, and every one after it, goes back in line', async () => {
    let calls = 0;
    const sizes: number[] = [];
    const jobs: JobClient = {
      ...recordingJobs([]),
      queueTranscodes: async (batch) => {
        sizes.push(batch.length);
        if (++calls === 2) throw new AppError('unavailable', 'the job queue cannot be reached');
        return batch.map((j) => ({ id: j.jobId, queue: 'transcode' as const, state: 'waiting' as const }));
      },
    };
    t = await testApp({ jobs });
    const items = Array.from({ length: 450 }, (_, i) => {
      const path = `${t.install.paths.drive}/Movies/M${String(i).padStart(3, '0')} (2000)/M.avi`;
      return {
        path,
        drive: 'disk1',
        section: 'movies' as const,
        root: `${t.install.paths.drive}/Movies`,
        folder: path.slice(0, path.lastIndexOf('/')),
        bytes: 1,
        mtime_ms: 0,
        ext: '.avi',
        type: 'video' as const,
        title: 'M',
        year: 2000,
        season: null,
        episodes: [],
        air_date: null,
        extra: false,
        nfo: null,
      };
    });
    await writeLibraryIndex(t.config.current().paths.data, {
      version: 1,
      scanned_at: new Date().toISOString(),
      duration_ms: 1,
      truncated: false,
      timed_out: false,
      skipped: [],
      drives: [],
      items,
    });
    await t.library.refresh();
    await t.config.updateSettings({ app: { dry_run: false } });
    const writes = vi.spyOn(t.config.transcodes, 'update');
    const res = await post('/api/tools/transcoder/run-all');
    expect(res.status).toBe(202);
    expect(sizes).toEqual([200, 200]);
    // One write claims the whole line and one gives back what was not queued, however long the line.
    expect(writes).toHaveBeenCalledTimes(2);
    expect(res.body.queued).toBe(200);
    const records = Object.values(t.config.currentState().transcodes);
    expect(records).toHaveLength(200);
    expect(records.every((r) => r.status === 'queued' && r.job_id !== null)).toBe(true);
    expect((await get('/api/tools/transcoder')).body.queue.filter((e: any) => e.job_id === null)).toHaveLength(250);
  });

  it('gives every entry back when the jobs cannot be queued', async () => {
    await library({ jobs: recordingJobs([], new AppError('unavailable', 'the job queue cannot be reached')) });
    await t.config.updateSettings({ app: { dry_run: false } });
    expect((await post('/api/tools/transcoder/run-all')).status).toBe(503);
    expect(t.config.currentState().transcodes).toEqual({});
  });
});

describe('steering the queue in bulk: run-all while paused, cancel-all', () => {
  /** A real job client and a worker whose transcodes wait for `release`, each recording its entry's path. */
  async function withWorker() {
    const prefix = uniquePrefix('bulk-route');
    const logger = createLogger({ name: 't', level: 'silent' });
    const jobs = createJobClient({ redisUrl: testRedisUrl(), prefix, logger });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const ran: string[] = [];
    const host = createWorkerHost({
      redisUrl: testRedisUrl(),
      prefix,
      queues: ['transcode'],
      logger,
      handlers: {
        'transcode-run': async ({ item }) => {
          ran.push(item.path);
          await gate;
          return {
            item: { ...item, status: 'done' as const },
            output: item.path,
            command: [],
            encoder: null,
            dropped: [],
            original_removed: false,
            original_recycled_to: null,
            before: null,
            after: null,
            seconds: null,
          };
        },
      },
    });
    // Released first on the way out, so that a failed test leaves no transcode holding the worker.
    closers.push(
      () => dropPrefix(testRedisUrl(), prefix),
      () => jobs.close(),
      () => host.close(),
      async () => release(),
    );
    return { jobs, ran, release };
  }

  it('run-all while paused queues every entry (202, "paused": true) and the jobs wait for resume', async () => {
    const { jobs, ran, release } = await withWorker();
    const { a, b, e1 } = await library({ jobs });
    await t.config.updateSettings({ app: { dry_run: false } });
    expect(await post('/api/tools/transcoder/pause')).toEqual({ status: 200, body: { paused: true } });
    const res = await post('/api/tools/transcoder/run-all');
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ queued: 3, paused: true });
    expect(res.body.jobs.map((j: any) => j.path)).toEqual([a, b, e1]);
    const records = t.config.currentState().transcodes;
    expect([a, b, e1].map((p) => records[p])).toEqual(res.body.jobs.map((j: any) => expect.objectContaining({ status: 'queued', job_id: j.job.id })));
    await new Promise((r) => setTimeout(r, 500));
    expect(ran).toEqual([]);
    release();
    expect(await post('/api/tools/transcoder/resume')).toEqual({ status: 200, body: { paused: false } });
    await expect.poll(() => ran.length, { timeout: 10_000 }).toBe(3);
    expect(ran).toEqual([a, b, e1]);
  });

  it('cancel-all ends every job not yet started and puts its entry back in line; the running one goes on', async () => {
    const { jobs, ran, release } = await withWorker();
    const { a, b, e1 } = await library({ jobs });
    await t.config.updateSettings({ app: { dry_run: false } });
    const queued = (await post('/api/tools/transcoder/run-all')).body.jobs.map((j: any) => j.job.id as string);
    await expect.poll(() => ran.length, { timeout: 10_000 }).toBe(1);
    expect(await post('/api/tools/transcoder/cancel-all')).toEqual({ status: 200, body: { cancelled: 2 } });
    expect(await Promise.all(queued.map(async (id: string) => (await jobs.get('transcode', id))?.state ?? null))).toEqual(['active', null, null]);
    const listed = (await get('/api/tools/transcoder')).body.queue;
    expect(listed.map((e: any) => [e.path, e.status, e.job_id])).toEqual([
      [a, 'queued', queued[0]],
      [b, 'queued', null],
      [e1, 'queued', null],
    ]);
    expect(await post('/api/tools/transcoder/cancel-all')).toEqual({ status: 200, body: { cancelled: 0 } });
    release();
    await expect.poll(async () => (await jobs.get('transcode', queued[0]))?.state, { timeout: 10_000 }).toBe('completed');
    expect(ran).toEqual([a]);
  });

  it('cancel-all answers 503 without Redis and changes nothing; it takes no other method', async () => {
    await library({ jobs: { ...recordingJobs([]), removeWaiting: () => Promise.reject(new AppError('unavailable', 'the job queue cannot be reached')) } });
    await t.config.updateSettings({ app: { dry_run: false } });
    await post('/api/tools/transcoder/run-all');
    const before = t.config.currentState().transcodes;
    expect(Object.keys(before)).toHaveLength(3);
    expect(await post('/api/tools/transcoder/cancel-all')).toMatchObject({ status: 503, body: { error: { code: 'unavailable' } } });
    expect((await t.config.state.read()).transcodes).toEqual(before);
    expect((await t.app.request('/api/tools/transcoder/cancel-all')).status).toBe(405);
    expect((await t.app.request('/api/tools/transcoder/cancel-all', { method: 'PUT' })).status).toBe(405);
  });
});

describe('POST /api/tools/transcoder/priority', () => {
  it('gives an entry a priority or moves it to the top, and a waiting job moves with it', async () => {
    const calls: any[] = [];
    const { a, b, e1 } = await library({ jobs: recordingJobs(calls) });
    const set = await post('/api/tools/transcoder/priority', { path: b, priority: 5 });
    expect(set.status).toBe(200);
    expect(set.body.item).toMatchObject({ path: b, priority: 5, position: 1 });
    const top = await post('/api/tools/transcoder/priority', { path: e1, top: true });
    expect(top.body.item).toMatchObject({ path: e1, priority: 6, position: 1 });
    expect((await get('/api/tools/transcoder')).body.queue.map((e: any) => [e.path, e.position])).toEqual([
      [a, 3],
      [b, 2],
      [e1, 1],
    ]);
    expect(calls).toEqual([]);

    await t.config.updateSettings({ app: { dry_run: false } });
    const queued = await post('/api/tools/transcoder/run-next');
    expect(queued.body.item.path).toBe(e1);
    await post('/api/tools/transcoder/priority', { path: e1, priority: -3 });
    expect(calls.at(-1)).toEqual({ reprioritize: { queue: 'transcode', id: queued.body.job.id, priority: 1_000_004 } });
    expect(t.config.currentState().transcodes[e1]).toMatchObject({ priority: -3, job_id: queued.body.job.id });
  });

  it('409 for top when another entry holds the highest priority already: a tie would not put it first', async () => {
    const { b, e1 } = await library({ jobs: recordingJobs([]) });
    expect((await post('/api/tools/transcoder/priority', { path: b, priority: 1_000_000 })).status).toBe(200);
    const before = (await t.config.state.read()).transcodes;
    const res = await post('/api/tools/transcoder/priority', { path: e1, top: true });
    expect(res.status).toBe(409);
    expect((await t.config.state.read()).transcodes).toEqual(before);
    // The entry that holds it may still be moved to the top: it is there already.
    expect((await post('/api/tools/transcoder/priority', { path: b, top: true })).body.item).toMatchObject({ path: b, position: 1 });
  });

  it('400 for a bad body or a priority out of range, 404 for a path not queued, 409 for one running or done; nothing changes', async () => {
    const { a, b } = await library({ jobs: recordingJobs([]) });
    await t.config.state.update((s) => ({ ...s, transcodes: { [a]: rec('running'), [b]: rec('done', { output: '/x.mp4' }) } }));
    const before = (await t.config.state.read()).transcodes;
    for (const body of [
      {},
      { path: b },
      { path: b, priority: 1.5 },
      { path: b, priority: '1' },
      { path: b, priority: 2_000_000 },
      { path: b, top: false },
      { path: b, top: true, priority: 1 },
      { path: b, priority: 1, x: 1 },
    ]) {
      expect((await post('/api/tools/transcoder/priority', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await post('/api/tools/transcoder/priority', { path: `${a}x`, priority: 1 })).status).toBe(404);
    expect((await post('/api/tools/transcoder/priority', { path: a, priority: 1 })).status).toBe(409);
    expect((await post('/api/tools/transcoder/priority', { path: b, top: true })).status).toBe(409);
    expect((await t.config.state.read()).transcodes).toEqual(before);
  });

  it("a 400 names the field of the form the body came closest to, not the body's root", async () => {
    const { b } = await library({ jobs: recordingJobs([]) });
    const cases: [unknown, string][] = [
      [{ path: b, priority: 'high' }, 'priority'],
      [{ path: b, priority: 1.5 }, 'priority'],
      [{ path: b, top: false }, 'top'],
      [{ priority: 1 }, 'path'],
    ];
    for (const [body, key] of cases) {
      const res = await post('/api/tools/transcoder/priority', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details.key, JSON.stringify(body)).toBe(key);
      expect(res.body.error.message, JSON.stringify(body)).toMatch(new RegExp(`^${key}: `));
    }
  });
});

describe('POST /api/tools/transcoder/pause and /resume', () => {
  it('keeps the pause in state.json, tells BullMQ, and refuses to run the next transcode until resumed', async () => {
    const calls: any[] = [];
    await library({ jobs: recordingJobs(calls) });
    await t.config.updateSettings({ app: { dry_run: false } });
    expect(await post('/api/tools/transcoder/pause')).toEqual({ status: 200, body: { paused: true } });
    expect((await t.config.state.read()).transcoder_paused).toBe(true);
    expect((await get('/api/tools/transcoder')).body.paused).toBe(true);
    const res = await post('/api/tools/transcoder/run-next');
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/paused/);
    expect(t.config.currentState().transcodes).toEqual({});
    expect(await post('/api/tools/transcoder/resume')).toEqual({ status: 200, body: { paused: false } });
    expect((await post('/api/tools/transcoder/run-next')).status).toBe(202);
    expect(calls.filter((c) => c.setPaused)).toEqual([
      { setPaused: { queue: 'transcode', paused: true } },
      { setPaused: { queue: 'transcode', paused: false } },
    ]);
  });

  it('pauses even while Redis is away: state.json is what the workers read', async () => {
    await library({ jobs: { ...recordingJobs([]), setPaused: () => Promise.reject(new AppError('unavailable', 'the job queue cannot be reached')) } });
    expect(await post('/api/tools/transcoder/pause')).toEqual({ status: 200, body: { paused: true } });
    expect((await t.config.state.read()).transcoder_paused).toBe(true);
  });

  it('does not resume while Redis is away: its own pause would hold every job back, and nothing would lift it', async () => {
    const calls: any[] = [];
    await library({
      jobs: {
        ...recordingJobs(calls),
        setPaused: async (queue, paused) => {
          if (!paused) throw new AppError('unavailable', 'the job queue cannot be reached');
          calls.push({ setPaused: { queue, paused } });
        },
      },
    });
    expect((await post('/api/tools/transcoder/pause')).status).toBe(200);
    const res = await post('/api/tools/transcoder/resume');
    expect(res.status).toBe(503);
    expect((await t.config.state.read()).transcoder_paused).toBe(true);
    expect((await get('/api/tools/transcoder')).body.paused).toBe(true);
  });

  it('a pause and a resume at once leave BullMQ’s pause as state.json says', async () => {
    let redisPaused = false;
    await library({
      jobs: {
        ...recordingJobs([]),
        setPaused: async (_queue, paused) => {
          if (paused) await new Promise((r) => setTimeout(r, 200));
          redisPaused = paused;
        },
      },
    });
    const pausing = post('/api/tools/transcoder/pause');
    await new Promise((r) => setTimeout(r, 50));
    await Promise.all([pausing, post('/api/tools/transcoder/resume')]);
    expect(redisPaused).toBe((await t.config.state.read()).transcoder_paused);
  });
});

describe('POST /api/tools/transcoder/discard-original', () => {
  /** `a` transcoded with keep_original: its MP4 beside it, and the record the worker leaves. */
  async function keptOriginal() {
    const files = await library({ jobs: recordingJobs([]) });
    const mp4 = files.a.replace(/\.avi$/, '.mp4');
    await makeClip(mp4, { video: 'h264', audio: 'mp3', seconds: 1 });
    const made = snapshot(await probeFile(mp4));
    const record = rec('done', { output: mp4, original: 'kept', before: made, after: made, seconds: 1 });
    await t.config.state.update((s) => ({ ...s, transcodes: { [files.a]: record } }));
    await t.config.refresh();
    return { ...files, mp4 };
  }
  const discard = (path: string) => post('/api/tools/transcoder/discard-original', { path });

  it('with dry_run on, checks the MP4 and says what it would remove, removing nothing', async () => {
    const { a } = await keptOriginal();
    const res = await discard(a);
    expect(res).toMatchObject({ status: 200, body: { dry_run: true, removed: a, item: { path: a, original: 'kept' } } });
    expect(await readdir(join(a, '..'))).toContain('A (2001).avi');
  });

  it('removes the original once the MP4 still matches, and records it', async () => {
    const { a, mp4 } = await keptOriginal();
    await t.config.updateSettings({ app: { dry_run: false } });
    const bytes = await readFile(a);
    const res = await discard(a);
    // recycle_bin is on by default: the original lies in its drive's bin, from where a restore takes it back.
    const binned = join(t.install.paths.drive, '.recycle', new Date().toISOString().slice(0, 10), 'Movies/A (2001)/A (2001).avi');
    expect(res).toMatchObject({
      status: 200,
      body: {
        dry_run: false,
        removed: a,
        recycled_to: binned,
        item: { path: a, status: 'done', original: 'removed', original_recycled_to: binned, output: mp4 },
      },
    });
    expect(await readdir(join(a, '..'))).toEqual(['A (2001).mp4']);
    expect((await readFile(binned)).equals(bytes)).toBe(true);
    expect((await discard(a)).status).toBe(409);
    expect((await get('/api/recycle')).body.items).toMatchObject([{ path: binned, original: a }]);
    expect((await post('/api/recycle/restore', { path: binned })).status).toBe(200);
    expect((await readFile(a)).equals(bytes)).toBe(true);
  });

  it('with recycle_bin off, deletes the original; with it on and a bin that cannot take it, 409 and the original stays', async () => {
    const { a } = await keptOriginal();
    await t.config.updateSettings({ app: { dry_run: false } });
    await writeFile(join(t.install.paths.drive, '.recycle'), 'a file where the bin would be');
    const res = await discard(a);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/recycle_bin is on/);
    expect((await readdir(join(a, '..'))).sort()).toEqual(['A (2001).avi', 'A (2001).mp4']);
    expect(t.config.currentState().transcodes[a]).toMatchObject({ original: 'kept' });
    await t.config.updateSettings({ library: { recycle_bin: false } });
    expect((await discard(a)).body).toMatchObject({ dry_run: false, removed: a, recycled_to: null });
    expect(await readdir(join(a, '..'))).toEqual(['A (2001).mp4']);
  });

  it('409 and the original stays when the MP4 no longer matches what was verified', async () => {
    const { a, mp4 } = await keptOriginal();
    await t.config.updateSettings({ app: { dry_run: false } });
    await makeClip(mp4, { video: 'h264', audio: 'aac', seconds: 1 });
    const res = await discard(a);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/no longer matches/);
    expect((await readdir(join(a, '..'))).sort()).toEqual(['A (2001).avi', 'A (2001).mp4']);
    expect(t.config.currentState().transcodes[a]).toMatchObject({ original: 'kept' });
  });

  it('409 and the MP4 stays when the original’s name now leads to the MP4 itself', async () => {
    const { a, mp4 } = await keptOriginal();
    await t.config.updateSettings({ app: { dry_run: false } });
    await rm(a);
    await symlink(mp4, a);
    const res = await discard(a);
    expect(res.status).toBe(409);
    expect((await readdir(join(a, '..'))).sort()).toEqual(['A (2001).avi', 'A (2001).mp4']);
    expect(t.config.currentState().transcodes[a]).toMatchObject({ original: 'kept' });
  });

  it('409 for an entry not done or whose original went with the transcode, 404 when not queued, 400 for a bad body', async () => {
    const { a, b, e1 } = await keptOriginal();
    await t.config.state.update((s) => ({
      ...s,
      transcodes: { ...s.transcodes, [b]: rec('failed'), [e1]: rec('done', { output: '/x.mp4', original: 'removed' }) },
    }));
    await t.config.updateSettings({ app: { dry_run: false } });
    expect((await discard(b)).status).toBe(409);
    expect((await discard(e1)).status).toBe(409);
    expect((await discard(`${a}.nope`)).status).toBe(404);
    for (const body of [{}, { path: '' }, { path: a, x: 1 }, [a]]) expect((await post('/api/tools/transcoder/discard-original', body)).status).toBe(400);
    expect(await readdir(join(a, '..'))).toContain('A (2001).avi');
  });
});
