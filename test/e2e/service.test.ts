import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { startProcess, tempInstall, waitFor, type RunningProcess, type TempInstall, withTestKey } from '@mo/test-support/service';
import { sseReader } from '@mo/api/test-support/sse';

// The whole service as users run it: two processes, a real Redis, real HTTP.
let install: TempInstall;
let api: RunningProcess;
let worker: RunningProcess;
let base: string;
const prefix = uniquePrefix('e2e');
const redisUrl = testRedisUrl();

async function http(path: string, init?: RequestInit) {
  const res = await fetch(base + path, withTestKey(init));
  return { status: res.status, body: (await res.json()) as any };
}
const postJson = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

beforeAll(async () => {
  install = await tempInstall('[app]\nscan_interval_seconds = 3600\n');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env = { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: '127.0.0.1' };
  api = startProcess('api', env);
  worker = startProcess('worker', env);
  await waitFor(async () => (await fetch(`${base}/api/ready`)).ok, 20_000, 'the api');
});

afterAll(async () => {
  await api?.stop('SIGKILL');
  await worker?.stop('SIGKILL');
  await dropPrefix(redisUrl, prefix);
  await install?.cleanup();
});

describe('the service end to end', () => {
  it('answers health and ready', async () => {
    expect(await http('/api/health')).toEqual({ status: 200, body: { ok: true } });
    // Downloads and disk1 are folders of one temp folder: one mount, so a link reaches the drive.
    expect(await http('/api/ready')).toEqual({ status: 200, body: { ok: true, redis: 'up', hardlinks: { disk1: true } } });
  });

  it('serves config, theme, jobs and errors over real HTTP', async () => {
    const config = await http('/api/config');
    expect(config.status).toBe(200);
    expect(config.body.paths.data).toBe(install.paths.data);
    expect(config.body.app).not.toHaveProperty('api_key');

    await writeFile(join(install.paths.config, 'custom-theme.css'), 'h1 { color: teal; }');
    const css = await fetch(`${base}/api/theme/custom.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await css.text()).toBe('h1 { color: teal; }');
    const again = await fetch(`${base}/api/theme/custom.css`, { headers: { 'if-none-match': css.headers.get('etag')! } });
    expect(again.status).toBe(304);

    expect(await http('/api/jobs/scan/no-such-job')).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    expect(await http('/api/nowhere')).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    const big = await http('/api/settings', postJson({ app: { api_key: 'x'.repeat(1_100_000) } }));
    expect(big).toMatchObject({ status: 413, body: { error: { code: 'payload_too_large' } } });
    const bad = await http('/api/settings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"dry_run":' });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'bad_request' } } });
  });

  it('runs a scanner pass through the worker and records it in the state', async () => {
    const { status, body } = await http('/api/scan', { method: 'POST' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ dry_run: true, plans: [], moves: [], skipped: [] });
    const state = JSON.parse(await readFile(join(install.paths.data, 'state.json'), 'utf8'));
    // The periodic pass the worker schedules at start may have run after this one.
    expect(Date.parse(state.last_scan_at)).toBeGreaterThanOrEqual(Date.parse(body.started_at));
  });

  it('a library scan answers 202 with wait=0 and can be followed to completion', async () => {
    const { status, body } = await http('/api/library/scan?wait=0', { method: 'POST' });
    expect(status).toBe(202);
    expect(body.job).toMatchObject({ queue: 'library' });
    expect(body.status_url).toBe(`/api/jobs/library/${body.job.id}`);
    const done = await waitFor(async () => {
      const r = await http(body.status_url);
      return r.body.state === 'completed' && r.body;
    });
    expect(done.result.summary).toMatchObject({ files: 0, truncated: false });
  });

  it('a library scan in the worker changes what GET /api/library answers, at once', async () => {
    const movie = join(install.paths.drive, 'Movies', 'Heat (1995)');
    await mkdir(movie, { recursive: true });
    await writeFile(join(movie, 'Heat (1995).mkv'), Buffer.alloc(1234));
    expect((await http('/api/library')).body.summary.movies).toBe(0);
    const { status, body } = await http('/api/library/scan', { method: 'POST' });
    expect(status).toBe(200);
    expect(body.summary).toMatchObject({ files: 1, bytes: 1234, movies: 1 });
    const lib = await http('/api/library');
    expect(lib.body.movies).toEqual([{ title: 'Heat', year: 1995, folder: movie, drive: 'disk1', files: 1, bytes: 1234 }]);
    expect((await http('/api/dashboard')).body.library).toMatchObject({ files: 1, movies: 1 });
  });

  it('a settings change takes effect in the worker without a restart', async () => {
    expect((await http('/api/settings', postJson({ dry_run: false }))).status).toBe(200);
    const { body } = await http('/api/scan', { method: 'POST' });
    expect(body.dry_run).toBe(false);
    expect((await http('/api/settings', postJson({ app: { dry_run: true } }))).status).toBe(200);
    expect((await http('/api/scan', { method: 'POST' })).body.dry_run).toBe(true);
  });

  it('a new scan interval reschedules the periodic pass, and 0 removes it', async () => {
    const queue = new Queue('scan', { connection: { host: new URL(redisUrl).hostname, port: Number(new URL(redisUrl).port || 6379) }, prefix });
    try {
      await waitFor(async () => (await queue.getJobScheduler('periodic-scan-pass'))?.every === 3_600_000, 10_000, 'the first schedule');
      await http('/api/settings', postJson({ scan_interval_seconds: 120 }));
      await waitFor(async () => (await queue.getJobScheduler('periodic-scan-pass'))?.every === 120_000, 10_000, 'the new schedule');
      await http('/api/settings', postJson({ scan_interval_seconds: 0 }));
      await waitFor(async () => !(await queue.getJobScheduler('periodic-scan-pass')), 10_000, 'no schedule');
    } finally {
      await queue.close();
    }
  });

  it('log level changes apply while running, in the api and in the worker', async () => {
    const quiet = async (ms = 300) => {
      const a = api.output().length;
      const w = worker.output().length;
      await http('/api/health');
      await http('/api/scan', { method: 'POST' });
      await new Promise((r) => setTimeout(r, ms));
      return { api: api.output().slice(a), worker: worker.output().slice(w) };
    };
    await http('/api/settings', postJson({ log_level: 'warn' }));
    await new Promise((r) => setTimeout(r, 1500));
    const silent = await quiet();
    expect(silent.api).not.toContain('"msg":"request"');
    expect(silent.worker).not.toContain('"msg":"job started"');
    await http('/api/settings', postJson({ log_level: 'info' }));
    await waitFor(async () => (await quiet(100)).worker.includes('"msg":"job started"'), 10_000, 'worker info lines');
    expect((await quiet()).api).toContain('"msg":"request"');
  });

  let events: ReturnType<typeof sseReader> | undefined;
  it('streams the start and end of a scanner pass the worker runs, and a settings change', async () => {
    const res = await fetch(`${base}/api/events`, withTestKey());
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    events = sseReader(res.body!);
    expect(await events.next()).toMatchObject({ event: 'snapshot', data: { redis: true } });
    await http('/api/scan?wait=0', { method: 'POST' });
    // Filtered by queue: the stream may open with a replay of the last seconds (the library scans above).
    const started = await events.next(
      (m) => m.event === 'job' && (m.data as { queue: string; state: string }).queue === 'scan' && (m.data as { state: string }).state === 'active',
    );
    expect(started.data).toMatchObject({ queue: 'scan', name: 'scan-pass' });
    const id = (started.data as { id: string }).id;
    await events.next((m) => m.event === 'job' && (m.data as { id: string; state: string }).id === id && (m.data as { state: string }).state === 'completed');
    await http('/api/settings', postJson({ settle_seconds: 11 }));
    expect(await events.next((m) => m.event === 'settings')).toMatchObject({ data: { sections: ['app'] } });
  });

  it('SIGTERM stops both processes cleanly with exit code 0, ending open event streams', async () => {
    expect(await worker.stop('SIGTERM')).toBe(0);
    // The event stream above is still open: the API ends it rather than wait out its grace period.
    expect(await api.stop('SIGTERM')).toBe(0);
    await events?.ended();
    expect(api.output()).toContain('"msg":"stopped"');
    expect(worker.output()).toContain('"msg":"stopped"');
  });
});
