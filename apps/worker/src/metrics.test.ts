import { request, Agent } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { Queue, UnrecoverableError } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { createJobClient, createLogger, createWorkerHost, type JobClient, type WorkerHost } from '@mo/core';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { PROM_CLIENT_TOTAL_GAUGES, readExposition, type Sample } from '@mo/test-support/prometheus-text';
import { promtool, promtoolProblems } from '@mo/test-support/promtool';
import { createWorkerMetrics, serveMetrics, type MetricsServer } from './metrics.ts';

const logger = createLogger({ name: 'worker-metrics-test', level: 'silent' });
const redisUrl = testRedisUrl();
const summary = { files: 0, bytes: 0, movies: 0, series: 0, episodes: 0, scanned_at: null, duration_ms: 0, truncated: false, timed_out: false };

let prefix: string | undefined;
let host: WorkerHost | undefined;
let client: JobClient | undefined;
let server: MetricsServer | undefined;

afterEach(async () => {
  await server?.close();
  await host?.close();
  await client?.close();
  if (prefix) await dropPrefix(redisUrl, prefix);
  server = host = client = prefix = undefined;
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(url: string, opts: { method?: string; headers?: Record<string, string>; agent?: Agent } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'GET', headers: opts.headers, agent: opts.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function scrape(url: string) {
  const res = await get(url);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  const read = readExposition(res.body.toString('utf8'), { totalGauges: PROM_CLIENT_TOTAL_GAUGES });
  expect(read.problems).toEqual([]);
  return read.families;
}

const value = (samples: Sample[] | undefined, name: string, labels: Record<string, string>) =>
  samples?.find(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v) && Object.keys(s.labels).length >= Object.keys(labels).length,
  )?.value;

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

describe('the worker metrics endpoint, with a real worker host and Redis', () => {
  it('counts the runs of its queues by job and outcome, times them, and knows the jobs running now', async () => {
    prefix = uniquePrefix('worker-metrics');
    const metrics = createWorkerMetrics({ queues: ['library'], concurrency: {} });
    server = await serveMetrics({ port: 0, host: '127.0.0.1', metrics, logger });
    let behaviour: 'complete' | 'fail' | 'hold' = 'complete';
    const held = gate();
    const started = gate();
    host = createWorkerHost({
      redisUrl,
      prefix,
      queues: ['library'],
      logger,
      observer: metrics.observer,
      handlers: {
        // Served by every worker of the library queue; never queued in this test.
        'recycle-purge': async () => Promise.reject(new Error('no purge in this test')),
        'library-organize': async () => Promise.reject(new Error('no organize in this test')),
        'library-scan': async (_payload, ctx) => {
          if (behaviour === 'fail') throw new UnrecoverableError('disk on fire');
          if (behaviour === 'hold') {
            started.open();
            await Promise.race([held.opened, new Promise((r) => ctx.signal.addEventListener('abort', r))]);
            throw new Error('stopped');
          }
          return { summary };
        },
      },
    });
    client = createJobClient({ redisUrl, prefix, logger });

    // Before any job: every series of its queue is there, at 0, so that a rate sees the first job.
    const before = await scrape(server.url);
    expect(before.get('mo_worker_jobs_total')!.samples).toEqual(
      ['library-scan', 'library-organize', 'recycle-purge'].flatMap((job) =>
        ['completed', 'failed', 'cancelled', 'deferred', 'handed_back'].map((outcome) => ({
          name: 'mo_worker_jobs_total',
          labels: { queue: 'library', job, outcome },
          value: 0,
        })),
      ),
    );
    expect(before.get('mo_worker_jobs_active')!.samples).toEqual([{ name: 'mo_worker_jobs_active', labels: { queue: 'library' }, value: 0 }]);
    expect(before.get('mo_worker_concurrency')!.samples).toEqual([{ name: 'mo_worker_concurrency', labels: { queue: 'library' }, value: 1 }]);
    expect(before.get('mo_worker_job_duration_seconds')!.type).toBe('histogram');
    expect(before.get('process_resident_memory_bytes')!.samples[0]!.value).toBeGreaterThan(0);
    expect(before.get('nodejs_eventloop_lag_seconds')!.type).toBe('gauge');
    expect(before.get('mo_build_info')!.samples[0]!.labels.node_version).toBe(process.version);

    expect((await client.submit('library-scan', { trigger: 'api' }, { waitSeconds: 10 })).kind).toBe('completed');
    behaviour = 'fail';
    const failed = await client.submit('library-scan', { trigger: 'api' }, { waitSeconds: 10 });
    expect(failed.kind).toBe('failed');
    // A job no handler knows, added past the API: refused, and counted under `unknown`, not its name.
    const queue = new Queue('library', { connection: { host: new URL(redisUrl).hostname, port: Number(new URL(redisUrl).port || 6379) }, prefix });
    await queue.add('x-made-up-name', {});
    await queue.close();

    await expect
      .poll(
        async () => value((await scrape(server!.url)).get('mo_worker_jobs_total')?.samples, 'mo_worker_jobs_total', { job: 'unknown', outcome: 'failed' }),
        { timeout: 10_000 },
      )
      .toBe(1);
    const after = await scrape(server.url);
    const runs = after.get('mo_worker_jobs_total')!.samples;
    expect(value(runs, 'mo_worker_jobs_total', { job: 'library-scan', outcome: 'completed' })).toBe(1);
    expect(value(runs, 'mo_worker_jobs_total', { job: 'library-scan', outcome: 'failed' })).toBe(1);
    expect(runs.some((s) => s.labels.job === 'x-made-up-name')).toBe(false);
    const durations = after.get('mo_worker_job_duration_seconds')!.samples;
    expect(value(durations, 'mo_worker_job_duration_seconds_count', { queue: 'library', job: 'library-scan', outcome: 'completed' })).toBe(1);
    expect(value(durations, 'mo_worker_job_duration_seconds_count', { queue: 'library', job: 'library-scan', outcome: 'failed' })).toBe(1);
    expect(value(durations, 'mo_worker_job_duration_seconds_sum', { queue: 'library', job: 'library-scan', outcome: 'completed' })).toBeLessThan(5);

    // One running: active says so; a shutdown hands it back, which is no failure and no duration.
    behaviour = 'hold';
    await client.submit('library-scan', { trigger: 'api' }, { waitSeconds: 0 });
    await started.opened;
    expect(value((await scrape(server.url)).get('mo_worker_jobs_active')!.samples, 'mo_worker_jobs_active', { queue: 'library' })).toBe(1);
    await host.close();
    host = undefined;
    const stopped = await scrape(server.url);
    expect(value(stopped.get('mo_worker_jobs_active')!.samples, 'mo_worker_jobs_active', { queue: 'library' })).toBe(0);
    expect(value(stopped.get('mo_worker_jobs_total')!.samples, 'mo_worker_jobs_total', { job: 'library-scan', outcome: 'handed_back' })).toBe(1);
    expect(
      value(stopped.get('mo_worker_job_duration_seconds')!.samples, 'mo_worker_job_duration_seconds_count', { job: 'library-scan', outcome: 'handed_back' }),
    ).toBeUndefined();
    if (promtool) expect(promtoolProblems((await get(server.url)).body.toString('utf8'))).toEqual([]);
  });

  it('gzips for a scraper that accepts it, serves /metrics only, and closes with a scraper still connected', async () => {
    const metrics = createWorkerMetrics({ queues: ['transcode', 'notify'], concurrency: { transcode: 2 } });
    server = await serveMetrics({ port: 0, host: '127.0.0.1', metrics, logger });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);

    const zipped = await get(server.url, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    const text = gunzipSync(zipped.body).toString('utf8');
    const { families, problems } = readExposition(text, { totalGauges: PROM_CLIENT_TOTAL_GAUGES });
    expect(problems).toEqual([]);
    expect(families.get('mo_worker_concurrency')!.samples).toEqual([
      { name: 'mo_worker_concurrency', labels: { queue: 'transcode' }, value: 2 },
      { name: 'mo_worker_concurrency', labels: { queue: 'notify' }, value: 1 },
    ]);
    expect(zipped.body.length).toBeLessThan(text.length / 3);
    const plain = await get(server.url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(readExposition(plain.body.toString('utf8'), { totalGauges: PROM_CLIENT_TOTAL_GAUGES }).problems).toEqual([]);

    const head = await get(server.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const root = new URL(server.url).origin;
    for (const path of ['/', '/api/metrics', '/metrics/x', '/metrics.txt']) expect((await get(`${root}${path}`)).status, path).toBe(404);
    expect((await get(`${server.url}?x=1`)).status).toBe(200);
    const post = await get(server.url, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');

    // Prometheus keeps its connection open between scrapes: closing must not wait for it.
    const agent = new Agent({ keepAlive: true });
    expect((await get(server.url, { agent })).status).toBe(200);
    const t0 = Date.now();
    await server.close();
    server = undefined;
    expect(Date.now() - t0).toBeLessThan(1000);
    agent.destroy();
  });

  it('refuses a port it cannot have, naming the variables', async () => {
    const metrics = createWorkerMetrics({ queues: ['notify'], concurrency: {} });
    server = await serveMetrics({ port: 0, host: '127.0.0.1', metrics, logger });
    const port = Number(new URL(server.url).port);
    await expect(serveMetrics({ port, host: '127.0.0.1', metrics, logger })).rejects.toThrow(
      `WORKER_METRICS_PORT: cannot listen on 127.0.0.1:${port} (WORKER_METRICS_HOST): the port is in use`,
    );
  });
});
