import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createJobEvents, createLogger, writeLibraryIndex, type JobEvents } from '@mo/core';
import { jobEventSchema, libraryEventSchema, QUEUE_NAMES, settingsEventSchema, snapshotEventSchema, transcodeEventSchema, type JobEvent } from '@mo/shared';
import { queuedEntry } from '@mo/core/tools';
import { testApp, type TestApp } from '../test-support/app.ts';
import { sseReader, type SseMessage } from '../test-support/sse.ts';
import { listen } from '../test-support/serve.ts';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { RECONNECT_MS } from './events.ts';

const logger = createLogger({ name: 'events-test', level: 'silent' });
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function app(opts: Parameters<typeof testApp>[0] = {}): Promise<TestApp> {
  const t = await testApp(opts);
  cleanups.push(() => t.close());
  return t;
}

/** Job events on the shared Redis under a prefix of the test's own. */
function redisJobEvents(): { jobEvents: JobEvents; prefix: string } {
  const prefix = uniquePrefix('events');
  const jobEvents = createJobEvents({ redisUrl: testRedisUrl(), prefix, logger });
  cleanups.push(() => dropPrefix(testRedisUrl(), prefix));
  cleanups.push(() => jobEvents.close());
  return { jobEvents, prefix };
}

async function connect(t: TestApp, init?: RequestInit) {
  const res = await t.app.request('/api/events', init);
  expect(res.status).toBe(200);
  const stream = sseReader(res.body!);
  cleanups.push(() => stream.cancel().catch(() => {}));
  return { res, stream };
}

const ofJob = (id: string, state?: JobEvent['state']) => (m: SseMessage) =>
  m.event === 'job' && (m.data as JobEvent).id === id && (state === undefined || (m.data as JobEvent).state === state);

/** BullMQ's own name for a QueueEvents connection: `<prefix>:<base64 queue>:qe`. */
async function queueEventConnections(prefix: string): Promise<number> {
  const r = new Redis(testRedisUrl(), { maxRetriesPerRequest: 1 });
  try {
    const list = (await r.client('LIST')) as string;
    return list.split('\n').filter((line) => line.includes(` name=${prefix}:`) && /:qe\s/.test(line + ' ')).length;
  } finally {
    r.disconnect();
  }
}

