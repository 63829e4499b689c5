import { utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createJobClient, createLogger, createWorkerHost, type JobClient, type WorkerHost } from '@mo/core';
import { UNKNOWN_QUALITY } from '@mo/core/parse';
import { type ScanResult, writePassFile } from '@mo/core/scanner';
import { PASS_ENTRIES_MAX, scanPassesResponse } from '@mo/shared';
import { testApp, type TestApp } from '../test-support/app.ts';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';

const logger = createLogger({ name: 't', level: 'silent' });
let t: TestApp | undefined;
let jobs: JobClient | undefined;
let host: WorkerHost | undefined;
let prefix: string | undefined;

afterEach(async () => {
  await host?.close();
  await t?.close();
  await jobs?.close();
  if (prefix) await dropPrefix(testRedisUrl(), prefix);
  [t, jobs, host, prefix] = [undefined, undefined, undefined, undefined];
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

function pass(at: string, plans: number, extra: Partial<ScanResult> = {}): ScanResult {
  return { dry_run: true, started_at: at, finished_at: at, plans: Array.from({ length: plans }, (_, i) => plan(i)), moves: [], skipped: [], ...extra };
}

type Listed = { id: string; started_at: string; plans: unknown[]; moves: unknown[]; skipped: unknown[]; counts: unknown; truncated: unknown };

async function passes(app: TestApp, query = ''): Promise<Listed[]> {
  const res = await app.app.request(`/api/scan/passes${query}`);
  expect(res.status).toBe(200);
  const body = await res.json();
  scanPassesResponse.parse(body);
  return (body as { passes: Listed[] }).passes;
}

/** Writes pass files as the worker does, each dated a second after the one before. */
async function writePasses(app: TestApp, results: [string, ScanResult][]) {
  const data = app.install.paths.data;
  let second = 1_700_000_000;
  for (const [id, result] of results) {
    await writePassFile(data, id, result);
    second += 1;
    await utimes(join(data, 'passes', `${id}.json`), second, second);
  }
}

describe('GET /api/scan/passes', () => {
  it('answers the last passes newest first from their files, with Redis out of the picture', async () => {
    // The test app's job client refuses every call: this route must not need one.
    t = await testApp();
    expect(await passes(t)).toEqual([]);
    await writePasses(t, [
      ['1', pass('2026-01-01T00:00:00.000Z', 1)],
      [
        'repeat:periodic-scan-pass:1795533683234',
        pass('2026-01-01T00:15:00.000Z', 0, { skipped: [{ source: '/d/notes.mkv', reason: 'unrecognized', detail: 'no year' }] }),
      ],
      ['3', pass('2026-01-01T00:30:00.000Z', 2)],
    ]);
    const listed = await passes(t);
    expect(listed.map((p) => p.id)).toEqual(['3', 'repeat:periodic-scan-pass:1795533683234', '1']);
    expect(listed[1]).toMatchObject({
      started_at: '2026-01-01T00:15:00.000Z',
      skipped: [{ source: '/d/notes.mkv', reason: 'unrecognized', detail: 'no year' }],
      counts: { plans: 0, moved: 0, failed: 0, skipped: 1 },
      truncated: { plans: 0, moves: 0, skipped: 0 },
    });
    expect(listed[0]!.plans).toEqual([plan(0), plan(1)]);
    expect((await passes(t, '?limit=2')).map((p) => p.id)).toEqual(['3', 'repeat:periodic-scan-pass:1795533683234']);
  });

  it('cuts each list of a large pass and says how much it left out; passes over a file that is not a pass', async () => {
    t = await testApp();
    const moves = Array.from({ length: PASS_ENTRIES_MAX + 3 }, (_, i) => ({
      ...plan(i),
      mode: 'move' as const,
      status: 'failed' as const,
      error: 'gone',
      replaced: null,
    }));
    await writePasses(t, [
      ['1', pass('2026-01-01T00:00:00.000Z', PASS_ENTRIES_MAX + 7, { dry_run: false, moves })],
      ['2', pass('2026-01-01T00:15:00.000Z', 1)],
    ]);
    await writeFile(join(t.install.paths.data, 'passes', '2.json'), '{"plans": "damaged"}');
    const [big, ...rest] = await passes(t, '?limit=1');
    expect(rest).toEqual([]);
    expect(big!.id).toBe('1');
    expect(big!.plans).toHaveLength(PASS_ENTRIES_MAX);
    expect(big!.moves).toHaveLength(PASS_ENTRIES_MAX);
    expect(big!.counts).toEqual({ plans: PASS_ENTRIES_MAX + 7, moved: 0, failed: PASS_ENTRIES_MAX + 3, skipped: 0 });
    expect(big!.truncated).toEqual({ plans: 7, moves: 3, skipped: 0 });
  });

  it.each(['0', '51', '1.5', 'x', '-1', '1e1'])('refuses ?limit=%s with a 400 naming limit', async (limit) => {
    t = await testApp();
    const res = await t.app.request(`/api/scan/passes?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'bad_request', details: { key: 'limit' } } });
  });

  it('lists a pass the worker ran, under its job id', async () => {
    prefix = uniquePrefix('passes');
    jobs = createJobClient({ redisUrl: testRedisUrl(), prefix, logger });
    const app = await testApp({ jobs });
    t = app;
    const result = pass('2026-01-01T00:00:00.000Z', 3);
    host = createWorkerHost({
      redisUrl: testRedisUrl(),
      prefix,
      queues: ['scan'],
      logger,
      handlers: {
        'scan-pass': async (_p, ctx) => writePassFile(app.config.current().paths.data, ctx.jobId, result),
        'manual-import': async () => Promise.reject(new Error('no manual import in this test')),
      },
    });
    expect((await app.app.request('/api/scan?wait=10', { method: 'POST' })).status).toBe(200);
    const [listed] = await passes(app);
    expect(listed).toMatchObject({ id: '1', plans: result.plans, counts: { plans: 3 } });
  });
});
