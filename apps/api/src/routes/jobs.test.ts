import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnrecoverableError } from 'bullmq';
import { AppError, createJobClient, createLogger, createWorkerHost, jobFailureReason, type JobClient, type WorkerHost } from '@mo/core';
import { newTranscodeJobId } from '@mo/core/tools';
import { writePassFile } from '@mo/core/scanner';
import { jobListResponse } from '@mo/shared';
import { testApp, type TestApp } from '../test-support/app.ts';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { waitFor } from '@mo/test-support/service';

const logger = createLogger({ name: 't', level: 'silent' });
const url = testRedisUrl();
const prefix = uniquePrefix('jobs');
let t: TestApp;
let jobs: JobClient;
let host: WorkerHost;
let releaseTranscode: () => void = () => {};
const transcodeHeld = new Promise<void>((resolve) => (releaseTranscode = resolve));

const item = { path: '/m/Movies/Big (1988)/Big (1988).mkv', ext: '.mkv', bytes: 10, kind: 'movie' as const, title: 'Big', status: 'queued' as const };

type Listed = {
  id: string;
  queue: string;
  name: string;
  state: string;
  progress: unknown;
  error: string | null;
  summary: unknown;
  about: Record<string, unknown>;
  started_at: string | null;
  finished_at: string | null;
};

async function list(query = ''): Promise<Listed[]> {
  const res = await t.app.request(`/api/jobs${query}`);
  expect(res.status, query).toBe(200);
  const body = (await res.json()) as { jobs: Listed[] };
  jobListResponse.parse(body);
  return body.jobs;
}

const names = (jobs: Listed[]) => jobs.map((j) => `${j.queue}/${j.name}/${j.state}`);

/**
 * One job in each kind of state, made one after the other so that their order is known: a pass
 * completed, a library scan failed on its input, a transcode running with progress, a remux
 * waiting (its queue has no worker here).
 */
beforeAll(async () => {
  jobs = createJobClient({ redisUrl: url, prefix, logger });
  t = await testApp({ jobs });
  const pass = {
    dry_run: true,
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:01.000Z',
    plans: [],
    moves: [],
    skipped: [
      { source: '/d/notes.mkv', reason: 'unrecognized' as const },
      { source: '/d/x.part', reason: 'partial' as const },
    ],
  };
  host = createWorkerHost({
    redisUrl: url,
    prefix,
    queues: ['scan', 'library', 'transcode'],
    logger,
    handlers: {
      'scan-pass': async (_p, ctx) => writePassFile(t.config.current().paths.data, ctx.jobId, pass),
      'manual-import': async () => Promise.reject(new Error('no manual import in this test')),
      'recycle-purge': async () => Promise.reject(new Error('no purge in this test')),
      'library-organize': async () => Promise.reject(new Error('no organize in this test')),
      'library-scan': async () => {
        // As the worker's guards hand on a failure a retry would not fix.
        throw new UnrecoverableError(jobFailureReason(new AppError('conflict', 'the drive went away')));
      },
      'transcode-run': async (_p, ctx) => {
        await ctx.progress({ percent: 40, speed: 2, out_time_seconds: 48 });
        await transcodeHeld;
        throw new Error('stopped by the test');
      },
    },
  });
  expect((await jobs.submit('scan-pass', { trigger: 'api' }, { waitSeconds: 10 })).kind).toBe('completed');
  expect((await jobs.submit('library-scan', { trigger: 'api' }, { waitSeconds: 10 })).kind).toBe('failed');
  const [transcode] = await jobs.queueTranscodes([{ payload: { item }, jobId: newTranscodeJobId(), priority: 1 }]);
  const running = async () => jobs.get('transcode', transcode!.id);
  await waitFor(async () => (await running())?.state === 'active' && (await running())?.progress !== 0, 10_000, 'the transcode to run');
  const before = { path: '/m/a.mkv', action: 'remove' as const, stream: 1, before: [] };
  expect((await jobs.submit('media-tracks', before, { waitSeconds: 0 })).kind).toBe('pending');
});

afterAll(async () => {
  releaseTranscode();
  await host?.close();
  await t?.close();
  await jobs?.close();
  await dropPrefix(url, prefix);
});

describe('GET /api/jobs', () => {
  it('lists every queue newest first by last change, without results, a pass with its counts', async () => {
    const all = await list();
    // The transcode started before the remux was added; the remux, never started, last changed when added.
    expect(names(all)).toEqual(['media/media-tracks/waiting', 'transcode/transcode-run/active', 'library/library-scan/failed', 'scan/scan-pass/completed']);
    for (const j of all) expect(j).not.toHaveProperty('result');
    const [remux, transcode, library, scan] = all;
    expect(remux).toMatchObject({ started_at: null, finished_at: null, summary: null, error: null });
    expect(transcode).toMatchObject({ progress: { percent: 40, speed: 2, out_time_seconds: 48 }, started_at: expect.any(String), finished_at: null });
    expect(library).toMatchObject({ error: 'the drive went away', error_code: 'conflict', finished_at: expect.any(String) });
    // Each job says what it works on, so a page can name it by its file or what started it.
    expect(remux!.about).toMatchObject({ path: '/m/a.mkv', track: { action: 'remove', index: 1, type: null, language: null } });
    expect(transcode!.about).toMatchObject({ path: item.path, kind: 'movie', title: 'Big' });
    expect(library!.about).toMatchObject({ trigger: 'api', path: null });
    expect(scan!.about).toMatchObject({ trigger: 'api' });
    expect(scan!.summary).toEqual({
      dry_run: true,
      started_at: '2026-01-01T00:00:00.000Z',
      finished_at: '2026-01-01T00:00:01.000Z',
      counts: { plans: 0, moved: 0, failed: 0, skipped: 2 },
    });
  });

  it('filters by queue and state, and answers at most limit', async () => {
    expect(names(await list('?queue=scan'))).toEqual(['scan/scan-pass/completed']);
    expect(names(await list('?state=failed'))).toEqual(['library/library-scan/failed']);
    expect(names(await list('?state=active&queue=transcode'))).toEqual(['transcode/transcode-run/active']);
    expect(await list('?state=active&queue=scan')).toEqual([]);
    expect(names(await list('?limit=2'))).toEqual(['media/media-tracks/waiting', 'transcode/transcode-run/active']);
    expect(await list('?queue=&state=&limit=')).toHaveLength(4);
  });

  it.each([
    ['queue=nope', 'queue'],
    ['queue=Scan', 'queue'],
    ['state=running', 'state'],
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=1e2', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=%205', 'limit'],
  ])('refuses ?%s with a 400 naming %s', async (query, key) => {
    const res = await t.app.request(`/api/jobs?${query}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string; details: { key: string } } };
    expect(body.error.code).toBe('bad_request');
    expect(body.error.details.key).toBe(key);
    expect(body.error.message.startsWith(`${key}:`)).toBe(true);
  });

  it('answers 200 for the largest limit', async () => {
    expect(await list('?limit=200')).toHaveLength(4);
  });
});