describe('GET /api/events', () => {
  it('is an event stream that proxies do not buffer, opening with a snapshot and its reconnect delay', async () => {
    const t = await app();
    const { res, stream } = await connect(t);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    expect(res.headers.get('connection')).toBe('close');
    const first = await stream.next();
    expect(first.event).toBe('snapshot');
    expect(first.retry).toBe(RECONNECT_MS);
    const snapshot = snapshotEventSchema.parse(first.data);
    expect(snapshot).toEqual({
      redis: true,
      jobs: [],
      settings: { version: expect.stringMatching(/^[0-9a-f]{16}$/) },
      library: { version: t.library.version(), scanned_at: null },
    });
  });

  it('needs credentials like every other /api route, and takes the session cookie', async () => {
    const t = await app();
    const anonymous = await t.anonymous('/api/events');
    expect(anonymous.status).toBe(401);
    expect(t.live.clients()).toBe(0);
    const token = (await t.auth.setupToken())!;
    const setup = await t.anonymous('/api/auth/setup', {
      method: 'POST',
      body: JSON.stringify({ token, username: 'owner', password: 'a good passphrase' }),
      headers: { 'content-type': 'application/json' },
    });
    const cookie = `mo_session=${/mo_session=([^;]*)/.exec(setup.headers.get('set-cookie')!)![1]}`;
    const { stream } = await connect(t, { headers: { cookie } });
    expect((await stream.next()).event).toBe('snapshot');
  });

  it('ends the stream a session opened once that session is logged out', async () => {
    const t = await app({ heartbeatMs: 20 });
    const token = (await t.auth.setupToken())!;
    const setup = await t.anonymous('/api/auth/setup', {
      method: 'POST',
      body: JSON.stringify({ token, username: 'owner', password: 'a good passphrase' }),
      headers: { 'content-type': 'application/json' },
    });
    const cookie = `mo_session=${/mo_session=([^;]*)/.exec(setup.headers.get('set-cookie')!)![1]}`;
    const { stream } = await connect(t, { headers: { cookie } });
    await stream.next((m) => m.event === 'comment');
    expect((await t.anonymous('/api/auth/logout', { method: 'POST', headers: { cookie } })).status).toBe(200);
    await stream.ended();
    expect(t.live.clients()).toBe(0);
  });

  it('sends a heartbeat comment while nothing happens', async () => {
    const t = await app({ heartbeatMs: 20 });
    const { stream } = await connect(t);
    await stream.next((m) => m.event === 'snapshot');
    const beat = await stream.next((m) => m.event === 'comment');
    expect(beat.comment).toBe('heartbeat');
  });

  it('tells of changed settings, changed transcode records and a new library index', async () => {
    const t = await app();
    const { stream } = await connect(t);
    const snapshot = snapshotEventSchema.parse((await stream.next()).data);

    await t.config.updateSettings({ app: { dry_run: false } });
    const settings = settingsEventSchema.parse((await stream.next((m) => m.event === 'settings')).data);
    expect(settings.sections).toEqual(['app']);
    expect(settings.version).not.toBe(snapshot.settings.version);

    const entry = { ...queuedEntry('2024-01-01T00:00:00.000Z'), status: 'failed' as const, job_id: '3', error: 'boom' };
    await t.config.state.update((s) => ({ ...s, transcodes: { ...s.transcodes, '/m/a.avi': entry } }));
    await t.config.refresh();
    expect(transcodeEventSchema.parse((await stream.next((m) => m.event === 'transcode')).data)).toEqual({ changed: [{ path: '/m/a.avi', entry }] });
    await t.config.state.update((s) => ({ ...s, transcodes: {} }));
    await t.config.refresh();
    expect((await stream.next((m) => m.event === 'transcode')).data).toEqual({ changed: [{ path: '/m/a.avi', entry: null }] });

    const scanned_at = '2026-05-01T00:00:00.000Z';
    await writeLibraryIndex(t.config.current().paths.data, {
      version: 1,
      scanned_at,
      duration_ms: 1,
      truncated: false,
      timed_out: false,
      skipped: [],
      drives: [],
      items: [],
    });
    await t.library.refresh();
    const library = libraryEventSchema.parse((await stream.next((m) => m.event === 'library')).data);
    expect(library).toEqual({ version: snapshot.library.version + 1, scanned_at });
    // A state change that touches no transcode record is no transcode event.
    expect(stream.seen.filter((m) => m.event === 'transcode')).toHaveLength(2);
  });

  it('stops listening to settings, state and the index when the last client leaves', async () => {
    const t = await app();
    const a = await connect(t);
    const b = await connect(t);
    await a.stream.next();
    await b.stream.next();
    expect(t.live.clients()).toBe(2);
    expect(t.live.subscriptions()).toBe(4);
    await a.stream.cancel();
    expect(t.live.clients()).toBe(1);
    expect(t.live.subscriptions()).toBe(4);
    await b.stream.cancel();
    await expect.poll(() => t.live.clients()).toBe(0);
    expect(t.live.subscriptions()).toBe(0);
  });
});

