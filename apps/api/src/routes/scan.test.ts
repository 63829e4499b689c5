import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createJobClient, createLogger, createWorkerHost, type JobClient, type WorkerHost } from '@mo/core';
import { UNKNOWN_QUALITY } from '@mo/core/parse';
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
  quality: UNKNOWN_QUALITY,
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

describe('a preview and a pass of chosen downloads', () => {
  /** A worker whose pass handler keeps each payload it ran and answers an empty pass of that kind. */
  async function recording() {
    prefix = uniquePrefix('scan');
    jobs = createJobClient({ redisUrl: url, prefix, logger });
    t = await testApp({ jobs });
    const payloads: unknown[] = [];
    host = createWorkerHost({
      redisUrl: url,
      prefix,
      queues: ['scan'],
      logger,
      handlers: {
        'scan-pass': async (payload, ctx) => {
          payloads.push(payload);
          const at = '2026-01-01T00:00:00.000Z';
          return writePassFile(t.config.current().paths.data, ctx.jobId, {
            dry_run: payload.dry_run === true,
            started_at: at,
            finished_at: at,
            plans: [],
            moves: [],
            skipped: [],
          });
        },
        'manual-import': async () => Promise.reject(new Error('no manual import in this test')),
      },
    });
    return payloads;
  }
  const downloads = () => t.config.current().paths.downloads;
  const post = (path: string, body?: unknown) =>
    t.app.request(path, { method: 'POST', ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });

  it('?dry_run=true asks the worker for a preview, which answers as a dry run', async () => {
    const payloads = await recording();
    const res = await post('/api/scan?dry_run=true&wait=10');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ dry_run: true });
    expect(payloads).toEqual([{ trigger: 'api', dry_run: true }]);
    expect((await post('/api/scan?dry_run=false&wait=10')).status).toBe(200);
    expect(payloads[1]).toEqual({ trigger: 'api' });
    expect((await post('/api/scan?dry_run=yes')).status).toBe(400);
  });

  it('a preview joins no waiting pass, and no pass joins it', async () => {
    await recording();
    await host.close();
    const plain = (await (await post('/api/scan?wait=0')).json()) as { job: { id: string } };
    const preview = (await (await post('/api/scan?dry_run=true&wait=0')).json()) as { job: { id: string } };
    const again = (await (await post('/api/scan?wait=0')).json()) as { job: { id: string } };
    expect(preview.job.id).not.toBe(plain.job.id);
    expect(again.job.id).toBe(plain.job.id);
  });

  it('POST /api/scan/import hands the worker the named downloads, in a pass of its own', async () => {
    const payloads = await recording();
    const sources = [join(downloads(), 'Heat.1995.mkv'), join(downloads(), 'Heat.1995.en.srt')];
    const res = await post('/api/scan/import?wait=10', { sources });
    expect(res.status).toBe(200);
    expect(payloads).toEqual([{ trigger: 'api', sources }]);
  });

  it.each([
    ['outside the downloads folder', { sources: ['/etc/passwd'] }, 'sources.0'],
    ['climbing out of it', { sources: ['DL/x.mkv', 'DL/../../etc/passwd'] }, 'sources.1'],
    ['an empty list', { sources: [] }, 'sources'],
    ['another key', { sources: ['DL/a.mkv'], all: true }, ''],
  ])('refuses sources %s with a 400 naming the entry, and queues nothing', async (_what, raw, key) => {
    const payloads = await recording();
    const body = JSON.parse(JSON.stringify(raw).replaceAll('DL', downloads())) as unknown;
    const res = await post('/api/scan/import?wait=1', body);
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { error: { details?: { key?: string } } };
    if (key) expect(answer.error.details?.key).toBe(key);
    expect(payloads).toEqual([]);
    expect(await jobs.list({ queue: 'scan', limit: 10 })).toEqual([]);
  });

  it('a missing body is a 400', async () => {
    await recording();
    expect((await post('/api/scan/import')).status).toBe(400);
  });
});
