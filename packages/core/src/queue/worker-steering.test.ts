import { afterEach, describe, expect, it } from 'vitest';
import type { JobPayload, JobResult } from '@mo/shared';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { createLogger } from '../logging/logger.ts';
import { bullPriority } from '../tools/transcode-entries.ts';
import { newTranscodeJobId } from '../tools/transcode-store.ts';
import { createJobClient } from './job-client.ts';
import { createWorkerHost, type JobContext } from './worker-host.ts';

const url = testRedisUrl();
const logger = createLogger({ name: 'steering-test', level: 'silent' });
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const item = (path: string): JobPayload<'transcode-run'>['item'] => ({ path, ext: '.mkv', bytes: 1, kind: 'movie', title: 'A', status: 'queued' });
const result = (path: string): JobResult<'transcode-run'> => ({
  item: { ...item(path), status: 'done' },
  output: path,
  command: [],
  encoder: null,
  dropped: [],
  original_removed: false,
  original_recycled_to: null,
  before: null,
  after: null,
  seconds: null,
});

function setup(handler: (payload: JobPayload<'transcode-run'>, ctx: JobContext) => Promise<JobResult<'transcode-run'>>, concurrency = 1) {
  const prefix = uniquePrefix('steering');
  const jobs = createJobClient({ redisUrl: url, prefix, logger });
  const host = createWorkerHost({
    redisUrl: url,
    prefix,
    queues: ['transcode'],
    logger,
    concurrency: { transcode: concurrency },
    handlers: { 'transcode-run': handler },
  });
  closers.push(
    () => dropPrefix(url, prefix),
    () => jobs.close(),
    () => host.close(),
  );
  return { jobs, host };
}

describe('steering the transcode queue through BullMQ', () => {
  it('runs jobs in the order of their priority, moved ones included', async () => {
    const ran: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { jobs, host } = setup(async ({ item: i }) => {
      ran.push(i.path);
      await gate;
      return result(i.path);
    });
    host.setPaused('transcode', true);
    const add = (path: string, priority: number) => ({ payload: { item: item(path) }, jobId: newTranscodeJobId(), priority: bullPriority(priority) });
    const [, , c] = await jobs.queueTranscodes([add('/a.mkv', 0), add('/b.mkv', 5), add('/c.mkv', 0), add('/d.mkv', -1)]);
    expect(await jobs.reprioritize('transcode', c!.id, bullPriority(9))).toBe(true);
    release();
    host.setPaused('transcode', false);
    await expect.poll(() => ran.length, { timeout: 10_000 }).toBe(4);
    expect(ran).toEqual(['/c.mkv', '/b.mkv', '/a.mkv', '/d.mkv']);
  });

  it('moves a job put back to wait (a pause caught it) as well as one waiting', async () => {
    const ran: string[] = [];
    const deferred = new Set<string>();
    const { jobs, host } = setup(async ({ item: i }, ctx) => {
      if (!deferred.has(i.path)) {
        deferred.add(i.path);
        return ctx.defer(300);
      }
      ran.push(i.path);
      return result(i.path);
    });
    const add = (path: string, priority: number) => ({ payload: { item: item(path) }, jobId: newTranscodeJobId(), priority: bullPriority(priority) });
    const [a, b] = await jobs.queueTranscodes([add('/a.mkv', 5), add('/b.mkv', 0)]);
    await expect.poll(() => deferred.size, { timeout: 10_000 }).toBe(2);
    host.setPaused('transcode', true);
    expect((await jobs.get('transcode', b!.id))?.state).toBe('delayed');
    expect(await jobs.reprioritize('transcode', b!.id, bullPriority(9))).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    host.setPaused('transcode', false);
    await expect.poll(() => ran.length, { timeout: 10_000 }).toBe(2);
    expect(ran).toEqual(['/b.mkv', '/a.mkv']);
    expect((await jobs.get('transcode', a!.id))?.state).toBe('completed');
  });

  it('a paused box finishes what runs and starts nothing new until resumed', async () => {
    const ran: string[] = [];
    const { jobs, host } = setup(async ({ item: i }) => {
      ran.push(i.path);
      await new Promise((r) => setTimeout(r, 300));
      return result(i.path);
    });
    const [first] = await jobs.queueTranscodes([{ payload: { item: item('/a.mkv') }, jobId: newTranscodeJobId(), priority: 1 }]);
    await expect.poll(async () => (await jobs.get('transcode', first!.id))?.state, { timeout: 10_000 }).toBe('active');
    host.setPaused('transcode', true);
    const [second] = await jobs.queueTranscodes([{ payload: { item: item('/b.mkv') }, jobId: newTranscodeJobId(), priority: 1 }]);
    await expect.poll(async () => (await jobs.get('transcode', first!.id))?.state, { timeout: 10_000 }).toBe('completed');
    await new Promise((r) => setTimeout(r, 1000));
    expect((await jobs.get('transcode', second!.id))?.state).toBe('waiting');
    host.setPaused('transcode', false);
    await expect.poll(async () => (await jobs.get('transcode', second!.id))?.state, { timeout: 10_000 }).toBe('completed');
    expect(ran).toEqual(['/a.mkv', '/b.mkv']);
  });

  it('runs as many transcodes at once as its concurrency allows', async () => {
    let running = 0;
    let most = 0;
    const { jobs } = setup(async ({ item: i }) => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 400));
      running--;
      return result(i.path);
    }, 2);
    const queued = await jobs.queueTranscodes(
      ['/a.mkv', '/b.mkv', '/c.mkv', '/d.mkv'].map((p) => ({ payload: { item: item(p) }, jobId: newTranscodeJobId(), priority: 1 })),
    );
    for (const job of queued) await expect.poll(async () => (await jobs.get('transcode', job.id))?.state, { timeout: 10_000 }).toBe('completed');
    expect(most).toBe(2);
  });

  it('a deferred job waits without using an attempt, then runs', async () => {
    let calls = 0;
    const { jobs } = setup(async ({ item: i }, ctx) => {
      if (++calls === 1) return ctx.defer(200);
      return result(i.path);
    });
    const [job] = await jobs.queueTranscodes([{ payload: { item: item('/a.mkv') }, jobId: newTranscodeJobId(), priority: 1 }]);
    await expect.poll(async () => (await jobs.get('transcode', job!.id))?.state, { timeout: 10_000 }).toBe('completed');
    expect(calls).toBe(2);
    const record = await jobs
      .queues()
      .find((q) => q.name === 'transcode')!
      .getJob(job!.id);
    expect(record?.attemptsMade).toBe(1);
  });
});
