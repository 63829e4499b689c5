import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test-support/app.ts';
import { findWebRoot } from './web.ts';

const INDEX = '<!doctype html><html><head><base href="/" /><script type="module" src="./assets/index-abc123.js"></script></head><body></body></html>';
const SCRIPT = 'console.log("ui");'.repeat(50);

let t: TestApp;
let dist: string;
beforeEach(async () => {
  dist = await mkdtemp(join(tmpdir(), 'mo-web-'));
  await mkdir(join(dist, 'assets'));
  await writeFile(join(dist, 'index.html'), INDEX);
  await writeFile(join(dist, 'assets', 'index-abc123.js'), SCRIPT);
  await writeFile(join(dist, 'secret.txt'), 'not an asset');
});
afterEach(async () => {
  await t?.close();
  await rm(dist, { recursive: true, force: true });
});

const html = { accept: 'text/html,application/xhtml+xml' };

describe('the web UI', () => {
  it('answers every page a browser asks for with index.html, no-cache, behind a strict policy, without a key', async () => {
    t = await testApp({ webRoot: dist });
    for (const path of ['/', '/activity', '/library/file?path=/x', '/settings']) {
      const res = await t.anonymous(path, { headers: html });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'self'; .*; frame-ancestors 'none'$/);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(await res.text()).toContain('<base href="/" />');
    }
  });

  it('sets <base> to URL_BASE, so one build works behind a proxy prefix', async () => {
    t = await testApp({ webRoot: dist, urlBase: '/media-organizer' });
    expect(await (await t.anonymous('/library', { headers: html })).text()).toContain('<base href="/media-organizer/" />');
  });

  it('serves hashed assets as immutable, gzipped when asked, and nothing else under the build folder', async () => {
    t = await testApp({ webRoot: dist });
    const res = await t.anonymous('/assets/index-abc123.js', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(SCRIPT);
    for (const path of ['/assets/missing-1.js', '/assets/..%2fsecret.txt', '/assets/../secret.txt', '/secret.txt']) {
      const r = await t.anonymous(path, { headers: { accept: '*/*' } });
      expect(await r.text(), path).not.toContain('not an asset');
    }
    expect((await t.anonymous('/assets/missing-1.js')).status).toBe(404);
  });

  it('leaves /api to the API: unknown /api paths stay JSON 404s, other methods stay 404/405', async () => {
    t = await testApp({ webRoot: dist });
    const res = await t.app.request('/api/nothing-here', { headers: html });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
    expect((await t.anonymous('/activity', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(404);
    expect((await t.anonymous('/api/health', { method: 'POST' })).status).toBe(405);
  });

  it('answers a non-HTML request for an unknown path with the JSON 404, not the page', async () => {
    t = await testApp({ webRoot: dist });
    const res = await t.anonymous('/favicon.ico', { headers: { accept: 'image/avif,image/webp' } });
    expect(res.status).toBe(404);
  });

  it('answers the set-up link with the web UI itself, kept out of caches and Referer headers', async () => {
    t = await testApp({ webRoot: dist, urlBase: '/media-organizer' });
    const res = await t.anonymous('/setup?token=abc', { headers: html });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<base href="/media-organizer/" />');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'self'; .*; frame-ancestors 'none'$/);
  });

  it('says at the set-up link that the UI is not built, when it is not', async () => {
    t = await testApp();
    const res = await t.anonymous('/setup?token=abc', { headers: html });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('The web UI is not built');
  });

  it('is absent when the UI is not built', async () => {
    t = await testApp();
    expect((await t.anonymous('/', { headers: html })).status).toBe(404);
  });

  it('finds the build from WEB_ROOT, or upward from the module, or not at all', async () => {
    expect(findWebRoot(dist)).toBe(dist);
    expect(findWebRoot(join(dist, 'assets'))).toBeNull();
    await mkdir(join(dist, 'apps', 'web', 'dist'), { recursive: true });
    await writeFile(join(dist, 'apps', 'web', 'dist', 'index.html'), INDEX);
    expect(findWebRoot(undefined, join(dist, 'apps', 'api', 'dist', 'main.mjs'))).toBe(join(dist, 'apps', 'web', 'dist'));
    expect(findWebRoot(undefined, '/nonexistent-mo/apps/api/src/routes/web.ts')).toBeNull();
  });
});
