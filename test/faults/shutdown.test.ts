// Stopping: every process exits within 10 s of SIGTERM (Ctrl-C under scripts/start, `docker stop`),
// with a live event stream open, or with its log reader gone. The hand-back of a job a worker is
// running is tested beside the worker host (packages/core/src/queue/jobs.test.ts).
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { startProcess, tempInstall, TEST_API_KEY, waitFor, withTestKey, type RunningProcess, type TempInstall } from '@mo/test-support/service';

const redisUrl = testRedisUrl();
const prefix = uniquePrefix('shutdown');
const STOP_WITHIN_MS = 10_000;
let install: TempInstall;
const running: RunningProcess[] = [];

beforeAll(async () => {
  install = await tempInstall('[app]\nwatch = false\nscan_interval_seconds = 0\n');
});

afterAll(async () => {
  for (const p of running) await p.stop('SIGKILL');
  await dropPrefix(redisUrl, prefix);
  await install?.cleanup();
});

async function startApi(): Promise<{ api: RunningProcess; port: number }> {
  const port = await freePort();
  const api = startProcess('api', {
    MEDIA_ORGANIZER_CONFIG: install.configFile,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    PORT: String(port),
    HOST: '127.0.0.1',
  });
  running.push(api);
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/api/ready`, withTestKey())).ok, 30_000, 'the api');
  return { api, port };
}

/** Sends SIGTERM and resolves with how long the process took to exit, or rejects past STOP_WITHIN_MS. */
async function stopTime(p: RunningProcess): Promise<number> {
  const t = Date.now();
  const exited = p.stop('SIGTERM');
  const late = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still running ${STOP_WITHIN_MS} ms after SIGTERM`)), STOP_WITHIN_MS));
  await Promise.race([exited, late]);
  return Date.now() - t;
}

describe('SIGTERM', () => {
  it('stops an API whose /api/events stream is open, closing the stream', async () => {
    const { api, port } = await startApi();
    const ended = new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/api/events', headers: { 'x-api-key': TEST_API_KEY } }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve(text));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(await stopTime(api)).toBeLessThan(STOP_WITHIN_MS);
    expect(await ended).toContain('event: snapshot');
  }, 60_000);

  it('stops an API whose log reader has died (a closed stdout pipe)', async () => {
    const { api } = await startApi();
    api.proc.stdout!.destroy();
    expect(await stopTime(api)).toBeLessThan(STOP_WITHIN_MS);
  }, 60_000);

  it('stops a worker whose log reader has died', async () => {
    const worker = startProcess('worker', { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix });
    running.push(worker);
    await waitFor(async () => worker.output().includes('worker started'), 30_000, 'the worker');
    worker.proc.stdout!.destroy();
    expect(await stopTime(worker)).toBeLessThan(STOP_WITHIN_MS);
  }, 60_000);

  it('stops a worker whose metrics endpoint a scraper keeps a connection open to', async () => {
    const port = await freePort();
    const worker = startProcess('worker', {
      MEDIA_ORGANIZER_CONFIG: install.configFile,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: prefix,
      WORKER_METRICS_PORT: String(port),
    });
    running.push(worker);
    await waitFor(async () => worker.output().includes('worker started'), 30_000, 'the worker');
    // As Prometheus scrapes: one kept-alive connection, idle between scrapes.
    const agent = new Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/metrics', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    expect(await stopTime(worker)).toBeLessThan(STOP_WITHIN_MS);
    expect(await worker.stop()).toBe(0);
    agent.destroy();
  }, 60_000);
});
