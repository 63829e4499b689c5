import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { libraryScanOptions, scanLibrary, writeLibraryIndex, type QueueStats } from '@mo/core';
import type { WorkersReport } from '@mo/shared';
// The service's version is the root package's, which no workspace package can name.
// eslint-disable-next-line import-x/no-relative-packages
import rootPackage from '../../../../package.json' with { type: 'json' };
import { stubJobs, testApp, type TestApp } from '../test-support/app.ts';
import { PROM_CLIENT_TOTAL_GAUGES, readExposition } from '@mo/test-support/prometheus-text';
import { promtool, promtoolProblems } from '@mo/test-support/promtool';

let t: TestApp;
afterEach(async () => t?.close());

function jobsWithStats(stats: () => Promise<QueueStats[]>) {
  return { ...stubJobs(), stats };
}

const counts = (waiting: number) => ({ waiting, active: 0, delayed: 0, completed: 2, failed: 1 });

async function scrapeText() {
  const res = await t.app.request('/api/metrics');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(res.headers.get('content-encoding')).toBeNull();
  return res.text();
}

async function scrape() {
  return readExposition(await scrapeText(), { totalGauges: PROM_CLIENT_TOTAL_GAUGES });
}

describe('GET /api/metrics', () => {
  it('is a valid exposition: counters end in _total, one metric per unit, every family typed and described', async () => {
    let finished = 5;
    t = await testApp({ jobs: jobsWithStats(async () => [{ queue: 'scan', counts: counts(3), completed_total: finished, failed_total: 1 }]) });
    await t.app.request('/api/health');
    await t.app.request('/api/nothing/here');
    const { families, problems } = await scrape();
    expect(problems).toEqual([]);
    const types = Object.fromEntries([...families.values()].filter((f) => f.name.startsWith('mo_')).map((f) => [f.name, f.type]));
    expect(types).toEqual({
      mo_build_info: 'gauge',
      mo_http_request_duration_seconds: 'histogram',
      mo_redis_up: 'gauge',
      mo_queue_jobs: 'gauge',
      mo_queue_workers: 'gauge',
      mo_queue_jobs_finished_total: 'counter',
      mo_last_scan_timestamp_seconds: 'gauge',
      mo_metrics_scrapes_total: 'counter',
    });
    // No label splits one metric into figures of different kinds (a count beside a size).
    for (const f of families.values()) for (const s of f.samples) expect(Object.keys(s.labels), f.name).not.toContain('what');
    expect(families.get('mo_queue_jobs_finished_total')!.samples).toEqual([
      { name: 'mo_queue_jobs_finished_total', labels: { queue: 'scan', outcome: 'completed' }, value: 5 },
      { name: 'mo_queue_jobs_finished_total', labels: { queue: 'scan', outcome: 'failed' }, value: 1 },
    ]);
    expect(families.get('mo_http_request_duration_seconds')!.samples).toContainEqual({
      name: 'mo_http_request_duration_seconds_count',
      labels: { method: 'GET', route: 'unmatched', status: '404' },
      value: 1,
    });

    // The counter mirrors Redis's total on every scrape, not a sum of what earlier scrapes saw.
    finished = 9;
    const again = await scrape();
    expect(again.problems).toEqual([]);
    expect(again.families.get('mo_queue_jobs_finished_total')!.samples[0]!.value).toBe(9);
    expect(again.families.get('mo_metrics_scrapes_total')!.samples[0]!.value).toBe(2);
  });

  it('leaves the queue figures out while Redis does not answer, rather than repeat stale ones', async () => {
    let up = true;
    t = await testApp({
      jobs: jobsWithStats(async () => {
        if (!up) throw new Error('redis down');
        return [{ queue: 'scan', counts: counts(3), completed_total: 5, failed_total: 1 }];
      }),
    });
    expect((await scrape()).families.get('mo_queue_jobs')!.samples.length).toBeGreaterThan(0);
    up = false;
    const { families, problems } = await scrape();
    expect(problems).toEqual([]);
    expect(families.get('mo_redis_up')!.samples[0]!.value).toBe(0);
    expect(families.get('mo_queue_jobs')!.samples).toEqual([]);
    expect(families.get('mo_queue_jobs_finished_total')!.samples).toEqual([]);
  });

  it('counts the live workers of every queue, 0 where none consumes it, and leaves them out while Redis does not answer', async () => {
    let report: WorkersReport | null = {
      workers: [],
      queues: { scan: { workers: 1 }, library: { workers: 1 }, media: { workers: 2 }, transcode: { workers: 0 }, notify: { workers: 1 } },
    };
    t = await testApp({
      jobs: {
        ...jobsWithStats(async () => []),
        workers: async () => {
          if (!report) throw new Error('redis down');
          return report;
        },
      },
    });
    const { families, problems } = await scrape();
    expect(problems).toEqual([]);
    expect(families.get('mo_queue_workers')!.samples).toEqual([
      { name: 'mo_queue_workers', labels: { queue: 'scan' }, value: 1 },
      { name: 'mo_queue_workers', labels: { queue: 'library' }, value: 1 },
      { name: 'mo_queue_workers', labels: { queue: 'media' }, value: 2 },
      { name: 'mo_queue_workers', labels: { queue: 'transcode' }, value: 0 },
      { name: 'mo_queue_workers', labels: { queue: 'notify' }, value: 1 },
    ]);
    report = null;
    expect((await scrape()).families.get('mo_queue_workers')!.samples).toEqual([]);
  });
});

