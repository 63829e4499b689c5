import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AppError,
  createJobClient,
  createLogger,
  createWorkerHost,
  libraryScanOptions, scanLibrary,
  writeLibraryIndex,
  type JobClient,
} from '@mo/core';
import { makeClip } from '@mo/core/media/test-fixtures/clips.ts';
import { isCancelRequested } from '@mo/core/queue/job-cancel.ts';
import { runNextResponse, transcoderResponse, transcodeRetryResponse } from '@mo/shared';
import { dropPrefix, testRedisUrl, uniquePrefix } from '../../../../test/support/redis.ts';
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

function recordingJobs(calls: unknown[], fail?: Error): JobClient {
  let id = 40;
  return {
    ...stubJobs(),
    submit: async (name, payload) => {
      if (fail) throw fail;
      calls.push({ name, payload });
      return { kind: 'pending', job: { id: String(++id), queue: 'transcode', state: 'waiting' } };
    },
  };
}

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
async function post(path: string) {
  const res = await t.app.request(path, { method: 'POST' });
  return { status: res.status, body: (await res.json()) as any };
}

describe('GET /api/tools/transcoder', () => {
  it('is empty before the first library scan', async () => {
    t = await testApp();
    expect(await get('/api/tools/transcoder')).toEqual({ status: 200, body: { scanned_at: null, queue: [] } });
  });

  it('lists indexed video that is not MP4, by path, with each entry’s status from the state', async () => {
    const { a, b, e1 } = await library();
    await t.config.state.update((s) => ({
      ...s,
      transcodes: { [b]: { status: 'failed', job_id: '3', updated_at: new Date().toISOString(), output: null, error: 'boom' } },
    }));
    await t.config.refresh();
    const { status, body } = await get('/api/tools/transcoder');
    expect(status).toBe(200);
    expect(transcoderResponse.safeParse(body).success).toBe(true);
    expect(body.scanned_at).toBe(t.library.header()!.scanned_at);
    expect(body.queue.map((e: any) => [e.path, e.ext, e.kind, e.status])).toEqual([
      [a, '.avi', 'movie', 'queued'],
      [b, '.avi', 'movie', 'failed'],
      [e1, '.avi', 'episode', 'queued'],
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

  it('with dry_run off, queues the next entry, answers 202 at once, and marks it running', async () => {
    const calls: any[] = [];
    const { a, b, e1 } = await library({ jobs: recordingJobs(calls) });
    await t.config.updateSettings({ app: { dry_run: false } });
    // Read once before, so that a cached answer has to notice the status change.
    expect((await get('/api/tools/transcoder')).body.queue.map((e: any) => e.status)).toEqual(['queued', 'queued', 'queued']);
    const first = await post('/api/tools/transcoder/run-next');
    expect(first.status).toBe(202);
    expect(runNextResponse.safeParse(first.body).success).toBe(true);
    expect(first.body).toMatchObject({ item: { path: a, status: 'running' }, job: { id: '41', queue: 'transcode' }, status_url: '/api/jobs/transcode/41' });
    expect(calls[0]).toMatchObject({ name: 'transcode-run', payload: { item: { path: a, status: 'queued' } } });
    expect(t.config.currentState().transcodes[a]).toMatchObject({ status: 'running', job_id: '41' });
    // Two at once take two different entries.
    const [second, third] = await Promise.all([post('/api/tools/transcoder/run-next'), post('/api/tools/transcoder/run-next')]);
    expect([second.body.item.path, third.body.item.path].sort()).toEqual([b, e1].sort());
    expect(await post('/api/tools/transcoder/run-next')).toEqual({ status: 200, body: { item: null } });
    expect((await get('/api/tools/transcoder')).body.queue.map((e: any) => e.status)).toEqual(['running', 'running', 'running']);
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
  const entry = (status: 'running' | 'done' | 'failed') => ({ status, job_id: '3', updated_at: new Date().toISOString(), output: null, error: status === 'failed' ? 'boom' : null });
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
    closers.push(() => dropPrefix(testRedisUrl(), prefix), () => jobs.close());
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
    const host = createWorkerHost({
      redisUrl: testRedisUrl(), prefix, queues: ['transcode'], logger,
      handlers: { 'transcode-run': async () => ({ item, output: '/x.mp4', command: [], encoder: null, dropped: [], original_removed: false }) },
    });
    closers.push(() => host.close());
    const done = await jobs.submit('transcode-run', { item }, { waitSeconds: 10 });
    expect(done.kind).toBe('completed');
    expect(await post(`/api/jobs/transcode/${done.job.id}/cancel`)).toMatchObject({ status: 409, body: { error: { code: 'conflict' } } });
  });

  it('answers 503 without Redis', async () => {
    t = await testApp({ jobs: { ...stubJobs(), get: () => Promise.reject(new AppError('unavailable', 'the job queue cannot be reached')) } });
    expect((await post('/api/jobs/transcode/1/cancel')).status).toBe(503);
    expect(await readdir(t.install.paths.data)).not.toContain('state.json');
  });
});
