import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, PrivateRedis, uniquePrefix } from '@mo/test-support/redis';
import { startProcess, tempInstall, waitFor, type RunningProcess, type TempInstall, withTestKey } from '@mo/test-support/service';

// A Redis of the test's own that it can stop and start: the service must answer, not hang, and
// both processes must recover without a restart.
let redis: PrivateRedis;
let install: TempInstall;
let api: RunningProcess;
let worker: RunningProcess;
let base: string;

async function timed(path: string, init?: RequestInit) {
  const started = performance.now();
  const res = await fetch(base + path, withTestKey(init));
  return { status: res.status, body: (await res.json()) as any, ms: performance.now() - started };
}

beforeAll(async () => {
  redis = await PrivateRedis.start();
  install = await tempInstall('[app]\nscan_interval_seconds = 0\nwatch = false\n');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env = {
    MEDIA_ORGANIZER_CONFIG: install.configFile,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: uniquePrefix('outage'),
    PORT: String(port),
    HOST: '127.0.0.1',
  };
  api = startProcess('api', env);
  worker = startProcess('worker', env);
  await waitFor(async () => (await fetch(`${base}/api/ready`)).ok, 20_000, 'the api');
  expect((await timed('/api/scan', { method: 'POST' })).status).toBe(200);
});

afterAll(async () => {
  await api?.stop('SIGKILL');
  await worker?.stop('SIGKILL');
  await redis?.stop();
  await install?.cleanup();
});

describe('Redis down and back', () => {
  it('health stays up, ready and job POSTs answer 503 within 2 s, then both processes recover', async () => {
    await redis.stop();

    const health = await timed('/api/health');
    expect(health.status).toBe(200);

    const ready = await timed('/api/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ ok: false, redis: 'down' });
    expect(ready.ms).toBeLessThan(2000);

    for (const path of ['/api/scan', '/api/library/scan', '/api/scan?wait=0']) {
      const r = await timed(path, { method: 'POST' });
      expect(r.status, path).toBe(503);
      expect(r.body.error.code).toBe('unavailable');
      expect(r.ms, path).toBeLessThan(2000);
    }
    const job = await timed('/api/jobs/scan/1');
    expect(job.status).toBe(503);
    expect(job.ms).toBeLessThan(2000);
    const recent = await timed('/api/jobs');
    expect(recent.status).toBe(503);
    expect(recent.body.error.code).toBe('unavailable');
    expect(recent.ms).toBeLessThan(2000);
    // The passes are read from their files: the one run before the outage is still listed.
    const passes = await timed('/api/scan/passes');
    expect(passes.status).toBe(200);
    expect(passes.body.passes).toHaveLength(1);

    // Cached and local reads do not need Redis.
    expect((await timed('/api/config')).status).toBe(200);

    await redis.start();
    await waitFor(async () => (await fetch(`${base}/api/ready`)).status === 200, 15_000, 'ready again');
    // The worker reconnects too: a pass is carried out end to end.
    const scan = await waitFor(
      async () => {
        const r = await timed('/api/scan?wait=5', { method: 'POST' });
        return r.status === 200 && r;
      },
      20_000,
      'a scan after recovery',
    );
    expect(scan.body).toMatchObject({ dry_run: true, plans: [] });
    expect(api.proc.exitCode).toBeNull();
    expect(worker.proc.exitCode).toBeNull();
  }, 60_000);
});
