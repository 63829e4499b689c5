import { afterEach, describe, expect, it } from 'vitest';
import { createJobClient, createLogger, type JobClient } from '@mo/core';
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { testApp, type TestApp } from '../test-support/app.ts';
import { boardRequestAllowed, withoutRemoteAssets } from './admin.ts';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';

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
  it('serves Bull Board with the five queues', async () => {
    await setup();
    const page = await t.app.request('/api/admin/queues');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    // Its own answers, built by the mounted app, cannot be framed either.
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const api = await t.app.request('/api/admin/queues/api/queues');
    expect(api.status).toBe(200);
    const body = (await api.json()) as { queues: { name: string }[] };
    expect(body.queues.map((q) => q.name).sort()).toEqual(['library', 'media', 'notify', 'scan', 'transcode']);
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
    const add = (headers: Record<string, string>) =>
      t.app.request('/api/admin/queues/api/queues/transcode/add', { method: 'POST', body: job, headers: { 'content-length': String(job.length), ...headers } });
    expect((await add({ 'content-type': 'text/plain' })).status).toBe(400);
    expect((await add({ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await add({ 'content-type': 'application/json', origin: 'http://evil.example', host: 'nas:8080' })).status).toBe(403);
    const counts = (await (await t.app.request('/api/admin/queues/api/queues')).json()) as { queues: { name: string; counts: Record<string, number> }[] };
    expect(Object.values(counts.queues.find((q) => q.name === 'transcode')!.counts).reduce((a, b) => a + b, 0)).toBe(0);
    // Its actions reach the queues: emptying (cleaning) the failed jobs of one.
    expect((await t.app.request('/api/admin/queues/api/queues/scan/clean/failed', { method: 'PUT' })).status).toBe(200);
  });

  it('is read-only: add, promote, edit, pause and the rest answer 403 before Bull Board sees them; retry and clean work', async () => {
    await setup();
    const waiting = await jobs.submit('library-scan', { trigger: 'api' }, { waitSeconds: 0 });
    const send = (method: string, path: string, body?: unknown) =>
      t.app.request(`/api/admin/queues/api/queues/${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
    const refusals = [
      ['POST', 'transcode/add', { name: 'transcode-run', data: { item: { path: '/etc/passwd' } }, options: { repeat: { every: 1000 } } }],
      ['PUT', 'library/promote', undefined],
      ['PUT', `library/${waiting.job.id}/promote`, undefined],
      ['PATCH', `library/${waiting.job.id}/update-data`, { data: { trigger: 'evil' } }],
      ['PATCH', `library/${waiting.job.id}/delay`, { delay: 1 }],
      ['PATCH', `library/${waiting.job.id}/priority`, { priority: 1 }],
      ['PUT', 'library/pause', undefined],
      ['PUT', 'pause', undefined],
      ['PUT', 'library/empty', undefined],
      ['PUT', 'library/obliterate', undefined],
      ['PUT', 'library/concurrency', { concurrency: 50 }],
      ['PUT', 'library/clean/waiting', undefined],
      ['PUT', 'transcode/%61dd', undefined],
    ] as const;
    for (const [method, path, body] of refusals) {
      const res = await send(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json()).toMatchObject({ error: { code: 'forbidden', message: expect.stringContaining('read-only') } });
    }
    const board = jobs.queues().find((q) => q.name === 'library')!;
    expect(await board.isPaused()).toBe(false);
    expect(await board.getJob(waiting.job.id)).toMatchObject({ data: { trigger: 'api' } });
    const queued = await Promise.all(jobs.queues().map((q) => q.getJobCounts()));
    expect(queued.map((c) => Object.values(c).reduce((a, b) => a + b, 0))).toEqual(queued.map((_, i) => (jobs.queues()[i]!.name === 'library' ? 1 : 0)));
    expect((await send('PUT', 'library/retry/failed')).status).toBe(200);
    expect((await send('PUT', `library/${waiting.job.id}/clean`)).status).toBe(204);
    expect(await board.getJob(waiting.job.id)).toBeUndefined();
  });

  it('loads nothing from another host: no Google Fonts link, no remote URL in the page or its stylesheets', async () => {
    await setup();
    const page = await t.app.request('/api/admin/queues');
    const html = await page.text();
    expect(page.headers.get('content-security-policy')).toBe("font-src 'self' data:; frame-ancestors 'none'");
    const css = [...html.matchAll(/href="(static\/[^"]+\.css)"/g)].map((m) => m[1]!);
    // The stylesheets the page's scripts add later, straight from the UI package.
    const ui = dirname(
      createRequire(import.meta.url).resolve('@bull-board/ui/package.json', { paths: [dirname(createRequire(import.meta.url).resolve('@bull-board/api'))] }),
    );
    css.push(...(await readdir(join(ui, 'dist/static/css/async'))).map((f) => `static/css/async/${f}`));
    expect(css.length).toBeGreaterThan(5);
    const texts = [html];
    for (const path of css) {
      const res = await t.app.request(`/api/admin/queues/${path}`);
      expect(res.status, path).toBe(200);
      texts.push(await res.text());
    }
    const remote = texts.flatMap((text) => [...text.matchAll(/(?:https?:)?\/\/[A-Za-z0-9.-]+\.[A-Za-z]{2,}[^\s"')]*/g)].map((m) => m[0]));
    expect(remote).toEqual([]);
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
    const clean = await t.app.request('/api/admin/queues/api/queues/scan/clean/failed', {
      method: 'PUT',
      body: '{}',
      headers: { cookie: 'mo_api_key=k', 'content-type': 'application/json' },
    });
    expect(clean.status).toBe(200);
  });
});

describe('boardRequestAllowed', () => {
  const concrete = (route: string) =>
    route.replace(':queueName', 'transcode').replace(':jobId', '7').replace(':queueStatus', 'failed').replace(':schedulerId', 'periodic-scan-pass');
  const ALLOWED_WRITES = new Set([
    'put /api/queues/:queueName/retry/:queueStatus',
    'put /api/queues/:queueName/clean/:queueStatus',
    'put /api/queues/:queueName/:jobId/retry',
    'put /api/queues/:queueName/:jobId/clean',
  ]);

  it('lets every read of Bull Board through, and of its writes only retry and clean', async () => {
    const { appRoutes } = (await import('@bull-board/api/dist/routes.js')) as typeof import('@bull-board/api/dist/routes.js');
    const seen: string[] = [];
    for (const r of appRoutes.api) {
      for (const method of [r.method].flat()) {
        for (const route of [r.route].flat()) {
          const key = `${method} ${route}`;
          seen.push(key);
          const allowed = method === 'get' || ALLOWED_WRITES.has(key);
          expect(boardRequestAllowed(method.toUpperCase(), concrete(route)), key).toBe(allowed);
        }
      }
    }
    expect(seen.filter((k) => !k.startsWith('get ')).length).toBeGreaterThan(15);
    for (const k of ALLOWED_WRITES) expect(seen).toContain(k);
    for (const route of [appRoutes.entryPoint.route].flat()) expect(boardRequestAllowed('GET', concrete(route))).toBe(true);
  });

  it.each([
    ['PUT', '/api/queues/transcode/clean/waiting'],
    ['PUT', '/api/queues/transcode/clean/delayed'],
    ['PUT', '/api/queues/transcode/retry/failed/'],
    ['PUT', '/api/queues/transcode//retry/failed'],
    ['PUT', '/api/queues/transcode/7/promote'],
    ['PUT', '/api/queues/transcode/7%2Fpromote/retry'],
    ['PUT', '/api/queues/trans%63ode/7/retry'],
    ['PUT', '/API/queues/transcode/7/retry'],
    ['POST', '/api/queues/transcode/7/retry'],
    ['PATCH', '/api/queues/transcode/7/clean'],
    ['DELETE', '/api/queues/transcode/7'],
    ['OPTIONS', '/api/queues'],
    ['put', '/api/queues/transcode/7/retry'],
    ['PUT', ''],
    ['PUT', '/'],
  ])('refuses %s %j', (method, path) => {
    expect(boardRequestAllowed(method, path)).toBe(false);
  });

  it.each([
    ['PUT', '/api/queues/scan/retry/completed'],
    ['PUT', '/api/queues/scan/clean/completed'],
    ['PUT', '/api/queues/scan/repeat:periodic-scan-pass:1795533683234/retry'],
    ['HEAD', '/static/js/main.js'],
    ['GET', '/queue/transcode'],
  ])('allows %s %j', (method, path) => {
    expect(boardRequestAllowed(method, path)).toBe(true);
  });
});

describe('withoutRemoteAssets', () => {
  it('drops links to other hosts, keeping the page’s own', () => {
    const html = [
      '<link rel="icon" href="static/images/logo.svg">',
      '<link href="https://fonts.googleapis.com/css2?family=IBM+Plex+Sans" rel="stylesheet">',
      "<LINK rel=stylesheet href='//cdn.example/x.css'>",
      '<link rel="preconnect" href=http://fonts.gstatic.com crossorigin>',
      '<link href="static/css/main.css" rel="stylesheet">',
    ].join('\n');
    expect(withoutRemoteAssets(html)).toBe('<link rel="icon" href="static/images/logo.svg">\n\n\n\n<link href="static/css/main.css" rel="stylesheet">');
  });
});

describe('GET /api/metrics', () => {
  it('exposes request durations by route, queue depths and outcomes, and no library size or scan times before any scan', async () => {
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
    // Never scanned: no figures and no times, rather than an empty library scanned in 1970.
    expect(text).not.toMatch(/^mo_library_files /m);
    expect(text).not.toMatch(/^mo_last_scan_timestamp_seconds\{/m);
  });
});