describe('GET /api/metrics: what a Grafana dashboard charts', () => {
  it("has prom-client's process and Node.js metrics, and mo_build_info naming the version and the Node.js", async () => {
    t = await testApp();
    const { families, problems } = await scrape();
    expect(problems).toEqual([]);
    for (const [name, type] of [
      ['process_resident_memory_bytes', 'gauge'],
      ['process_cpu_seconds_total', 'counter'],
      ['process_start_time_seconds', 'gauge'],
      ['process_open_fds', 'gauge'],
      ['nodejs_eventloop_lag_seconds', 'gauge'],
      ['nodejs_eventloop_lag_p99_seconds', 'gauge'],
      ['nodejs_heap_size_used_bytes', 'gauge'],
      ['nodejs_heap_space_size_used_bytes', 'gauge'],
      ['nodejs_gc_duration_seconds', 'histogram'],
    ] as const)
      expect(families.get(name)?.type, name).toBe(type);
    expect(families.get('process_resident_memory_bytes')!.samples[0]!.value).toBeGreaterThan(10 * 1024 * 1024);
    // The sources run here, unbundled: no commit is known, and the label is left out, not made up.
    expect(families.get('mo_build_info')!.samples).toEqual([
      { name: 'mo_build_info', labels: { version: rootPackage.version, node_version: process.version }, value: 1 },
    ]);
  });

  it('labels requests with their method, and any method the API does not answer as "other"', async () => {
    t = await testApp();
    await t.app.request('/api/health');
    await t.app.request('/api/health', { method: 'HEAD' });
    await t.app.request('/api/scan', { method: 'DELETE' });
    for (const method of ['PROPFIND', 'MKCOL', 'X-MADE-UP']) await t.app.request('/api/health', { method });
    const samples = (await scrape()).families.get('mo_http_request_duration_seconds')!.samples.filter((s) => s.name.endsWith('_count'));
    const counts = samples.map((s) => [s.labels.method, s.labels.route, s.value]);
    expect(counts).toContainEqual(['GET', '/api/health', 1]);
    expect(counts).toContainEqual(['HEAD', '/api/health', 1]);
    expect(counts).toContainEqual(['other', 'unmatched', 3]);
    expect(new Set(samples.map((s) => s.labels.method))).toEqual(new Set(['GET', 'HEAD', 'DELETE', 'other']));
  });

  it('leaves out the scan times and library figures until a scan has run, rather than a 0 that reads as 1970 or an empty library', async () => {
    t = await testApp();
    const before = await scrape();
    expect(before.problems).toEqual([]);
    expect(before.families.get('mo_last_scan_timestamp_seconds')!.samples).toEqual([]);
    for (const what of ['files', 'bytes', 'movies', 'series', 'episodes']) expect(before.families.has(`mo_library_${what}`), what).toBe(false);

    const movie = join(t.install.paths.drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    await mkdir(join(movie, '..'), { recursive: true });
    await writeFile(movie, Buffer.alloc(100));
    const cfg = t.config.current();
    await writeLibraryIndex(cfg.paths.data, await scanLibrary(libraryScanOptions(cfg)));
    await t.library.refresh();
    await t.config.state.update((s) => ({ ...s, last_library_scan_at: '2026-03-01T12:00:00.000Z' }));
    await t.config.refresh();

    const after = await scrape();
    expect(after.problems).toEqual([]);
    // Only the scan that ran has a time; the scanner pass that never did stays absent.
    expect(after.families.get('mo_last_scan_timestamp_seconds')!.samples).toEqual([
      { name: 'mo_last_scan_timestamp_seconds', labels: { scan: 'library' }, value: Date.parse('2026-03-01T12:00:00.000Z') / 1000 },
    ]);
    expect(after.families.get('mo_library_files')!.samples).toEqual([{ name: 'mo_library_files', labels: {}, value: 1 }]);
    expect(after.families.get('mo_library_bytes')!.samples).toEqual([{ name: 'mo_library_bytes', labels: {}, value: 100 }]);
    expect(after.families.get('mo_library_movies')!.samples).toEqual([{ name: 'mo_library_movies', labels: {}, value: 1 }]);
  });

  it('answers gzip to a scraper that accepts it (as Prometheus does), and plain text to one that does not', async () => {
    t = await testApp();
    for (let i = 0; i < 20; i++) await t.app.request(`/api/nothing/${i}`);
    const zipped = await t.app.request('/api/metrics', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(zipped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = Buffer.from(await zipped.arrayBuffer());
    const text = gunzipSync(body).toString('utf8');
    const { families, problems } = readExposition(text, { totalGauges: PROM_CLIENT_TOTAL_GAUGES });
    expect(problems).toEqual([]);
    expect(families.get('mo_http_request_duration_seconds')!.samples).toContainEqual({
      name: 'mo_http_request_duration_seconds_count',
      labels: { method: 'GET', route: 'unmatched', status: '404' },
      value: 20,
    });
    expect(body.length).toBeLessThan(text.length / 4);

    for (const refused of [undefined, 'identity', 'gzip;q=0', 'br']) {
      const res = await t.app.request('/api/metrics', refused ? { headers: { 'Accept-Encoding': refused } } : {});
      expect(res.headers.get('content-encoding'), refused).toBeNull();
      expect(readExposition(await res.text(), { totalGauges: PROM_CLIENT_TOTAL_GAUGES }).problems, refused).toEqual([]);
    }
  });

  it.skipIf(!promtool)('passes promtool check metrics, but for the three gauges prom-client names _total', async () => {
    t = await testApp();
    await t.app.request('/api/health');
    await t.app.request('/api/nothing/here');
    const text = await scrapeText();
    expect(promtoolProblems(text)).toEqual([]);
    // The filter lets pass those three only: a counter of ours without _total is still found.
    expect(promtoolProblems(`${text}# HELP mo_bad Bad\n# TYPE mo_bad counter\nmo_bad 1\n`)).toEqual([expect.stringMatching(/^mo_bad .*_total/)]);
  });
});
