import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { createJobClient, createLogger, openDataDir, saveWorkerRecord, type JobClient } from '@mo/core';
import { systemHealthResponse } from '@mo/shared';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { testApp, type TestApp } from '../test-support/app.ts';

const logger = createLogger({ name: 't', level: 'silent' });
const url = testRedisUrl();
const redis = new Redis(url);
let prefix: string;
let jobs: JobClient;
let t: TestApp | undefined;
let disks: string;

async function health(app: TestApp) {
  const res = await app.app.request('/api/system/health');
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(systemHealthResponse.strict().parse(body)).toEqual(body);
  return (body as { warnings: { code: string; subject: string; message: string }[] }).warnings;
}

beforeAll(async () => {
  disks = await mkdtemp(join(tmpdir(), 'system-health-'));
  await mkdir(join(disks, 'empty'));
});
afterEach(async () => {
  await t?.close();
  t = undefined;
  await jobs?.close();
  await dropPrefix(url, prefix);
});
afterAll(async () => {
  redis.disconnect();
  await rm(disks, { recursive: true, force: true });
});

function start(toml = '', wrap: (j: JobClient) => JobClient = (j) => j) {
  prefix = uniquePrefix('api-health');
  jobs = createJobClient({ redisUrl: url, prefix, logger });
  return testApp({ jobs: wrap(jobs), toml });
}

describe('GET /api/system/health', () => {
  it('has no warning for a fresh install with its drive in place and nothing queued', async () => {
    t = await start();
    expect(await health(t)).toEqual([]);
  });

  it('warns of a drive whose folder is missing and of one that is an empty mount point', async () => {
    t = await start(`[[drives]]\nname = "disk2"\npath = "${join(disks, 'gone')}"\n\n[[drives]]\nname = "disk3"\npath = "${join(disks, 'empty')}"\n`);
    const warnings = await health(t);
    expect(warnings.map((w) => [w.code, w.subject])).toEqual([
      ['drive-missing', 'disk2'],
      ['drive-empty', 'disk3'],
    ]);
    expect(warnings[0]!.message).toContain(`Mount the disk (or the Docker volume) at ${join(disks, 'gone')}`);
  });

  it('warns of jobs waiting in a queue no live worker takes, and stops once a worker beats', async () => {
    t = await start();
    const media = jobs.queues().find((q) => q.name === 'media')!;
    await media.add('probe', { path: '/x.mkv' });
    expect(await health(t)).toEqual([
      { code: 'queue-without-worker', subject: 'media', message: expect.stringMatching(/^1 media job waits and no worker takes them\. Start a worker/) },
    ]);
    const now = new Date().toISOString();
    await saveWorkerRecord(redis, prefix, {
      ...{ id: 'nas:1:aa', host: 'nas', pid: 1, queues: ['media'], concurrency: { media: 1 } },
      ...{ encoders: [], encoder_errors: {}, encoders_tested_at: null, started_at: now, heartbeat_ms: 10_000, ttl_ms: 300_000 },
    });
    expect(await health(t)).toEqual([]);
  });

  it('warns when the newest finished scanner pass failed, with its error', async () => {
    t = await start();
    const scan = jobs.queues().find((q) => q.name === 'scan')!;
    const connection = new Redis(url, { maxRetriesPerRequest: null });
    const worker = new Worker(
      scan.name,
      async () => {
        throw new Error('EACCES: permission denied, open /downloads');
      },
      { connection, prefix },
    );
    try {
      const failed = new Promise((resolve) => worker.on('failed', resolve));
      await scan.add('scan-pass', { trigger: 'api' });
      await failed;
    } finally {
      await worker.close();
      connection.disconnect();
    }
    const warnings = await health(t);
    expect(warnings.map((w) => w.code)).toEqual(['pass-failed']);
    expect(warnings[0]!.message).toMatch(/^The last scanner pass failed at \S+: EACCES: permission denied, open \/downloads\. Fix the cause/);
  });

  it('warns while TVmaze look-ups fail, only with tvmaze in [metadata] identify', async () => {
    t = await start();
    await openDataDir(t.install.paths.data)
      .identifyCache()
      .failures.record(() => {})
      .failed('tvmaze /search/shows?q=x: HTTP 503');
    expect(await health(t)).toEqual([]);
    await t.close();
    t = await testApp({ jobs, toml: '[metadata]\nidentify = ["tvmaze"]\n' });
    await openDataDir(t.install.paths.data)
      .identifyCache()
      .failures.record(() => {})
      .failed('tvmaze /search/shows?q=x: HTTP 503');
    expect(await health(t)).toEqual([
      { code: 'provider-failing', subject: 'tvmaze', message: expect.stringContaining('(tvmaze /search/shows?q=x: HTTP 503)') },
    ]);
  });

  it("reads Redis's own memory figures, and warns at 90 % of maxmemory", async () => {
    prefix = uniquePrefix('api-health');
    const real = createJobClient({ redisUrl: url, prefix, logger });
    const memory = await real.memory();
    expect(memory.used_bytes).toBeGreaterThan(0);
    expect(memory.max_bytes).toBeGreaterThanOrEqual(0);
    await real.close();
    // The test Redis is shared: its maxmemory is not this test's to lower.
    t = await start('', (j) => ({ ...j, memory: async () => ({ used_bytes: 95_000_000, max_bytes: 100_000_000 }) }));
    expect(await health(t)).toEqual([{ code: 'redis-memory', subject: 'redis', message: expect.stringContaining('(95 %)') }]);
  });

  it('still answers with the drives while Redis is down', async () => {
    t = await start(`[[drives]]\nname = "disk2"\npath = "${join(disks, 'gone')}"\n`, (j) => {
      const down = () => Promise.reject(new Error('the job queue cannot be reached'));
      return { ...j, workers: down, stats: down, memory: down, list: down };
    });
    expect((await health(t)).map((w) => w.code)).toEqual(['drive-missing']);
  });
});
