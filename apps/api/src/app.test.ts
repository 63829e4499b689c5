import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntimeConfig } from '@mo/core';
import { errorBodySchema } from '@mo/shared';
import { stubJobs, testApp, type TestApp } from './test-support/app.ts';

let t: TestApp;
afterEach(async () => t?.close());

const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  body: typeof body === 'string' ? body : JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = errorBodySchema.parse(await res.json());
  expect(body.error.code).toBe(code);
  return body.error;
}

describe('health and readiness', () => {
  it('health is {ok: true}', async () => {
    t = await testApp({ jobs: stubJobs(false) });
    const res = await t.app.request('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('ready follows Redis', async () => {
    t = await testApp({ jobs: stubJobs(true) });
    let res = await t.app.request('/api/ready');
    expect([res.status, await res.json()]).toEqual([200, { ok: true, redis: 'up', hardlinks: { disk1: true } }]);
    await t.close();
    t = await testApp({ jobs: stubJobs(false) });
    res = await t.app.request('/api/ready');
    expect([res.status, await res.json()]).toEqual([503, { ok: false, redis: 'down', hardlinks: { disk1: true } }]);
  });

  // /dev/shm is a mount of its own on Linux: no link from the temp downloads folder reaches it.
  it.skipIf(!existsSync('/dev/shm'))(
    'ready tells per drive whether a hard link from the downloads reaches it, and follows drives saved at run time',
    async () => {
      const shm = mkdtempSync('/dev/shm/mo-ready-');
      try {
        t = await testApp({ toml: `[[drives]]\nname = "shm"\npath = "${shm}"\n` });
        const first = await t.app.request('/api/ready');
        expect(await first.json()).toEqual({ ok: true, redis: 'up', hardlinks: { disk1: true, shm: false } });
        const drives = [{ name: 'near', path: join(t.install.root, 'media', 'disk2') }];
        const saved = await t.app.request('/api/settings', post({ drives }));
        expect(saved.status, await saved.text()).toBe(200);
        await expect.poll(async () => (await (await t.app.request('/api/ready')).json()).hardlinks).toEqual({ near: true });
      } finally {
        rmSync(shm, { recursive: true, force: true });
      }
    },
  );

  it('every response carries a request id, and a given one is kept', async () => {
    t = await testApp();
    const a = await t.app.request('/api/health');
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const b = await t.app.request('/api/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(b.headers.get('x-request-id')).toBe('abc-123');
  });

  it('no answer can be framed: pages, documents and errors all say DENY and frame-ancestors none', async () => {
    t = await testApp();
    const answers = {
      docs: await t.app.request('/api/docs'),
      openapi: await t.app.request('/api/openapi.json'),
      setup: await t.anonymous('/setup?token=abc'),
      health: await t.anonymous('/api/health'),
      unauthorized: await t.anonymous('/api/config'),
      notFound: await t.app.request('/api/nothing-here'),
      wrongMethod: await t.app.request('/api/health', { method: 'DELETE' }),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.headers.get('x-frame-options'), name).toBe('DENY');
      expect(res.headers.get('content-security-policy'), name).toMatch(/(?:^|; )frame-ancestors 'none'$/);
    }
    // A page's own policy is kept beside it.
    expect(answers.setup.headers.get('content-security-policy')).toMatch(/^default-src 'none'; .*; frame-ancestors 'none'$/);
  });
});

describe('GET /api/config', () => {
  it('returns the effective config without secrets', async () => {
    t = await testApp({
      toml: '[app]\napi_key = "s3cret"\nsettle_seconds = 5\n\n[release_providers.tvmaze]\nurl = "https://me:pw@tv.example/api"\n',
    });
    const res = await t.app.request('/api/config', { headers: { 'x-api-key': 's3cret' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, any>;
    expect(body.app.settle_seconds).toBe(5);
    expect(body.app).not.toHaveProperty('api_key');
    expect(body.release_providers.tvmaze.url).toBe('https://tv.example/api');
    expect(JSON.stringify(body)).not.toContain('s3cret');
    expect(JSON.stringify(body)).not.toContain(':pw@');
    expect(body.paths.data).toBe(t.install.paths.data);
    expect(body.transcoder.video_encoder).toBe('libx264');
  });
});

describe('POST /api/settings', () => {
  beforeEach(async () => {
    t = await testApp();
  });

  it.each([
    ['text/plain', { 'content-type': 'text/plain;charset=UTF-8' }],
    ['a form', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['multipart', { 'content-type': 'multipart/form-data; boundary=x' }],
    ['no content type', {}],
  ])('refuses JSON sent as %s (what a page on another site can send unasked) and saves nothing', async (_, headers) => {
    const before = await readFile(t.install.paths.data + '/state.json', 'utf8').catch(() => null);
    const res = await t.app.request('/api/settings', { method: 'POST', body: new TextEncoder().encode('{"dry_run":false}'), headers });
    const err = await expectError(res, 400, 'bad_request');
    expect(err.message).toMatch(/Content-Type: application\/json/);
    expect(await readFile(t.install.paths.data + '/state.json', 'utf8').catch(() => null)).toBe(before);
  });

  it('takes JSON with a charset or a +json type', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/merge-patch+json']) {
      const res = await t.app.request('/api/settings', post({ settle_seconds: 7 }, { 'content-type': type }));
      expect(res.status, type).toBe(200);
    }
  });

  it('refuses a write a browser says comes from another site or origin, with 403, and saves nothing', async () => {
    const refused: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      // Another app on the same host (ports do not count) or another *.home.lan name.
      { 'sec-fetch-site': 'same-site', origin: 'http://nas:8989' },
      // Plain HTTP to a LAN address: no Sec-Fetch-Site, but Origin names where the page came from.
      { origin: 'http://evil.example', host: 'nas:8080' },
      { origin: 'http://nas:8989', host: 'nas:8080' },
      { origin: 'null', host: 'nas:8080' },
    ];
    for (const headers of refused) {
      const res = await t.app.request('/api/settings', post({ dry_run: false }, headers));
      const err = await expectError(res, 403, 'forbidden');
      expect(err.message).toMatch(/another site/);
    }
    expect((await (await t.app.request('/api/config')).json()).app.dry_run).toBe(true);
    const scan = await t.app.request('/api/scan?wait=0', { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(scan.status).toBe(403);
    const allowed: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin', origin: 'https://media.example.com' },
      { 'sec-fetch-site': 'none' },
      { origin: 'http://nas:8080', host: 'nas:8080' },
      { origin: 'http://NAS:8080', host: 'nas:8080' },
      // Behind a proxy that passes the host it was asked for.
      { origin: 'https://media.example.com', host: '127.0.0.1:8080', 'x-forwarded-host': 'media.example.com' },
      // Scripts and servers send neither.
      {},
    ];
    for (const headers of allowed) {
      const ok = await t.app.request('/api/settings', post({ settle_seconds: 9 }, headers));
      expect(ok.status, JSON.stringify(headers)).toBe(200);
    }
    expect((await t.app.request('/api/health', { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
  });

  it('accepts the nested form, saves it in state.json and leaves the TOML alone', async () => {
    const tomlBefore = await readFile(t.install.configFile);
    const mtimeBefore = (await stat(t.install.configFile)).mtimeMs;
    const res = await t.app.request('/api/settings', post({ app: { dry_run: false }, metadata: { include_specials: true } }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { settings: Record<string, any> };
    expect(body.settings.app.dry_run).toBe(false);
    expect(body.settings.metadata.include_specials).toBe(true);
    expect(Object.keys(body.settings).sort()).toEqual(['app', 'drives', 'library', 'metadata', 'paths', 'release_providers', 'theme', 'notifications'].sort());
    const state = JSON.parse(await readFile(join(t.install.paths.data, 'state.json'), 'utf8'));
    expect(state.settings).toEqual({ app: { dry_run: false }, metadata: { include_specials: true } });
    expect(await readFile(t.install.configFile)).toEqual(tomlBefore);
    expect((await stat(t.install.configFile)).mtimeMs).toBe(mtimeBefore);
    expect(t.config.current().app.dry_run).toBe(false);
  });

  it('accepts the flat legacy form and the mixed form', async () => {
    // Beside the config file's drive, so inside the roots it allows.
    const big = join(t.install.root, 'media', 'big');
    let res = await t.app.request('/api/settings', post({ dry_run: false, settle_seconds: 30, log_level: 'debug' }));
    expect(res.status).toBe(200);
    expect(t.config.current().app).toMatchObject({ dry_run: false, settle_seconds: 30, log_level: 'debug' });
    res = await t.app.request('/api/settings', post({ scan_interval_seconds: 0, drives: [{ name: 'big', path: big }], app: { library_scan_max_files: 10 } }));
    expect(res.status).toBe(200);
    expect(t.config.current().app).toMatchObject({ scan_interval_seconds: 0, library_scan_max_files: 10, settle_seconds: 30 });
    expect(t.config.current().drives).toEqual([{ name: 'big', path: big }]);
  });

  it('survives a restart', async () => {
    await t.app.request('/api/settings', post({ settle_seconds: 42 }));
    const again = await createRuntimeConfig({ configFile: t.install.configFile });
    try {
      expect(again.current().app.settle_seconds).toBe(42);
    } finally {
      again.close();
    }
  });

  it.each([
    [{ app: { dry_run: 'no' } }, 'app.dry_run'],
    [{ dry_run: 1 }, 'app.dry_run'],
    [{ app: { nope: true } }, 'app'],
    [{ nope: true }, 'nope'],
    [{ transcoder: { keep_original: true } }, 'transcoder'],
    [{ paths: { data: '/elsewhere' } }, 'paths.data'],
    [{ paths: { downloads: 'relative/dir' } }, 'paths.downloads'],
    [
      {
        drives: [
          { name: 'a', path: '/a' },
          { name: 'a', path: '/b' },
        ],
      },
      'drives.1.name',
    ],
    [{ settle_seconds: -1 }, 'app.settle_seconds'],
    [{ log_level: 'loud' }, 'app.log_level'],
    [{ dry_run: true, app: { dry_run: false } }, 'app.dry_run'],
    [{ release_providers: { tvmaze: { url: 'ftp://x' } } }, 'release_providers.tvmaze.url'],
  ])('refuses %j naming %s and saves nothing', async (body, key) => {
    await t.app.request('/api/settings', post({ settle_seconds: 7 }));
    const stateFile = join(t.install.paths.data, 'state.json');
    const before = await readFile(stateFile, 'utf8');
    const res = await t.app.request('/api/settings', post(body));
    const err = await expectError(res, 400, 'bad_request');
    expect(err.message.startsWith(key)).toBe(true);
    expect(await readFile(stateFile, 'utf8')).toBe(before);
    expect(t.config.current().app.settle_seconds).toBe(7);
  });

  it.each(['[1,2]', 'null', '"x"', '{"dry_run": tru', ''])('refuses the body %s', async (raw) => {
    const res = await t.app.request('/api/settings', post(raw));
    await expectError(res, 400, 'bad_request');
  });
});

describe('GET /api/theme/custom.css', () => {
  beforeEach(async () => {
    t = await testApp();
  });

  it('is empty with an ETag when the file is missing', async () => {
    const res = await t.app.request('/api/theme/custom.css');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await res.text()).toBe('');
    expect(res.headers.get('etag')).toBeTruthy();
  });

  it('serves the file, answers If-None-Match with 304, and sees edits', async () => {
    const file = join(t.install.paths.config, 'custom-theme.css');
    await writeFile(file, 'body { color: red; }\n');
    const res = await t.app.request('/api/theme/custom.css');
    expect(await res.text()).toBe('body { color: red; }\n');
    const etag = res.headers.get('etag')!;
    const again = await t.app.request('/api/theme/custom.css', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const weak = await t.app.request('/api/theme/custom.css', { headers: { 'if-none-match': `"other", W/${etag}` } });
    expect(weak.status).toBe(304);
    await writeFile(file, 'body { color: blue; }\n/* longer */\n');
    const changed = await t.app.request('/api/theme/custom.css', { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain('blue');
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('follows theme.css_file from the settings', async () => {
    await writeFile(join(t.install.paths.config, 'dark.css'), ':root { --bg: #000; }');
    await t.app.request('/api/settings', post({ theme: { css_file: 'dark.css' } }));
    expect(await (await t.app.request('/api/theme/custom.css')).text()).toBe(':root { --bg: #000; }');
  });
});

describe('errors', () => {
  beforeEach(async () => {
    t = await testApp();
  });

  it('unknown /api routes are JSON 404s', async () => {
    const err = await expectError(await t.app.request('/api/no/such/thing'), 404, 'not_found');
    expect(err.message).toContain('/api/no/such/thing');
    await expectError(await t.app.request('/api/health', { method: 'DELETE' }), 405, 'method_not_allowed');
  });

  it('bodies over 1 MiB are 413 and change nothing', async () => {
    const big = JSON.stringify({ app: { api_key: 'x'.repeat(1024 * 1024) } });
    await expectError(await t.app.request('/api/settings', post(big)), 413, 'payload_too_large');
    expect(t.config.current().app.api_key).toBe('');
  });

  it('unknown job queues and jobs are 404', async () => {
    await expectError(await t.app.request('/api/jobs/nope/1'), 404, 'not_found');
  });

  it('a bad ?wait= is a 400 before anything is queued', async () => {
    for (const wait of ['-1', 'abc', '301']) {
      const err = await expectError(await t.app.request(`/api/scan?wait=${wait}`, { method: 'POST' }), 400, 'bad_request');
      expect(err.message).toMatch(/^wait/);
    }
  });

  it('a bad tracks body names the field', async () => {
    const err = await expectError(await t.app.request('/api/media/tracks', post({ path: '/x.mkv', action: 'explode', stream: 1 })), 400, 'bad_request');
    expect(err.message).toMatch(/^action/);
  });

  it('an unexpected error is a 500 without a stack', async () => {
    t.app.get('/api/boom', () => {
      throw new Error('secret internals at /srv/x.ts:12');
    });
    const res = await t.app.request('/api/boom');
    const err = await expectError(res, 500, 'internal');
    expect(JSON.stringify(err)).not.toContain('secret internals');
  });
});

describe('api key from the config file', () => {
  beforeEach(async () => {
    t = await testApp({ toml: '[app]\napi_key = "k3y"\n' });
  });

  it('is needed on every route but the probes, the stylesheet and the auth routes', async () => {
    await expectError(await t.anonymous('/api/config'), 401, 'unauthorized');
    expect((await t.anonymous('/api/ready')).status).toBe(200);
    await expectError(await t.anonymous('/api/settings', post({ dry_run: false })), 401, 'unauthorized');
    await expectError(await t.anonymous('/api/jobs/scan/1'), 401, 'unauthorized');
    await expectError(await t.anonymous('/api/metrics'), 401, 'unauthorized');
    await expectError(await t.anonymous('/api/openapi.json'), 401, 'unauthorized');
    expect(t.config.current().app.dry_run).toBe(true);
    expect((await t.anonymous('/api/health')).status).toBe(200);
    expect((await t.anonymous('/api/theme/custom.css')).status).toBe(200);
    expect((await t.anonymous('/api/auth/status')).status).toBe(200);
  });

  it('is accepted as X-Api-Key, Bearer and ?api_key=, wins over the generated key, and a wrong one is refused', async () => {
    expect((await t.anonymous('/api/config', { headers: { 'x-api-key': 'k3y' } })).status).toBe(200);
    expect((await t.anonymous('/api/config', { headers: { authorization: 'Bearer k3y' } })).status).toBe(200);
    expect((await t.anonymous('/api/config?api_key=k3y')).status).toBe(200);
    await expectError(await t.anonymous('/api/config', { headers: { 'x-api-key': 'nope' } }), 401, 'unauthorized');
    await expectError(await t.anonymous('/api/config', { headers: { authorization: 'Basic k3y' } }), 401, 'unauthorized');
    // The key the temp install keeps in its data folder is the generated one: the config's wins.
    await expectError(await t.app.request('/api/config'), 401, 'unauthorized');
  });

  it('cannot be changed through the settings', async () => {
    const err = await expectError(await t.app.request('/api/settings', post({ app: { api_key: 'new' } }, { 'x-api-key': 'k3y' })), 400, 'bad_request');
    expect(err.message).toMatch(/^app\.api_key:/);
    expect((await t.app.request('/api/config', { headers: { 'x-api-key': 'k3y' } })).status).toBe(200);
    await expectError(await t.app.request('/api/config', { headers: { 'x-api-key': 'new' } }), 401, 'unauthorized');
  });
});
