import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { jobsOfQueue, type QueueName } from '@mo/shared';
import { JOB_ENDS, type JobObserver, type Logger } from '@mo/core';
import { encodeScrape, processMetrics } from '@mo/core/metrics';

/** From a notice sent in a second to a transcode of hours. */
const DURATION_BUCKETS = [0.1, 0.5, 1, 5, 15, 30, 60, 300, 900, 1800, 3600, 7200, 14400];

export interface WorkerMetrics {
  observer: JobObserver;
  scrape(): Promise<string>;
  contentType: string;
}

/**
 * This worker process's own metrics: what it ran, how it ended and how long it took, by queue and
 * job. Every label value comes from a fixed list (queues, job names, outcomes), none from a job's data.
 */
export function createWorkerMetrics(opts: { queues: readonly QueueName[]; concurrency: Partial<Record<QueueName, number>> }): WorkerMetrics {
  const registry = new Registry();
  const runs = new Counter({
    name: 'mo_worker_jobs_total',
    help: 'Job runs this worker ended, by queue, job and outcome (completed, failed, cancelled, deferred, handed_back); a retried job fails once per attempt',
    labelNames: ['queue', 'job', 'outcome'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'mo_worker_job_duration_seconds',
    help: 'How long the job runs that completed or failed took on this worker',
    labelNames: ['queue', 'job', 'outcome'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const active = new Gauge({ name: 'mo_worker_jobs_active', help: 'Jobs running on this worker now', labelNames: ['queue'] as const, registers: [registry] });
  const slots = new Gauge({
    name: 'mo_worker_concurrency',
    help: 'Jobs this worker runs at a time on each of its queues (WORKER_CONCURRENCY)',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  // Known from the start: a rate over a counter that appears at its first job misses that job.
  for (const queue of opts.queues) {
    active.set({ queue }, 0);
    // As the worker host runs them: a queue WORKER_CONCURRENCY leaves out runs one at a time.
    slots.set({ queue }, opts.concurrency[queue] ?? 1);
    for (const job of jobsOfQueue(queue)) for (const outcome of JOB_ENDS) runs.inc({ queue, job, outcome }, 0);
  }
  const observer: JobObserver = {
    started(queue, job) {
      active.inc({ queue });
      const timed = durations.startTimer({ queue, job });
      let ended = false;
      return (outcome) => {
        if (ended) return;
        ended = true;
        active.dec({ queue });
        runs.inc({ queue, job, outcome });
        // A deferred or handed-back run was cut short, not finished: its time says nothing of the job's.
        if (outcome === 'completed' || outcome === 'failed') timed({ outcome });
      };
    },
  };
  const exposed = Registry.merge([processMetrics(), registry]);
  return { observer, scrape: () => exposed.metrics(), contentType: registry.contentType };
}

export interface MetricsServer {
  /** Where it listens, as `http://host:port/metrics`. */
  url: string;
  /** Stops listening and ends open connections (a scraper's keep-alive), so that a shutdown never waits on one. */
  close(): Promise<void>;
}

/**
 * GET /metrics on its own port; nothing else is served there. It asks for no key (Prometheus's
 * convention for an exporter): the figures hold no paths, names or secrets, and WORKER_METRICS_HOST
 * decides who can reach it. Rejects when the port cannot be had, so that the worker refuses to start.
 */
export async function serveMetrics(opts: { port: number; host: string; metrics: WorkerMetrics; logger: Logger }): Promise<MetricsServer> {
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    const text = { 'Content-Type': 'text/plain; charset=utf-8' };
    if (path !== '/metrics') return void res.writeHead(404, text).end('not found: this port serves GET /metrics only\n');
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return void res.writeHead(405, { ...text, Allow: 'GET, HEAD' }).end('method not allowed: GET /metrics only\n');
    try {
      const { body, gzip } = await encodeScrape(await opts.metrics.scrape(), req.headers['accept-encoding']);
      res.writeHead(200, {
        'Content-Type': opts.metrics.contentType,
        'Content-Length': Buffer.byteLength(body),
        Vary: 'Accept-Encoding',
        ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      opts.logger.error({ err: (err as Error).message }, 'could not collect the worker metrics');
      res.writeHead(500, text).end('could not collect the metrics\n');
    }
  };
  const server = createServer((req, res) => void answer(req, res));
  // A scrape is one small request: a client that takes longer to send it is cut off.
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const why =
        err.code === 'EADDRINUSE' ? 'the port is in use' : err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND' ? 'no such address here' : err.message;
      reject(new Error(`WORKER_METRICS_PORT: cannot listen on ${opts.host}:${opts.port} (WORKER_METRICS_HOST): ${why}`));
    });
    server.listen(opts.port, opts.host, () => resolve());
  });
  server.on('error', (err) => opts.logger.error({ err: err.message }, 'metrics server error'));
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
