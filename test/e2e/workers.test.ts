import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { startProcess, tempInstall, waitFor, withTestKey, type RunningProcess, type TempInstall } from '@mo/test-support/service';

// The GPU-box layout of docs/operations.md: one worker for scan, library, media and notify, another for
// transcodes, configured for NVENC. GET /api/workers must show which box does what.
let install: TempInstall;
let api: RunningProcess;
let main: RunningProcess;
let gpu: RunningProcess;
let base: string;
const prefix = uniquePrefix('e2e-workers');
const redisUrl = testRedisUrl();

async function workers(): Promise<any> {
  const res = await fetch(`${base}/api/workers`, withTestKey());
  expect(res.status).toBe(200);
  return res.json();
}

beforeAll(async () => {
  install = await tempInstall('[app]\nscan_interval_seconds = 0\nwatch = false\n\n[transcoder]\nvideo_encoder = "h264_nvenc"\n');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env = { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: '127.0.0.1' };
  api = startProcess('api', env);
  main = startProcess('worker', { ...env, WORKER_QUEUES: 'scan,library,media,notify' });
  gpu = startProcess('worker', { ...env, WORKER_QUEUES: 'transcode' });
  await waitFor(async () => (await fetch(`${base}/api/ready`)).ok, 20_000, 'the api');
});

afterAll(async () => {
  await Promise.all([api?.stop('SIGKILL'), main?.stop('SIGKILL'), gpu?.stop('SIGKILL')]);
  await dropPrefix(redisUrl, prefix);
  await install?.cleanup();
});

describe('worker health end to end', () => {
  it('lists both real workers with their queues, and the encoders that really work on the transcode one', async () => {
    const report = await waitFor(
      async () => {
        const r = await workers();
        return r.workers.length === 2 && r.workers.every((w: any) => !w.queues.includes('transcode') || w.encoders_tested_at) && r;
      },
      30_000,
      'both workers, the encoders tested',
    ).catch((err: Error) => {
      throw new Error(`${err.message}\nmain worker:\n${main.output()}\ngpu worker:\n${gpu.output()}`);
    });
    const byQueues = Object.fromEntries(report.workers.map((w: any) => [w.queues.join(','), w]));
    expect(byQueues['scan,library,media,notify']).toMatchObject({
      host: hostname(),
      pid: main.proc.pid,
      concurrency: { scan: 1, library: 1, media: 1, notify: 1 },
      encoders: [],
      encoders_tested_at: null,
      alive: true,
    });
    const transcoder = byQueues.transcode;
    expect(transcoder).toMatchObject({ host: hostname(), pid: gpu.proc.pid, concurrency: { transcode: 1 }, alive: true });
    expect(transcoder.encoders).toContain('libx264');
    // h264_nvenc is in every Debian ffmpeg's -encoders list: only a test encode tells whether it works here.
    expect([...transcoder.encoders, ...Object.keys(transcoder.encoder_errors)].sort()).toEqual(['h264_nvenc', 'libx264']);
    expect(report.queues).toEqual({ scan: { workers: 1 }, library: { workers: 1 }, media: { workers: 1 }, transcode: { workers: 1 }, notify: { workers: 1 } });
    expect(gpu.output()).toContain('video encoders tested');
  });

  it('takes a worker off the list when it stops, leaving its queue with no worker', async () => {
    expect(await gpu.stop('SIGTERM')).toBe(0);
    const report = await workers();
    expect(report.workers.map((w: any) => w.queues.join(','))).toEqual(['scan,library,media,notify']);
    expect(report.queues.transcode).toEqual({ workers: 0 });
    expect(report.queues.scan).toEqual({ workers: 1 });
  });
});
