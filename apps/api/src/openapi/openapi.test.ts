import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createJobClient, createLogger, libraryScanOptions, scanLibrary, writeLibraryIndex, type JobClient } from '@mo/core';
import type { z } from 'zod';
import { testApp, type TestApp } from '../test-support/app.ts';
import { dropPrefix, testRedisUrl, uniquePrefix } from '../../../../test/support/redis.ts';
import { ROUTES, openApiDocument } from './document.ts';

let t: TestApp;
let jobs: JobClient;
const prefix = uniquePrefix('openapi');

beforeAll(async () => {
  jobs = createJobClient({ redisUrl: testRedisUrl(), prefix, logger: createLogger({ name: 't', level: 'silent' }) });
  t = await testApp({ jobs });
  const drive = t.install.paths.drive;
  for (const [rel, bytes] of [
    ['Movies/Heat (1995)/Heat (1995).mkv', 100],
    ['Movies/Heat (1995)/Heat (1995).en.srt', 5],
    ['TV/Lost (2004)/Season 01/Lost (2004) - S01E01.mkv', 10],
    ['TV/Lost (2004)/Season 01/Lost (2004) - S01E03.avi', 10],
  ] as const) {
    await mkdir(join(drive, rel, '..'), { recursive: true });
    await writeFile(join(drive, rel), Buffer.alloc(bytes));
  }
  await writeFile(join(t.install.paths.downloads, 'Some.Movie.2020.1080p.mkv'), Buffer.alloc(10));
  const cfg = t.config.current();
  const index = await scanLibrary(libraryScanOptions(cfg));

  await writeLibraryIndex(cfg.paths.data, index);
  await t.library.refresh();
});

afterAll(async () => {
  await t?.close();
  await jobs?.close();
  await dropPrefix(testRedisUrl(), prefix);
});

const doc = openApiDocument() as { openapi: string; paths: Record<string, Record<string, any>> };

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and describes every route the app serves, and nothing it does not', () => {
    expect(doc.openapi).toBe('3.1.0');
    const served = new Set(
      t.app.routes
        .filter((r) => r.method !== 'ALL' && !r.path.endsWith('*'))
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`),
    );
    // Bull Board is mounted as a whole (its page, assets and XHR endpoints) and documented as one page.
    expect(t.app.routes.some((r) => r.method === 'ALL' && r.path.startsWith('/api/admin/queues'))).toBe(true);
    served.add('get /api/admin/queues');
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`)));
    expect([...served].filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((r) => !served.has(r))).toEqual([]);
  });

  it('gives every operation a summary and every JSON answer a schema', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.summary, `${method} ${path}`).toBeTruthy();
        expect(Object.keys(op.responses).length, `${method} ${path}`).toBeGreaterThan(0);
      }
    }
    expect(doc.paths['/api/settings']!.post.requestBody.content['application/json'].schema.properties).toHaveProperty('dry_run');
    expect(doc.paths['/api/media/tracks']!.post.requestBody.content['application/json'].schema.required).toEqual(['path', 'action', 'stream']);
  });

  it('gives a skipped download its reason and, optionally, the detail', () => {
    const skipped = doc.paths['/api/scan']!.post.responses['200'].content['application/json'].schema.properties.skipped.items;
    expect(skipped.properties.reason.enum).toContain('ambiguous');
    expect(skipped.properties).toHaveProperty('detail');
    expect(skipped.required).toEqual(['source', 'reason']);
  });

  it('is served as JSON and as a reference page', async () => {
    const json = await t.app.request('/api/openapi.json');
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual(doc);
    const page = await t.app.request('/api/docs');
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    for (const r of ROUTES) expect(html).toContain(r.path);
  });
});

describe('real answers validate against the documented schemas', () => {
  const gets = ROUTES.filter((r) => r.method === 'get' && !r.path.includes('{') && r.path !== '/api/media/probe');
  it.each(gets.map((r) => [r.path, r] as const))('GET %s', async (path, route) => {
    const res = await t.app.request(path);
    const schema = route.responses[res.status];
    expect(schema, `undocumented status ${res.status} for ${path}`).toBeDefined();
    if (schema && 'safeParse' in schema) {
      const result = (schema as z.ZodType).safeParse(await res.json());
      expect(result.success, JSON.stringify(result.error?.issues.slice(0, 3))).toBe(true);
    } else {
      // The event stream never ends on its own.
      await res.body?.cancel();
    }
  });

  it('POST /api/settings', async () => {
    const res = await t.app.request('/api/settings', { method: 'POST', body: JSON.stringify({ settle_seconds: 5 }), headers: { 'content-type': 'application/json' } });
    expect((ROUTES.find((r) => r.path === '/api/settings')!.responses[200] as z.ZodType).safeParse(await res.json()).success).toBe(true);
  });

  it('errors validate as the error body', async () => {
    const res = await t.app.request('/api/settings', { method: 'POST', body: '[]', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect((ROUTES.find((r) => r.path === '/api/settings')!.responses[400] as z.ZodType).safeParse(await res.json()).success).toBe(true);
  });
});
