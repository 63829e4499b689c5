import { Queue, UnrecoverableError } from 'bullmq';
import { apiJobOptions, SCAN_SCHEDULER_ID, transcodeJobOptions } from '@mo/shared';
import { newTranscodeJobId } from '../tools/transcode-store.ts';
import { AppError, jobFailureReason } from '../errors.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logging/logger.ts';
import { createJobClient, type JobClient } from './job-client.ts';
import { checkHandlers, createWorkerHost, isShuttingDown, type JobHandlers, type WorkerHost } from './worker-host.ts';
import { Redis } from 'ioredis';
import { dropPrefix, fastForwardStalls, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';

const logger = createLogger({ name: 'jobs-test', level: 'silent' });
const url = testRedisUrl();
const emptyScan = (dry_run: boolean) => ({
  dry_run,
  started_at: new Date().toISOString(),
  finished_at: new Date().toISOString(),
  counts: { plans: 0, moved: 0, failed: 0, skipped: 0 },
  pass_file: 'passes/1.json',
});
const summary = { files: 0, bytes: 0, movies: 0, series: 0, episodes: 0, scanned_at: null, duration_ms: 0, truncated: false, timed_out: false };

let prefix: string;
let client: JobClient | undefined;
let host: WorkerHost | undefined;

function setup(handlers: JobHandlers, queues: ('scan' | 'library')[] = ['scan']) {
  prefix = uniquePrefix('jobs');
  client = createJobClient({ redisUrl: url, prefix, logger });
  // Every job of a consumed queue needs a handler; these tests run passes and library scans only.
  host = createWorkerHost({
    redisUrl: url,
    prefix,
    queues,
    handlers: { 'manual-import': async () => Promise.reject(new Error('no manual import in this test')), ...handlers },
    logger,
  });
  return { client, host };
}

afterEach(async () => {
  await host?.close();
  await client?.close();
  host = client = undefined;
  if (prefix) await dropPrefix(url, prefix);
});

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

describe('job client and worker host', () => {
  it('a job that finishes within the wait answers with its result', async () => {
    const { client } = setup({ 'scan-pass': async () => emptyScan(true) });
    const out = await client.submit('scan-pass', { trigger: 'api' }, { waitSeconds: 10 });
    expect(out.kind).toBe('completed');
    if (out.kind === 'completed') expect(out.result).toMatchObject({ dry_run: true, counts: { plans: 0 } });
  });

  it('wait 0 answers pending at once, and the job can be followed to its result', async () => {
    const g = gate();
    const { client } = setup({
      'scan-pass': async (_p, ctx) => {
        await ctx.progress({ percent: 50 });
        await g.opened;
        return emptyScan(false);
      },
    });
    const out = await client.submit('scan-pass', { trigger: 'api' }, { waitSeconds: 0 });
    expect(out.kind).toBe('pending');
    const id = out.job.id;
    expect(out.job.queue).toBe('scan');
    await expect.poll(async () => (await client.get('scan', id))?.state, { timeout: 5000 }).toBe('active');
    await expect.poll(async () => (await client.get('scan', id))?.progress, { timeout: 5000 }).toEqual({ percent: 50 });
    g.open();
    await expect.poll(async () => (await client.get('scan', id))?.state, { timeout: 5000 }).toBe('completed');
    const view = (await client.get('scan', id))!;
    expect(view).toMatchObject({ id, queue: 'scan', name: 'scan-pass', error: null });
    expect(view.result).toMatchObject({ dry_run: false });
    expect(Date.parse(view.created_at!)).toBeLessThanOrEqual(Date.parse(view.finished_at!));
  });

  it('a short wait that runs out answers pending with the job to follow', async () => {
    const g = gate();
    const { client } = setup({ 'scan-pass': async () => (await g.opened, emptyScan(true)) });
    const out = await client.submit('scan-pass', { trigger: 'api' }, { waitSeconds: 0.3 });
    expect(out.kind).toBe('pending');
    expect(['waiting', 'active']).toContain(out.job.state);
    g.open();
  });

  it('a request while a pass is waiting or running joins that job', async () => {
    const g = gate();
    let runs = 0;
    const { client } = setup({
      'scan-pass': async () => {
        runs++;
        await g.opened;
        return emptyScan(true);
      },
    });
    const first = await client.submit('scan-pass', { trigger: 'api' }, { waitSeconds: 0 });
    const second = await client.submit('scan-pass', { trigger: 'api' }, { waitSeconds: 0 });
    const third = client.submit('scan-pass', { trigger: 'api' }, { waitSeconds: 10 });
    expect(second.job.id).toBe(first.job.id);
    g.open();
    const done = await third;
    expect(done.kind).toBe('completed');
    expect(done.job.id).toBe(first.job.id);
    expect(runs).toBe(1);
    const next = await client.submit('scan-pass', { trigger: 'api' }, { waitSeconds: 10 });
    expect(next.job.id).not.toBe(first.job.id);
    expect(runs).toBe(2);
  });

  it('jobs that do not join run once per request', async () => {
    let runs = 0;
    const { client } = setup(
      {
        'library-scan': async () => {
          runs++;
          return { summary };
        },
        // Served by every worker of the library queue; never queued here.
        'recycle-purge': async () => Promise.reject(new Error('no purge in this test')),
        'library-organize': async () => Promise.reject(new Error('no organize in this test')),
      },
      ['library'],
    );
    const a = await client.submit('library-scan', { trigger: 'api' }, { waitSeconds: 10 });
    const b = await client.submit('library-scan', { trigger: 'api' }, { waitSeconds: 10 });
    expect(a.kind).toBe('completed');
    expect(b.kind).toBe('completed');
    expect(runs).toBe(2);
  });

  it('a failing job is reported failed with its reason once its attempts are spent', async () => {
    const { client } = setup({
      'scan-pass': async () => {
        throw new Error('disk on fire');
      },
    });
    const out = await client.submit('scan-pass', { trigger: 'api' }, { waitSeconds: 0 });
    await expect.poll(async () => (await client.get('scan', out.job.id))?.state, { timeout: 30_000, interval: 200 }).toBe('failed');
    const view = (await client.get('scan', out.job.id))!;
    expect(view.error).toBe('disk on fire');
  }, 40_000);

  it('a handler result that breaks the result schema fails the job instead of reaching clients', async () => {
    const { client } = setup({ 'scan-pass': async () => ({ nonsense: true }) as never });
    const out = await client.submit('scan-pass', { trigger: 'api' }, { waitSeconds: 10 });
    expect(out.kind).toBe('failed');
    if (out.kind === 'failed') expect(out.error).toMatch(/bad result/);
  });

  it('close lets the active job finish', async () => {
    let finished = false;
    const { client, host } = setup({
      'scan-pass': async () => {
        await new Promise((r) => setTimeout(r, 800));
        finished = true;
        return emptyScan(true);
      },
    });
    const out = await client.submit('scan-pass', { trigger: 'api' }, { waitSeconds: 0 });
    await expect.poll(async () => (await client.get('scan', out.job.id))?.state, { timeout: 5000 }).toBe('active');
    await host.close();
    expect(finished).toBe(true);
    expect((await client.get('scan', out.job.id))?.state).toBe('completed');
  });

  it('counts finished jobs per queue for the metrics', async () => {
    const { client } = setup({ 'scan-pass': async () => emptyScan(true) });
    await client.submit('scan-pass', { trigger: 'api' }, { waitSeconds: 10 });
    await client.submit('scan-pass', { trigger: 'api' }, { waitSeconds: 10 });
    const scan = (await client.stats()).find((s) => s.queue === 'scan')!;
    expect(scan).toMatchObject({ completed_total: 2, failed_total: 0, counts: { completed: 2, waiting: 0, active: 0 } });
  });

  it('unknown jobs are null', async () => {
    const { client } = setup({ 'scan-pass': async () => emptyScan(true) });
    expect(await client.get('scan', 'does-not-exist')).toBeNull();
  });
});

describe('a job that fails for good', () => {
  it('hands the API the code of an AppError a retry would not fix, and the message without it', async () => {
    const { client } = setup({
      'scan-pass': async (p) => {
        throw new UnrecoverableError(p.trigger === 'api' ? jobFailureReason(new AppError('conflict', '/m/a.mkv changed')) : '[made_up] not a code');
      },
    });
    const coded = await client.submit('scan-pass', { trigger: 'api' }, { waitSeconds: 10 });
    expect(coded).toMatchObject({ kind: 'failed', code: 'conflict', error: '/m/a.mkv changed' });
    expect(await client.get('scan', coded.job.id)).toMatchObject({ state: 'failed', error: '/m/a.mkv changed', error_code: 'conflict' });
    const plain = await client.submit('scan-pass', { trigger: 'schedule' }, { waitSeconds: 10 });
    expect(plain).toMatchObject({ kind: 'failed', code: null, error: '[made_up] not a code' });
    expect(await client.get('scan', plain.job.id)).toMatchObject({ error: '[made_up] not a code', error_code: null });
  });
});

describe('jobs this service did not queue (Bull Board’s add job, a hand-made job)', () => {
  const ITEM = { path: '/m/Movies/A.avi', ext: '.avi', bytes: 1, kind: 'movie' as const, title: 'A', status: 'queued' as const };
  const transcodeResult = {
    item: { ...ITEM, status: 'done' as const },
    output: '/m/A.mp4',
    command: [],
    encoder: null,
    dropped: [],
    original_removed: false,
    original_recycled_to: null,
    before: null,
    after: null,
    seconds: null,
  };

  /** A worker on scan and transcode whose handlers count their runs, and a plain BullMQ queue to add jobs with. */
  function hostAndQueues(runs: string[]) {
    prefix = uniquePrefix('jobs');
    client = createJobClient({ redisUrl: url, prefix, logger });
    host = createWorkerHost({
      redisUrl: url,
      prefix,
      queues: ['scan', 'transcode'],
      logger,
      handlers: {
        'scan-pass': async () => (runs.push('scan-pass'), emptyScan(true)),
        'manual-import': async () => Promise.reject(new Error('no manual import in this test')),
        'transcode-run': async () => (runs.push('transcode-run'), transcodeResult),
      },
    });
    const conn = { host: new URL(url).hostname, port: Number(new URL(url).port || 6379), maxRetriesPerRequest: null };
    const scan = new Queue('scan', { connection: conn, prefix });
    const transcode = new Queue('transcode', { connection: conn, prefix });
    return { scan, transcode, close: () => Promise.all([scan.close(), transcode.close()]) };
  }

  async function keys(): Promise<string[]> {
    const r = new Redis(url, { maxRetriesPerRequest: 1 });
    try {
      return (await r.keys(`${prefix}:*`)).map((k) => k.slice(prefix.length + 1)).sort();
    } finally {
      r.disconnect();
    }
  }

  it('refuses and removes a job with repeat options, with its schedule, before it runs', async () => {
    const runs: string[] = [];
    const q = hostAndQueues(runs);
    try {
      await q.transcode.add('transcode-run', { item: ITEM }, { repeat: { every: 200 }, removeOnFail: false });
      await q.scan.add('scan-pass', { trigger: 'api' }, { repeat: { pattern: '* * * * * *' } });
      await expect.poll(async () => (await q.transcode.getJobSchedulers()).length + (await q.scan.getJobSchedulers()).length, { timeout: 10_000 }).toBe(0);
      await expect.poll(async () => (await keys()).filter((k) => /:(repeat|\d)/.test(k)), { timeout: 10_000 }).toEqual([]);
      for (const queue of [q.scan, q.transcode]) expect(Object.values(await queue.getJobCounts()).reduce((a, b) => a + b, 0)).toBe(0);
      expect(runs).toEqual([]);
    } finally {
      await q.close();
    }
  });

  it('refuses and removes a job with a delay, lifo, an id the API does not give or kept forever', async () => {
    const runs: string[] = [];
    const q = hostAndQueues(runs);
    try {
      const base = transcodeJobOptions(newTranscodeJobId(), 1);
      const added = [
        await q.transcode.add('transcode-run', { item: ITEM }, { ...base, jobId: newTranscodeJobId(), delay: 50 }),
        await q.transcode.add('transcode-run', { item: ITEM }, { ...base, jobId: newTranscodeJobId(), lifo: true }),
        await q.transcode.add('transcode-run', { item: ITEM }, { ...base, jobId: 'mine' }),
        await q.transcode.add('transcode-run', { item: ITEM }, { ...base, jobId: newTranscodeJobId(), removeOnFail: false }),
        await q.transcode.add('evil', { item: ITEM }, { ...base, jobId: newTranscodeJobId() }),
      ];
      for (const job of added) await expect.poll(() => client!.get('transcode', job.id!), { timeout: 10_000 }).toBeNull();
      expect(runs).toEqual([]);
    } finally {
      await q.close();
    }
  });

  it('refuses a payload with keys the API does not send, keeping the record with why', async () => {
    const runs: string[] = [];
    const q = hostAndQueues(runs);
    try {
      const job = await q.transcode.add('transcode-run', { item: { ...ITEM, keep_original: false } }, transcodeJobOptions(newTranscodeJobId(), 1));
      await expect.poll(async () => (await client!.get('transcode', job.id!))?.state, { timeout: 10_000 }).toBe('failed');
      expect(await client!.get('transcode', job.id!)).toMatchObject({
        error_code: 'bad_request',
        error: expect.stringMatching(/^bad payload for transcode-run: item\.keep_original: unknown key; nothing was done$/),
      });
      expect(runs).toEqual([]);
    } finally {
      await q.close();
    }
  });

  it('runs what the API queues, and the periodic scan’s own jobs', async () => {
    const runs: string[] = [];
    const q = hostAndQueues(runs);
    try {
      const { deduplication: _, ...opts } = apiJobOptions('scan-pass');
      await q.scan.upsertJobScheduler(SCAN_SCHEDULER_ID, { every: 60_000 }, { name: 'scan-pass', data: { trigger: 'schedule' }, opts });
      const [job] = await client!.queueTranscodes([{ payload: { item: ITEM }, jobId: newTranscodeJobId(), priority: 1 }]);
      await expect.poll(async () => (await client!.get('transcode', job!.id))?.state, { timeout: 10_000 }).toBe('completed');
      await expect.poll(() => runs.sort(), { timeout: 10_000 }).toEqual(['scan-pass', 'transcode-run']);
    } finally {
      await q.close();
    }
  });

  it('removes at start the job schedules it did not make, keeping the periodic scan', async () => {
    prefix = uniquePrefix('jobs');
    const conn = { host: new URL(url).hostname, port: Number(new URL(url).port || 6379), maxRetriesPerRequest: null };
    const scan = new Queue('scan', { connection: conn, prefix });
    const transcode = new Queue('transcode', { connection: conn, prefix });
    try {
      await scan.upsertJobScheduler(SCAN_SCHEDULER_ID, { every: 3_600_000 }, { name: 'scan-pass', data: { trigger: 'schedule' } });
      await scan.upsertJobScheduler('hourly-extra', { every: 3_600_000 }, { name: 'scan-pass', data: { trigger: 'schedule' } });
      await transcode.add('transcode-run', { item: ITEM }, { repeat: { every: 3_600_000, offset: 1_000_000 } });
      host = createWorkerHost({
        redisUrl: url,
        prefix,
        queues: ['scan', 'transcode'],
        logger,
        handlers: {
          'scan-pass': async () => emptyScan(true),
          'manual-import': async () => Promise.reject(new Error('no manual import in this test')),
          'transcode-run': async () => transcodeResult,
        },
      });
      await expect
        .poll(async () => [...(await scan.getJobSchedulers()), ...(await transcode.getJobSchedulers())].map((s) => s.key), { timeout: 10_000 })
        .toEqual([SCAN_SCHEDULER_ID]);
    } finally {
      await Promise.all([scan.close(), transcode.close()]);
    }
  });
});

describe('failure hooks', () => {
  const TRACKS = { path: '/x.mkv', action: 'remove' as const, stream: 1, before: [] };
  /** A worker on the media queue; with `calls`, a failure hook that records each call there. */
  const mediaHost = (handler: JobHandlers['media-tracks'], calls?: string[]) =>
    createWorkerHost({
      redisUrl: url,
      prefix,
      queues: ['media'],
      logger,
      handlers: { 'media-tracks': handler },
      ...(calls ? { onFailed: { 'media-tracks': async (payload, jobId, reason) => void calls.push(`${payload.path} ${jobId} ${reason}`) } } : {}),
    });

  it('run once a job has failed for good, with its payload and reason', async () => {
    prefix = uniquePrefix('jobs');
    client = createJobClient({ redisUrl: url, prefix, logger });
    const calls: string[] = [];
    let attempts = 0;
    host = mediaHost(async () => {
      attempts++;
      throw new UnrecoverableError('gone for good');
    }, calls);
    const out = await client.submit('media-tracks', TRACKS, { waitSeconds: 10 });
    expect(out.kind).toBe('failed');
    await expect.poll(() => calls, { timeout: 5000 }).toEqual([`/x.mkv ${out.job.id} gone for good`]);
    expect(attempts).toBe(1);
  });

  it('run for a job BullMQ fails for stalling once its worker is gone, in another worker', async () => {
    prefix = uniquePrefix('jobs');
    client = createJobClient({ redisUrl: url, prefix, logger });
    const started = gate();
    const hang = gate();
    // The worker that "dies": its handler hangs until the end of the test.
    const dead = mediaHost(async () => {
      started.open();
      await hang.opened;
      throw new Error('too late');
    });
    try {
      const out = await client.submit('media-tracks', TRACKS, { waitSeconds: 0 });
      await started.opened;
      // It has stalled once before, and now its lock is gone: the next stalled check fails it.
      const r = new Redis(url, { maxRetriesPerRequest: 1 });
      await r.hset(`${prefix}:media:${out.job.id}`, 'stc', 1);
      r.disconnect();
      await fastForwardStalls(url, prefix, 'media');
      const calls: string[] = [];
      host = mediaHost(async () => Promise.reject(new Error('not this one')), calls);
      await expect.poll(() => calls, { timeout: 10_000 }).toEqual([`/x.mkv ${out.job.id} job stalled more than allowable limit`]);
    } finally {
      hang.open();
      await dead.close();
    }
  });
});

describe('shutting down', () => {
  it('aborts a long job and hands it back, attempt uncounted, so that the next worker runs it', async () => {
    const started = gate();
    const aborted: boolean[] = [];
    const { client, host: first } = setup({
      // An hour's work that only its signal ends, as a transcode's ffmpeg.
      'scan-pass': async (_p, ctx) => {
        started.open();
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
        aborted.push(isShuttingDown(ctx.signal));
        throw ctx.signal.reason;
      },
    });
    const out = await client.submit('scan-pass', { trigger: 'api' }, { waitSeconds: 0 });
    if (out.kind !== 'pending') throw new Error(`expected pending, got ${out.kind}`);
    await started.opened;
    const closing = Date.now();
    await first.close();
    expect(Date.now() - closing).toBeLessThan(2000);
    expect(aborted).toEqual([true]);
    const queue = new Queue('scan', { connection: { host: new URL(url).hostname, port: Number(new URL(url).port || 6379) }, prefix });
    try {
      expect(await queue.getJobState(out.job.id)).toBe('waiting');
      const attempts: number[] = [];
      host = createWorkerHost({
        redisUrl: url,
        prefix,
        queues: ['scan'],
        handlers: {
          'manual-import': async () => Promise.reject(new Error('none')),
          'scan-pass': async (_p, ctx) => (attempts.push(ctx.attempt), emptyScan(false)),
        },
        logger,
      });
      await expect.poll(() => queue.getJobState(out.job.id), { timeout: 10_000 }).toBe('completed');
      expect(attempts).toEqual([1]);
    } finally {
      await queue.close();
    }
  });
});

describe('jobOutcomes', () => {
  it('tells what the queue says of each job, with the reason of a failure, and null for a job it does not have', async () => {
    const { client, host } = setup({
      'scan-pass': async (p) => {
        if (p.trigger === 'schedule') throw new UnrecoverableError('no good');
        return emptyScan(true);
      },
    });
    const done = await client.submit('scan-pass', { trigger: 'api' }, { waitSeconds: 10 });
    const failed = await client.submit('scan-pass', { trigger: 'schedule' }, { waitSeconds: 10 });
    const outcomes = await host.jobOutcomes('scan', [done.job.id, failed.job.id, '999999']);
    expect(Object.fromEntries(outcomes)).toEqual({
      [done.job.id]: { state: 'completed', reason: null },
      [failed.job.id]: { state: 'failed', reason: 'no good' },
      '999999': null,
    });
    await expect(host.jobOutcomes('media', ['1'])).rejects.toThrow(/does not consume the media queue/);
  });

  it('answers for every id of a list longer than one batch, each by its own id', async () => {
    const { client, host } = setup({ 'scan-pass': async () => emptyScan(true) });
    const done = await client.submit('scan-pass', { trigger: 'api' }, { waitSeconds: 10 });
    const ids = Array.from({ length: 1200 }, (_, i) => (i === 777 ? done.job.id : `missing-${i}`));
    const outcomes = await host.jobOutcomes('scan', ids);
    expect([...outcomes.keys()]).toEqual(ids);
    expect([...outcomes.entries()].filter(([, o]) => o !== null)).toEqual([[done.job.id, { state: 'completed', reason: null }]]);
  });
});

describe('checkHandlers', () => {
  it('fails at start when a consumed queue has a job without a handler', () => {
    expect(() => checkHandlers(['scan', 'media'], { 'scan-pass': async () => emptyScan(true) })).toThrow(/media-tracks/);
    expect(() => checkHandlers(['scan'], { 'scan-pass': async () => emptyScan(true) })).toThrow(/manual-import/);
    expect(() =>
      checkHandlers(['scan'], { 'scan-pass': async () => emptyScan(true), 'manual-import': async () => Promise.reject(new Error('unused')) }),
    ).not.toThrow();
  });
});
