import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createJobClient, createLogger, saveWorkerRecord, type JobClient } from '@mo/core';
import { workersResponse, type WorkerRecord } from '@mo/shared';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { testApp, type TestApp } from '../test-support/app.ts';

const logger = createLogger({ name: 't', level: 'silent' });
const url = testRedisUrl();
const redis = new Redis(url);
let prefix: string;
let jobs: JobClient;
let t: TestApp;

function record(fields: Partial<WorkerRecord>): WorkerRecord {
  return {
    id: 'gpu:1:aa',
    host: 'gpu',
    pid: 1,
    queues: ['transcode'],
    concurrency: { transcode: 1 },
    encoders: ['h264_nvenc', 'libx264'],
    encoder_errors: {},
    encoders_tested_at: new Date().toISOString(),
    started_at: new Date().toISOString(),
    heartbeat_ms: 10_000,
    ttl_ms: 300_000,
    ...fields,
  };
}

async function workers() {
  const res = await t.app.request('/api/workers');
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  prefix = uniquePrefix('api-workers');
  jobs = createJobClient({ redisUrl: url, prefix, logger });
  t = await testApp({ jobs });
});
afterEach(() => dropPrefix(url, prefix));
afterAll(async () => {
  await t?.close();
  await jobs?.close();
  redis.disconnect();
});

describe('GET /api/workers', () => {
  it('with no worker, names every queue with 0 workers', async () => {
    expect(await workers()).toEqual({
      status: 200,
      body: {
        workers: [],
        queues: { scan: { workers: 0 }, library: { workers: 0 }, media: { workers: 0 }, transcode: { workers: 0 }, notify: { workers: 0 } },
      },
    });
  });

  it('lists each worker and counts it for its queues; a queue nobody consumes stays at 0', async () => {
    await saveWorkerRecord(redis, prefix, record({}));
    await saveWorkerRecord(
      redis,
      prefix,
      record({ id: 'nas:2:bb', host: 'nas', queues: ['scan', 'library'], concurrency: { scan: 1, library: 1 }, encoders: [], encoders_tested_at: null }),
    );
    const { status, body } = await workers();
    expect(status).toBe(200);
    expect(workersResponse.strict().parse(body)).toEqual(body);
    expect(body.queues).toEqual({ scan: { workers: 1 }, library: { workers: 1 }, media: { workers: 0 }, transcode: { workers: 1 }, notify: { workers: 0 } });
    expect(body.workers.map((w: any) => [w.host, w.queues, w.encoders, w.alive])).toEqual([
      ['gpu', ['transcode'], ['h264_nvenc', 'libx264'], true],
      ['nas', ['scan', 'library'], [], true],
    ]);
    expect(Object.keys(body.workers[0]).sort()).toEqual(
      ['alive', 'concurrency', 'encoder_errors', 'encoders', 'encoders_tested_at', 'host', 'id', 'last_seen', 'pid', 'queues', 'started_at'].sort(),
    );
    expect(Date.now() - Date.parse(body.workers[0].last_seen)).toBeLessThan(2000);
  });

  it('keeps listing a worker whose heartbeat stopped, as not alive, and no longer counts it', async () => {
    await saveWorkerRecord(redis, prefix, record({ heartbeat_ms: 100, ttl_ms: 60_000 }));
    await new Promise((r) => setTimeout(r, 400));
    const { body } = await workers();
    expect(body.workers.map((w: any) => [w.id, w.alive])).toEqual([['gpu:1:aa', false]]);
    expect(body.queues.transcode).toEqual({ workers: 0 });
  });

  it('answers 503 within 2 s when Redis cannot be reached', async () => {
    const down = createJobClient({ redisUrl: `redis://127.0.0.1:${await freePort()}`, prefix, logger });
    const app = await testApp({ jobs: down });
    try {
      const started = Date.now();
      const res = await app.app.request('/api/workers');
      expect(Date.now() - started).toBeLessThan(2000);
      expect(res.status).toBe(503);
      expect(((await res.json()) as any).error.code).toBe('unavailable');
    } finally {
      await app.close();
      await down.close();
    }
  });
});