describe('GET /api/events with job events from Redis', () => {
  it('sends every job start, progress (about once a second per job) and end, from one reader per queue for all clients', async () => {
    const { jobEvents, prefix } = redisJobEvents();
    const t = await app({ jobEvents });
    const one = await connect(t);
    const two = await connect(t);
    expect(snapshotEventSchema.parse((await one.stream.next()).data)).toMatchObject({ redis: true, jobs: [] });
    await two.stream.next();
    expect(jobEvents.readers()).toBe(QUEUE_NAMES.length);
    expect(jobEvents.listeners()).toBe(1);

    const connection = { host: '127.0.0.1', port: Number(new URL(testRedisUrl()).port || 6379) };
    const queue = new Queue('library', { connection, prefix });
    cleanups.push(() => queue.close());
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let progressed!: () => void;
    const atHalf = new Promise<void>((r) => (progressed = r));
    const UPDATES = 50;
    const worker = new Worker(
      'library',
      async (job) => {
        for (let i = 1; i <= UPDATES; i++) await job.updateProgress({ files: i });
        progressed();
        await released;
        if (job.name === 'bad') throw new UnrecoverableError('[conflict] the file changed');
        return { ok: true };
      },
      { connection, prefix },
    );
    cleanups.push(() => worker.close());

    const job = await queue.add('library-scan', {});
    const active = await one.stream.next(ofJob(job.id!, 'active'));
    expect(jobEventSchema.parse(active.data)).toEqual({ queue: 'library', id: job.id, name: 'library-scan', state: 'active' });
    await atHalf;

    // A client that connects now finds the job in its snapshot, with its progress.
    const late = await connect(t);
    const snapshot = snapshotEventSchema.parse((await late.stream.next()).data);
    expect(snapshot.jobs).toEqual([{ queue: 'library', id: job.id, name: 'library-scan', state: 'active', progress: { files: UPDATES } }]);

    release();
    const completed = await one.stream.next(ofJob(job.id!, 'completed'));
    expect(completed.data).toEqual({ queue: 'library', id: job.id, name: 'library-scan', state: 'completed' });
    const progress = one.stream.seen.filter(ofJob(job.id!, 'progress')).map((m) => jobEventSchema.parse(m.data).progress);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThan(UPDATES);
    expect(progress[0]).toEqual({ files: 1 });
    // Every client hears the same events, in the same order.
    await two.stream.next(ofJob(job.id!, 'completed'));
    const jobEventsOf = (s: typeof one.stream) => s.seen.filter((m) => m.event === 'job').map((m) => m.data);
    expect(jobEventsOf(two.stream)).toEqual(jobEventsOf(one.stream));
    expect(await late.stream.next(ofJob(job.id!, 'completed'))).toBeDefined();

    const bad = await queue.add('bad', {});
    const failed = await one.stream.next(ofJob(bad.id!, 'failed'));
    expect(failed.data).toEqual({ queue: 'library', id: bad.id, name: 'bad', state: 'failed', error: 'the file changed', error_code: 'conflict' });
  });

  it('closes the readers and forgets every listener when the last client disconnects', async () => {
    const { jobEvents, prefix } = redisJobEvents();
    const t = await app({ jobEvents });
    const a = await connect(t);
    const b = await connect(t);
    await a.stream.next();
    await b.stream.next();
    await expect.poll(() => queueEventConnections(prefix), { timeout: 5000 }).toBe(QUEUE_NAMES.length);
    await a.stream.cancel();
    expect(jobEvents.readers()).toBe(QUEUE_NAMES.length);
    await b.stream.cancel();
    await expect.poll(() => t.live.clients()).toBe(0);
    expect(t.live.subscriptions()).toBe(0);
    expect(jobEvents.listeners()).toBe(0);
    expect(jobEvents.readers()).toBe(0);
    await expect.poll(() => queueEventConnections(prefix), { timeout: 5000 }).toBe(0);
    // The next client opens them again.
    const c = await connect(t);
    await c.stream.next();
    expect(jobEvents.readers()).toBe(QUEUE_NAMES.length);
  });

  it('notices a client whose connection closes on a real server', async () => {
    const { jobEvents } = redisJobEvents();
    const t = await app({ jobEvents });
    const server = await listen(t.app.fetch);
    cleanups.push(() => server.close());
    const abort = new AbortController();
    const res = await fetch(`http://127.0.0.1:${server.port}/api/events`, { headers: { 'x-api-key': (await t.auth.apiKey())! }, signal: abort.signal });
    expect(res.status).toBe(200);
    const stream = sseReader(res.body!);
    expect((await stream.next()).event).toBe('snapshot');
    expect(t.live.clients()).toBe(1);
    abort.abort();
    await expect.poll(() => t.live.clients(), { timeout: 5000 }).toBe(0);
    expect(jobEvents.readers()).toBe(0);
  });

  it('still connects while Redis is down: a snapshot without jobs, then heartbeats', async () => {
    const prefix = uniquePrefix('events-down');
    const jobEvents = createJobEvents({ redisUrl: `redis://127.0.0.1:${await freePort()}`, prefix, logger });
    cleanups.push(() => jobEvents.close());
    const t = await app({ jobEvents, heartbeatMs: 20 });
    const { stream } = await connect(t);
    const snapshot = snapshotEventSchema.parse((await stream.next()).data);
    expect(snapshot).toMatchObject({ redis: false, jobs: null, library: { version: t.library.version() } });
    await stream.next((m) => m.event === 'comment');
    await stream.next((m) => m.event === 'comment');
    await stream.cancel();
    await expect.poll(() => t.live.clients()).toBe(0);
    expect(jobEvents.readers()).toBe(0);
  });
});
