import { hostname } from 'node:os';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { WorkerRecord } from '@mo/shared';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { createLogger } from '../logging/logger.ts';
import { workersReport } from './worker-health.ts';
import { startWorkerHeartbeat, type WorkerHeartbeat } from './worker-heartbeat.ts';
import { deleteWorkerRecord, readWorkerRecords, saveWorkerRecord, workerIndexKey, workerRecordKey } from './worker-registry.ts';

const url = testRedisUrl();
const redis = new Redis(url);
const logger = createLogger({ name: 't', level: 'silent' });
const prefixes: string[] = [];
const beats: WorkerHeartbeat[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function prefix(): string {
  const p = uniquePrefix('workers');
  prefixes.push(p);
  return p;
}

function record(fields: Partial<WorkerRecord> = {}): WorkerRecord {
  return {
    id: 'box:1:aa',
    host: 'box',
    pid: 1,
    queues: ['scan'],
    concurrency: { scan: 1 },
    encoders: [],
    encoder_errors: {},
    encoders_tested_at: null,
    started_at: new Date().toISOString(),
    heartbeat_ms: 10_000,
    ttl_ms: 60_000,
    ...fields,
  };
}

afterEach(async () => {
  await Promise.all(beats.splice(0).map((b) => b.close()));
  await Promise.all(prefixes.splice(0).map((p) => dropPrefix(url, p)));
});
afterAll(() => redis.disconnect());

describe('the worker records in Redis', () => {
  it('reads back what was saved, with the lifetime it has left', async () => {
    const p = prefix();
    await saveWorkerRecord(redis, p, record());
    const [stored, ...rest] = await readWorkerRecords(redis, p);
    expect(rest).toEqual([]);
    expect(stored!.record).toEqual(record({ started_at: stored!.record.started_at }));
    expect(stored!.pttlMs).toBeGreaterThan(59_000);
    expect(stored!.pttlMs).toBeLessThanOrEqual(60_000);
  });

  it('keeps each prefix to itself', async () => {
    const [a, b] = [prefix(), prefix()];
    await saveWorkerRecord(redis, a, record({ id: 'a' }));
    await saveWorkerRecord(redis, b, record({ id: 'b' }));
    expect((await readWorkerRecords(redis, a)).map((s) => s.record.id)).toEqual(['a']);
    expect((await readWorkerRecords(redis, b)).map((s) => s.record.id)).toEqual(['b']);
  });

  it('shows a worker that stopped beating as not alive, then drops it when its record expires', async () => {
    const p = prefix();
    await saveWorkerRecord(redis, p, record({ heartbeat_ms: 100, ttl_ms: 900 }));
    expect(workersReport(await readWorkerRecords(redis, p), Date.now()).workers.map((w) => w.alive)).toEqual([true]);
    await sleep(400);
    const late = workersReport(await readWorkerRecords(redis, p), Date.now());
    expect(late.workers.map((w) => w.alive)).toEqual([false]);
    expect(late.queues.scan).toEqual({ workers: 0 });
    await sleep(600);
    expect(await readWorkerRecords(redis, p)).toEqual([]);
    // The reader takes the expired id off the list, since its worker is not there to do it.
    expect(await redis.smembers(workerIndexKey(p))).toEqual([]);
  });

  it('removes a record and its place in the list', async () => {
    const p = prefix();
    await saveWorkerRecord(redis, p, record());
    await deleteWorkerRecord(redis, p, 'box:1:aa');
    expect(await redis.exists(workerRecordKey(p, 'box:1:aa'), workerIndexKey(p))).toBe(0);
  });

  it('skips a record that does not read as one, and leaves it to expire', async () => {
    const p = prefix();
    await saveWorkerRecord(redis, p, record({ id: 'good' }));
    await redis.multi().set(workerRecordKey(p, 'junk'), '{"id": 3', 'PX', 60_000).sadd(workerIndexKey(p), 'junk').exec();
    await redis
      .multi()
      .set(workerRecordKey(p, 'partial'), JSON.stringify({ id: 'partial' }), 'PX', 60_000)
      .sadd(workerIndexKey(p), 'partial')
      .exec();
    expect((await readWorkerRecords(redis, p)).map((s) => s.record.id)).toEqual(['good']);
    expect(await redis.exists(workerRecordKey(p, 'junk'))).toBe(1);
  });

  it("lists a newer worker's queue this service does not know, without counting it", async () => {
    const p = prefix();
    await saveWorkerRecord(redis, p, record({ queues: ['scan', 'thumbnails'], concurrency: { scan: 1, thumbnails: 2 } }));
    const report = workersReport(await readWorkerRecords(redis, p), Date.now());
    expect(report.workers[0]!.queues).toEqual(['scan', 'thumbnails']);
    expect(report.queues.scan).toEqual({ workers: 1 });
    expect(report.queues).not.toHaveProperty('thumbnails');
  });
});

describe('the worker heartbeat', () => {
  it('publishes the record at once: host, queues and concurrency, encoders not yet tested', async () => {
    const p = prefix();
    const beat = startWorkerHeartbeat({ redisUrl: url, prefix: p, logger, queues: ['scan', 'transcode'], concurrency: { scan: 1, transcode: 2 } });
    beats.push(beat);
    const stored = await waitForRecords(p, 1);
    expect(stored[0]!.record).toMatchObject({
      id: beat.id,
      host: hostname(),
      pid: process.pid,
      queues: ['scan', 'transcode'],
      concurrency: { scan: 1, transcode: 2 },
      encoders: [],
      encoders_tested_at: null,
      heartbeat_ms: 10_000,
      ttl_ms: 300_000,
    });
    expect(beat.id).toMatch(new RegExp(`^${hostname()}:${process.pid}:[0-9a-f]{6}$`));
  });

  it('publishes the encoder test at once, without waiting for the next beat', async () => {
    const p = prefix();
    const beat = startWorkerHeartbeat({ redisUrl: url, prefix: p, logger, queues: ['transcode'], concurrency: { transcode: 1 } });
    beats.push(beat);
    await waitForRecords(p, 1);
    beat.setEncoders({ encoders: ['libx264'], errors: { h264_nvenc: 'Cannot load libcuda.so.1' }, tested_at: '2025-01-01T00:00:00.000Z' });
    const deadline = Date.now() + 2000;
    let record: WorkerRecord | undefined;
    while (Date.now() < deadline && !record?.encoders_tested_at) {
      record = (await readWorkerRecords(redis, p))[0]?.record;
      await sleep(20);
    }
    expect(record).toMatchObject({
      encoders: ['libx264'],
      encoder_errors: { h264_nvenc: 'Cannot load libcuda.so.1' },
      encoders_tested_at: '2025-01-01T00:00:00.000Z',
    });
  });

  it('renews the record every beat, so a live worker outlasts its lifetime', async () => {
    const p = prefix();
    beats.push(startWorkerHeartbeat({ redisUrl: url, prefix: p, logger, queues: ['media'], concurrency: { media: 1 }, heartbeatMs: 100, ttlMs: 400 }));
    await waitForRecords(p, 1);
    await sleep(1000);
    const report = workersReport(await readWorkerRecords(redis, p), Date.now());
    expect(report.workers.map((w) => w.alive)).toEqual([true]);
    expect(report.queues.media).toEqual({ workers: 1 });
  });

  it('takes its record away when closed', async () => {
    const p = prefix();
    const beat = startWorkerHeartbeat({ redisUrl: url, prefix: p, logger, queues: ['scan'], concurrency: { scan: 1 }, heartbeatMs: 50 });
    await waitForRecords(p, 1);
    await beat.close();
    expect(await readWorkerRecords(redis, p)).toEqual([]);
    // No beat comes after the close to write it back.
    await sleep(200);
    expect(await redis.exists(workerRecordKey(p, beat.id))).toBe(0);
  });

  it('closes within its deadline while Redis is away, leaving the record to expire', async () => {
    const beat = startWorkerHeartbeat({ redisUrl: 'redis://127.0.0.1:1', prefix: prefix(), logger, queues: ['scan'], concurrency: { scan: 1 } });
    const started = Date.now();
    await beat.close();
    expect(Date.now() - started).toBeLessThan(4500);
  });
});

async function waitForRecords(p: string, n: number) {
  const deadline = Date.now() + 2000;
  for (;;) {
    const stored = await readWorkerRecords(redis, p);
    if (stored.length === n || Date.now() > deadline) return stored;
    await sleep(20);
  }
}
