// docs/operations.md's "Behind your own reverse proxy, with a path prefix": deploy/nginx-prefix.conf, as
// shipped, included in a server block of a real nginx in front of a real API started with
// URL_BASE=/media-organizer. Everything a browser and a script use must work under the prefix: the
// page and its assets, the set-up link the API prints, the event stream, the JSON 413, the cookies,
// Bull Board and the API itself.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from '../browser/support/stack.ts';
import { sseReader } from '@mo/api/test-support/sse';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { REPO_ROOT, startProcess, TEST_API_KEY, tempInstall, waitFor, type RunningProcess, type TempInstall } from '@mo/test-support/service';
import { nginxBinary, startPrefixNginx, type RunningNginx } from './support/nginx.ts';

const PREFIX = '/media-organizer';
const NGINX = nginxBinary();
const redisUrl = testRedisUrl();
const queuePrefix = uniquePrefix('proxy');
let install: TempInstall;
let api: RunningProcess;
let apiPort: number;
let nginx: RunningNginx;
/** http://127.0.0.1:<nginx>/media-organizer, no trailing slash. */
let base: string;

const html = { accept: 'text/html' };
const key = { 'x-api-key': TEST_API_KEY };

beforeAll(async () => {
  if (!NGINX) return;
  // The page is the web UI's real build (scripts/test makes it before the tests).
  if (!existsSync(join(REPO_ROOT, 'apps/web/dist/index.html'))) {
    const built = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts/build.mjs'), 'web'], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the web UI did not build (node scripts/build.mjs web)');
  }
  install = await tempInstall('[app]\nwatch = false\nscan_interval_seconds = 0\n');
  apiPort = await freePort();
  api = startProcess('api', {
    MEDIA_ORGANIZER_CONFIG: install.configFile,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: queuePrefix,
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    URL_BASE: PREFIX,
  });
  await waitFor(async () => (await fetch(`http://127.0.0.1:${apiPort}/api/health`).catch(() => null))?.ok, 30_000, 'the api');
  nginx = await startPrefixNginx({ listenPort: await freePort(), apiPort });
  base = `http://127.0.0.1:${nginx.port}${PREFIX}`;
});

afterAll(async () => {
  await nginx?.stop();
  await api?.stop('SIGKILL');
  await dropPrefix(redisUrl, queuePrefix);
  await install?.cleanup();
});

/** The set-up link the API logged at start. */
async function printedSetupLink(): Promise<URL> {
  const line = await waitFor(async () => api.output().split('\n').find((l) => l.includes('"setup_url"')), 10_000, 'the set-up link');
  return new URL(JSON.parse(line).setup_url as string);
}

