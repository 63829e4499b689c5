import type { MiddlewareHandler } from 'hono';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { accumulate, libraryAccumulator, type JobClient, type LibraryCache, type RuntimeConfig } from '@mo/core';
import { processMetrics } from '@mo/core/metrics';

const LIBRARY_FIGURES = [
  ['files', 'Files in the cached library index'],
  ['bytes', 'Size of the files in the cached library index'],
  ['movies', 'Movies in the cached library index'],
  ['series', 'Series in the cached library index'],
  ['episodes', 'Episodes in the cached library index'],
] as const;

/**
 * The methods the API answers: any other a client sends (Node passes on dozens, PROPFIND, MKCOL…) is
 * `other`, so that no client can add series at will.
 */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The Prometheus registry of one app. Queue and library figures are read when scraped (queue
 * counts from Redis under the usual 2 s bound, the rest from memory), so nothing polls in between.
 */
export function createMetrics(deps: { jobs: JobClient; library: LibraryCache; config: RuntimeConfig }) {
  // Now rather than at the first scrape: the event-loop monitor has samples by then.
  const processRegistry = processMetrics();
  const registry = new Registry();
  const requests = new Histogram({
    name: 'mo_http_request_duration_seconds',
    help: 'API request durations by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const redisUp = new Gauge({ name: 'mo_redis_up', help: '1 when the job queue answered the last scrape', registers: [registry] });
  const queueJobs = new Gauge({
    name: 'mo_queue_jobs',
    help: 'Jobs in each queue by state',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
  });
  const queueWorkers = new Gauge({
    name: 'mo_queue_workers',
    help: 'Live workers consuming each queue (0: its jobs wait until a worker for it starts)',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  // Totals BullMQ keeps in Redis: a counter mirrored at each scrape, as an exporter does.
  const outcomes = new Counter({
    name: 'mo_queue_jobs_finished_total',
    help: 'Jobs finished per queue and outcome since the queue metrics began',
    labelNames: ['queue', 'outcome'] as const,
    registers: [registry],
  });
  // One metric per figure: a count of files and a number of bytes never share a name. Their own
  // registry, left out of a scrape before the first library scan: a gauge without labels cannot go
  // absent, and a 0 would chart an empty library where nothing is known yet.
  const libraryRegistry = new Registry();
  const library = Object.fromEntries(
    LIBRARY_FIGURES.map(([what, help]) => [what, new Gauge({ name: `mo_library_${what}`, help, registers: [libraryRegistry] })]),
  ) as Record<(typeof LIBRARY_FIGURES)[number][0], Gauge>;
  const lastScan = new Gauge({
    name: 'mo_last_scan_timestamp_seconds',
    help: 'When the last scanner pass and library scan started (unix seconds; absent: never)',
    labelNames: ['scan'] as const,
    registers: [registry],
  });
  const scrapes = new Counter({ name: 'mo_metrics_scrapes_total', help: 'Scrapes of this endpoint', registers: [registry] });

  async function collect(): Promise<string> {
    scrapes.inc();
    // Side by side, so that a Redis outage costs one deadline, not two.
    const [stats, workers] = await Promise.allSettled([deps.jobs.stats(), deps.jobs.workers()]);
    // Unknown, not the last figures seen: the series go missing until Redis answers again.
    queueJobs.reset();
    outcomes.reset();
    queueWorkers.reset();
    redisUp.set(stats.status === 'fulfilled' ? 1 : 0);
    if (stats.status === 'fulfilled') {
      for (const s of stats.value) {
        for (const [state, n] of Object.entries(s.counts)) queueJobs.set({ queue: s.queue, state }, n);
        outcomes.inc({ queue: s.queue, outcome: 'completed' }, s.completed_total);
        outcomes.inc({ queue: s.queue, outcome: 'failed' }, s.failed_total);
      }
    }
    if (workers.status === 'fulfilled') {
      for (const [queue, { workers: n }] of Object.entries(workers.value.queues)) queueWorkers.set({ queue }, n);
    }
    const summary = await deps.library.derive(
      'metrics.summary',
      accumulate(libraryAccumulator, (acc, header) => (header ? acc.summary(header) : null)),
    );
    if (summary) for (const [what] of LIBRARY_FIGURES) library[what].set(summary[what]);
    // A scan that never ran has no time: a 0 would read as 1970 (and `time() - x` as 56 years ago).
    const state = deps.config.currentState();
    lastScan.reset();
    for (const [scan, iso] of [
      ['scanner', state.last_scan_at],
      ['library', state.last_library_scan_at],
    ] as const) {
      if (iso) lastScan.set({ scan }, Date.parse(iso) / 1000);
    }
    return Registry.merge([processRegistry, registry, ...(summary ? [libraryRegistry] : [])]).metrics();
  }

  const middleware: MiddlewareHandler = async (c, next) => {
    const end = requests.startTimer();
    try {
      await next();
    } finally {
      // The route pattern, not the path: ids and paths in URLs must not explode the label set.
      // Only middleware (a `*` pattern) matched: an unknown route.
      const path = c.req.routePath;
      const route = path && !path.endsWith('*') ? path : 'unmatched';
      end({ method: METHODS.has(c.req.method) ? c.req.method : 'other', route, status: String(c.res.status) });
    }
  };

  return { registry, collect, middleware, contentType: registry.contentType };
}
