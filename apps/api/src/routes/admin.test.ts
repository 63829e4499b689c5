import { afterEach, describe, expect, it } from 'vitest';
import { createJobClient, createLogger, type JobClient } from '@mo/core';
import { testApp, type TestApp } from '../test-support/app.ts';
import { dropPrefix, testRedisUrl, uniquePrefix } from '../../../../test/support/redis.ts';

let t: TestApp;
let jobs: JobClient;
let prefix: string;

afterEach(async () => {
  await t?.close();
  await jobs?.close();
  if (prefix) await dropPrefix(testRedisUrl(), prefix);
});

async function setup(toml = '', urlBase?: string) {
  prefix = uniquePrefix('admin');
  jobs = createJobClient({ redisUrl: testRedisUrl(), prefix, logger: createLogger({ name: 't', level: 'silent' }) });
  t = await testApp({ toml, jobs, urlBase });
}

describe('queue dashboard', () => {
  it('serves Bull Board with the four queues', async () => {
    await setup();
    const page = await t.app.request('/api/admin/queues');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const api = await t.app.request('/api/admin/queues/api/queues');
    expect(api.status).toBe(200);
    const body = (await api.json()) as { queues: { name: string }[] };
    expect(body.queues.map((q) => q.name).sort()).toEqual(['library', 'media', 'scan', 'transcode']);
    // The page's scripts and styles load: without them the browser shows a blank page.
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="(static\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(1);
    for (const a of assets) {
      const res = await t.app.request(`/api/admin/queues/${a}`);
      expect(res.status, a).toBe(200);
      expect(res.headers.get('content-type'), a).toMatch(/javascript|css/);
    }
    // A page on another site cannot make it queue a job: not as a form, not as text/plain.
    const job = JSON.stringify({ name: 'transcode-run', data: { item: { path: '/m/a.avi' } } });
    const add = (headers: Record<string, string>) => t.app.request('/api/admin/queues/api/queues/transcode/add', { method: 'POST', body: job, headers: { 'content-length': String(job.length), ...headers } });
    expect((await add({ 'content-type': 'text/plain' })).status).toBe(400);
    expect((await add({ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await add({ 'content-type': 'application/json', origin: 'http://evil.example', host: 'nas:8080' })).status).toBe(403);
    const counts = (await (await t.app.request('/api/admin/queues/api/queues')).json()) as { queues: { name: string; counts: Record<string, number> }[] };
    expect(Object.values(counts.queues.find((q) => q.name === 'transcode')!.counts).reduce((a, b) => a + b, 0)).toBe(0);
    // Its actions reach the queues: emptying (cleaning) the failed jobs of one.
    expect((await t.app.request('/api/admin/queues/api/queues/scan/clean/failed', { method: 'PUT' })).status).toBe(200);
  });

  it('is behind the api key, which a first visit with ?api_key= turns into a cookie for the page', async () => {
    await setup('[app]\napi_key = "k"\n');
    expect((await t.app.request('/api/admin/queues')).status).toBe(401);
    expect((await t.app.request('/api/admin/queues?api_key=wrong')).status).toBe(401);
    const first = await t.app.request('/api/admin/queues?api_key=k');
    expect(first.status).toBe(200);
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toMatch(/mo_api_key=k;.*Path=\/api\/admin/);
    expect(cookie).toMatch(/HttpOnly/);
    const xhr = await t.app.request('/api/admin/queues/api/queues', { headers: { cookie: 'mo_api_key=k' } });
    expect(xhr.status).toBe(200);
    // The cookie opens the dashboard only, not the rest of the API.
    expect((await t.app.request('/api/config', { headers: { cookie: 'mo_api_key=k' } })).status).toBe(401);
  });

  it('behind a proxy that adds URL_BASE, links its assets and scopes its cookie under that prefix', async () => {
    await setup('[app]\napi_key = "k"\n', '/media-organizer');
    // The proxy strips the prefix, so the routes stay where they are.
    const page = await t.app.request('/api/admin/queues?api_key=k');
    expect(page.status).toBe(200);
    expect(page.headers.get('set-cookie')).toMatch(/Path=\/media-organizer\/api\/admin/);
    const html = await page.text();
    expect(html).toContain('<base href="/media-organizer/api/admin/queues/" />');
    const asset = `/api/admin/queues/${/src="(static\/js\/main\.[^"]+\.js)"/.exec(html)![1]}`;
    expect((await t.app.request(asset, { headers: { cookie: 'mo_api_key=k' } })).status).toBe(200);
    const clean = await t.app.request('/api/admin/queues/api/queues/scan/clean/failed', { method: 'PUT', body: '{}', headers: { cookie: 'mo_api_key=k', 'content-type': 'application/json' } });
    expect(clean.status).toBe(200);
  });
});

describe('GET /api/metrics', () => {
  it('exposes request durations by route, queue depths and outcomes, library size and scan times', async () => {
    await setup();
    await t.app.request('/api/health');
    await t.app.request('/api/jobs/scan/abc');
    await t.app.request('/api/nothing/here');
    const res = await t.app.request('/api/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/mo_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} 1/);
    expect(text).toMatch(/mo_http_request_duration_seconds_count\{method="GET",route="\/api\/jobs\/:queue\/:id",status="404"\} 1/);
    expect(text).toMatch(/mo_http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} 1/);
    expect(text).toContain('mo_redis_up 1');
    for (const q of ['scan', 'library', 'media', 'transcode']) {
      expect(text).toContain(`mo_queue_jobs{queue="${q}",state="waiting"} 0`);
      expect(text).toContain(`mo_queue_jobs_finished_total{queue="${q}",outcome="failed"} 0`);
    }
    expect(text).toContain('mo_library_files 0');
    expect(text).toContain('mo_last_scan_timestamp_seconds{scan="library"} 0');
  });
});
