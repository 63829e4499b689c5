import { afterEach, describe, expect, it } from 'vitest';
import type { QueueStats } from '@mo/core';
import type { WorkersReport } from '@mo/shared';
import { stubJobs, testApp, type TestApp } from '../test-support/app.ts';
import { readExposition } from '../test-support/prometheus-text.ts';

let t: TestApp;
afterEach(async () => t?.close());

function jobsWithStats(stats: () => Promise<QueueStats[]>) {
  return { ...stubJobs(), stats };
}

const counts = (waiting: number) => ({ waiting, active: 0, delayed: 0, completed: 2, failed: 1 });

async function scrape() {
  const res = await t.app.request('/api/metrics');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return readExposition(await res.text());
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
      mo_http_request_duration_seconds: 'histogram',
      mo_redis_up: 'gauge',
      mo_queue_jobs: 'gauge',
      mo_queue_workers: 'gauge',
      mo_queue_jobs_finished_total: 'counter',
      mo_library_files: 'gauge',
      mo_library_bytes: 'gauge',
      mo_library_movies: 'gauge',
      mo_library_series: 'gauge',
      mo_library_episodes: 'gauge',
      mo_last_scan_timestamp_seconds: 'gauge',
      mo_metrics_scrapes_total: 'counter',
    });
    // No label splits one metric into figures of different kinds (a count beside a size).
    for (const f of families.values()) for (const s of f.samples) expect(Object.keys(s.labels), f.name).not.toContain('what');
    expect(families.get('mo_queue_jobs_finished_total')!.samples).toEqual([
      { name: 'mo_queue_jobs_finished_total', labels: { queue: 'scan', outcome: 'completed' }, value: 5 },
      { name: 'mo_queue_jobs_finished_total', labels: { queue: 'scan', outcome: 'failed' }, value: 1 },
    ]);
    expect(families.get('mo_library_files')!.samples).toEqual([{ name: 'mo_library_files', labels: {}, value: 0 }]);
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