describe.skipIf(!NGINX)('deploy/nginx-prefix.conf in a real nginx, in front of an API with URL_BASE=/media-organizer', () => {
  it('serves the page with its <base> at the prefix, its assets, and the pages of the app', async () => {
    const bare = await fetch(`http://127.0.0.1:${nginx.port}${PREFIX}`, { redirect: 'manual', headers: html });
    expect(bare.status).toBe(301);
    expect(new URL(bare.headers.get('location')!, base).pathname).toBe(`${PREFIX}/`);

    const page = await fetch(`${base}/`, { headers: html });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const text = await page.text();
    expect(text).toContain(`<base href="${PREFIX}/" />`);
    const refs = [...text.matchAll(/(?:src|href)="(\.\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThanOrEqual(2);
    for (const ref of refs) {
      // As the browser resolves it: against the <base>.
      const asset = await fetch(new URL(ref, `${base}/`));
      expect(asset.status, ref).toBe(200);
      expect(asset.headers.get('content-type'), ref).toMatch(/^text\/(javascript|css)/);
      await asset.arrayBuffer();
    }
    for (const route of ['library', 'settings', 'activity/imports']) {
      const res = await fetch(`${base}/${route}`, { headers: html });
      expect(res.status, route).toBe(200);
      expect(await res.text(), route).toContain(`<base href="${PREFIX}/" />`);
    }
  });

  it('answers API calls under the prefix: with the key, and a JSON 401 without', async () => {
    const ok = await fetch(`${base}/api/config`, { headers: key });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { paths: { data: string } }).paths.data).toBe(install.paths.data);
    const refused = await fetch(`${base}/api/config`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    await refused.json();
  });

  it('streams /api/events as it happens', async () => {
    const abort = new AbortController();
    const started = Date.now();
    const res = await fetch(`${base}/api/events`, { headers: key, signal: abort.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = sseReader(res.body!);
    expect((await stream.next()).event).toBe('snapshot');
    expect(Date.now() - started).toBeLessThan(5_000);
    // An event made after the stream opened arrives while it stays open, not when it ends.
    const changed = await fetch(`${base}/api/settings`, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: '{"app":{"settle_seconds":7}}' });
    expect(changed.status).toBe(200);
    expect((await stream.next((m) => m.event === 'settings')).data).toMatchObject({ sections: ['app'] });
    abort.abort();
  });

  it('answers an oversized body with the JSON 413, from the API up to 2 MiB and from nginx above', async () => {
    for (const size of [1.5 * 1024 * 1024, 3 * 1024 * 1024]) {
      const body = JSON.stringify({ app: { pad: 'x'.repeat(size) } });
      const res = await fetch(`${base}/api/settings`, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body });
      expect(res.status, `${size} bytes`).toBe(413);
      expect(res.headers.get('content-type'), `${size} bytes`).toMatch(/^application\/json/);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
    }
  });

  it('opens the printed set-up link at the API and under the proxy; the account made there is a session the web UI uses under the prefix', async () => {
    const link = await printedSetupLink();
    expect(link.pathname).toBe(`${PREFIX}/setup`);
    const direct = await fetch(link, { headers: html });
    expect(direct.status).toBe(200);
    // The web UI itself, its links under the prefix: it shows the set-up form while no owner exists.
    expect(await direct.text()).toContain(`<base href="${PREFIX}/" />`);

    // A person opens the link's path on the proxy's address, and goes on to the app.
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors: string[] = [];
      const outside: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      page.on('request', (req) => {
        if (!req.url().startsWith(`${base}/`)) outside.push(req.url());
      });
      page.on('response', (res) => {
        if (res.status() >= 400) errors.push(`${res.status()} ${res.url()}`);
      });
      await page.goto(`http://127.0.0.1:${nginx.port}${link.pathname}${link.search}`);
      await page.getByLabel('Username').fill('owner');
      await page.getByLabel('Password').fill('a good passphrase');
      await page.getByRole('button', { name: 'Create owner' }).click();
      // Into the app, under the prefix.
      await page.getByRole('heading', { level: 1, name: 'Activity', exact: true }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`${PREFIX}/activity`);
      const session = (await context.cookies()).find((c) => c.name === 'mo_session');
      expect(session?.path).toBe(`${PREFIX}/`);

      // A deep link, the live event stream, and a page reached from the navigation, all under the prefix.
      const events = page.waitForResponse((res) => res.url() === `${base}/api/events`);
      await page.goto(`${base}/library`);
      await page.getByRole('heading', { level: 1, name: 'Library', exact: true }).waitFor();
      expect((await events).status()).toBe(200);
      await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'System', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'System', exact: true }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`${PREFIX}/system`);
      expect(outside).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('serves Bull Board under the prefix: its page, the key cookie scoped to it, and its assets', async () => {
    const page = await fetch(`${base}/api/admin/queues?api_key=${TEST_API_KEY}`, { headers: html });
    expect(page.status).toBe(200);
    const setCookie = page.headers.get('set-cookie')!;
    expect(setCookie).toMatch(new RegExp(`Path=${PREFIX}/api/admin(;|$)`, 'i'));
    const cookie = setCookie.split(';')[0]!;
    const text = await page.text();
    // Its links are relative to its <base>, which must carry the prefix.
    expect(text).toContain(`<base href="${PREFIX}/api/admin/queues/" />`);
    const assets = [...text.matchAll(/(?:src|href)="(static\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(2);
    for (const ref of assets) {
      const res = await fetch(new URL(ref, `${base}/api/admin/queues/`), { headers: { cookie } });
      expect(res.status, ref).toBe(200);
      await res.arrayBuffer();
    }
    const queues = await fetch(`${base}/api/admin/queues/api/queues`, { headers: { cookie } });
    expect(queues.status).toBe(200);
    expect(((await queues.json()) as { queues: unknown[] }).queues.length).toBeGreaterThan(0);
    // Nothing went wrong in nginx but the one body the 413 test meant it to refuse (the pages name
    // their icon, so no browser guesses /favicon.ico at the server's root, outside the prefix).
    const expected = ['client intended to send too large body'];
    const errors = (await nginx.errorLog()).split('\n').filter((l) => /\[(error|crit|alert|emerg)\]/.test(l) && !expected.some((e) => l.includes(e)));
    expect(errors).toEqual([]);
  });
});
