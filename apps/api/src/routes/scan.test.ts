import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createJobClient, createLogger, createWorkerHost, type JobClient, type WorkerHost } from '@mo/core';
import { type ScanResult, writePassFile } from '@mo/core/scanner';
import { scanResultSchema } from '@mo/shared';
import { testApp, type TestApp } from '../test-support/app.ts';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';

const logger = createLogger({ name: 't', level: 'silent' });
const url = testRedisUrl();
let t: TestApp;
let jobs: JobClient;
let host: WorkerHost;
let prefix: string;

afterEach(async () => {
  await host?.close();
  await t?.close();
  await jobs?.close();
  if (prefix) await dropPrefix(url, prefix);
});

const plan = (n: number) => ({
  source: `/d/Movie.${n}.2001.mkv`,
  destination: `/m/Movies/Movie ${n} (2001)/Movie ${n} (2001).mkv`,
  kind: 'movie' as const,
  title: `Movie ${n}`,
  year: 2001,
  season: null,
  episodes: null,
  air_date: null,
  drive: 'disk1',
  sidecars: [],
});

/** An API and a worker whose pass handler writes its result the way the real one does. */
async function setup() {
  prefix = uniquePrefix('scan');
  jobs = createJobClient({ redisUrl: url, prefix, logger });
  t = await testApp({ jobs });
  const plans = Array.from({ length: 50 }, (_, i) => plan(i));
  const result: ScanResult = {
    dry_run: true,
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:01.000Z',
    plans,
    moves: [],
    skipped: [{ source: '/d/x.part', reason: 'partial' }],
  };
  host = createWorkerHost({
    redisUrl: url,
    prefix,
    queues: ['scan'],
    logger,
    handlers: {
      'scan-pass': async (_p, ctx) => writePassFile(t.config.current().paths.data, ctx.jobId, result),
      'manual-import': async () => Promise.reject(new Error('no manual import in this test')),
    },
  });
  return result;
}

async function storedResult(id: string): Promise<string | null> {
  const r = new Redis(url);
  try {
    return await r.hget(`${prefix}:scan:${id}`, 'returnvalue');
  } finally {
    r.disconnect();
  }
}

describe('a pass result kept as a summary', () => {
  it('POST /api/scan and GET /api/jobs/scan/:id answer with the whole result; Redis holds the summary', async () => {
    const result = await setup();
    const res = await t.app.request('/api/scan?wait=10', { method: 'POST' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual(result);
    expect(scanResultSchema.strict().parse(body)).toEqual(result);

    const view = (await (await t.app.request('/api/jobs/scan/1')).json()) as { state: string; result: unknown };
    expect(view).toMatchObject({ state: 'completed', result });
    const stored = JSON.parse((await storedResult('1'))!);
    expect(stored).toEqual({
      dry_run: true,
      started_at: result.started_at,
      finished_at: result.finished_at,
      counts: { plans: 50, moved: 0, failed: 0, skipped: 1 },
      pass_file: 'passes/1.json',
    });
  });

  it('reads the file the job id names, not a path kept in Redis, and answers the summary once the file is gone', async () => {
    const result = await setup();
    await t.app.request('/api/scan?wait=10', { method: 'POST' });
    const r = new Redis(url);
    const forged = { ...JSON.parse((await storedResult('1'))!), pass_file: '../config/config.toml' };
    await r.hset(`${prefix}:scan:1`, 'returnvalue', JSON.stringify(forged));
    r.disconnect();
    expect(((await (await t.app.request('/api/jobs/scan/1')).json()) as { result: unknown }).result).toEqual(result);
    await rm(join(t.install.paths.data, 'passes', '1.json'));
    expect(((await (await t.app.request('/api/jobs/scan/1')).json()) as { result: unknown }).result).toEqual(forged);
  });
});
