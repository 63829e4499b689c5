import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@mo/shared';
import { TEST_API_KEY, testApp, type TestApp } from '../test-support/app.ts';
import { MAX_AUTH_FAILURES_PER_MINUTE } from '../app.ts';

let t: TestApp;
afterEach(async () => t?.close());

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(errorBodySchema.parse(await res.json()).error.code).toBe(code);
}

/** A temp install as a fresh quick start leaves it: no key in the config, none generated yet. */
async function freshInstall(toml = '') {
  t = await testApp({ toml });
  await rm(join(t.install.paths.data, 'api_key'));
}

/** The socket a real server would hand the app: its peer address. */
const from = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });

function cookieOf(res: Response): string {
  const header = res.headers.get('set-cookie') ?? '';
  return /mo_session=([^;]*)/.exec(header)![1]!;
}

async function setUp(password = 'a good passphrase') {
  const token = (await t.auth.setupToken())!;
  const res = await t.anonymous('/api/auth/setup', json({ token, username: 'owner', password }));
  expect(res.status).toBe(201);
  return cookieOf(res);
}

describe('a fresh install', () => {
  it('answers nothing but the probes, the stylesheet and the auth routes without credentials', async () => {
    await freshInstall();
    for (const path of ['/api/config', '/api/dashboard', '/api/library', '/api/downloads', '/api/tools/transcoder', '/api/admin/queues']) {
      await expectError(await t.anonymous(path), 401, 'unauthorized');
    }
    await expectError(await t.anonymous('/api/settings', json({ dry_run: false })), 401, 'unauthorized');
    await expectError(await t.anonymous('/api/tools/transcoder/run-next', { method: 'POST' }), 401, 'unauthorized');
    expect(t.config.current().app.dry_run).toBe(true);
    expect((await t.anonymous('/api/health')).status).toBe(200);
    const status = await (await t.anonymous('/api/auth/status')).json();
    expect(status).toEqual({ owner: false, authenticated: false, via: null, username: null, auth: 'required' });
  });

  it('has generated a key into the data folder, which lets requests in', async () => {
    await freshInstall();
    const key = await t.auth.apiKey();
    const file = join(t.install.paths.data, 'api_key');
    expect((await readFile(file, 'utf8')).trim()).toBe(key);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await t.anonymous('/api/config', { headers: { 'x-api-key': key } })).status).toBe(200);
    expect((await t.anonymous('/api/config', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    const config = await (await t.anonymous('/api/config', { headers: { 'x-api-key': key } })).text();
    expect(config).not.toContain(key);
  });
});

describe('the owner account', () => {
  it('is created once with the set-up token, and its session cookie opens the API', async () => {
    await freshInstall();
    await expectError(await t.anonymous('/api/auth/setup', json({ token: 'guess', username: 'thief', password: 'a good passphrase' })), 401, 'unauthorized');
    expect(await t.auth.ownerExists()).toBe(false);
    const token = (await t.auth.setupToken())!;
    const res = await t.anonymous('/api/auth/setup', json({ token, username: 'owner', password: 'a good passphrase' }));
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ username: 'owner' });
    const header = res.headers.get('set-cookie')!;
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Strict/);
    expect(header).toMatch(/Path=\//);
    expect(header).not.toMatch(/Secure/);
    const cookie = `mo_session=${cookieOf(res)}`;
    expect((await t.anonymous('/api/config', { headers: { cookie } })).status).toBe(200);
    // The queue dashboard's own requests carry the cookie too.
    expect((await t.anonymous('/api/admin/queues', { headers: { cookie } })).status).toBe(200);
    expect(await (await t.anonymous('/api/auth/status', { headers: { cookie } })).json()).toMatchObject({ owner: true, authenticated: true, via: 'session', username: 'owner' });
    await expectError(await t.anonymous('/api/auth/setup', json({ token, username: 'thief', password: 'another passphrase' })), 409, 'conflict');
  });

  it('sets a Secure cookie when the browser came over HTTPS through the proxy, under URL_BASE', async () => {
    t = await testApp({ urlBase: '/mo' });
    const token = (await t.auth.setupToken())!;
    const res = await t.anonymous('/api/auth/setup', json({ token, username: 'owner', password: 'a good passphrase' }, { 'x-forwarded-proto': 'https' }));
    expect(res.headers.get('set-cookie')).toMatch(/Secure/);
    expect(res.headers.get('set-cookie')).toMatch(/Path=\/mo\//);
  });

  it('logs in, logs out, and a password change ends every session', async () => {
    await freshInstall();
    const first = await setUp();
    await expectError(await t.anonymous('/api/auth/login', json({ username: 'owner', password: 'wrong passphrase' })), 401, 'unauthorized');
    const login = await t.anonymous('/api/auth/login', json({ username: 'owner', password: 'a good passphrase' }));
    expect(login.status).toBe(200);
    const second = cookieOf(login);
    expect((await t.anonymous('/api/config', { headers: { cookie: `mo_session=${second}` } })).status).toBe(200);

    const out = await t.anonymous('/api/auth/logout', { method: 'POST', headers: { cookie: `mo_session=${second}` } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/mo_session=;/);
    await expectError(await t.anonymous('/api/config', { headers: { cookie: `mo_session=${second}` } }), 401, 'unauthorized');
    expect((await t.anonymous('/api/config', { headers: { cookie: `mo_session=${first}` } })).status).toBe(200);

    await expectError(await t.anonymous('/api/auth/password', json({ current_password: 'wrong passphrase', new_password: 'a new passphrase' })), 401, 'unauthorized');
    const changed = await t.anonymous('/api/auth/password', json({ current_password: 'a good passphrase', new_password: 'a new passphrase' }));
    expect(changed.status).toBe(200);
    await expectError(await t.anonymous('/api/config', { headers: { cookie: `mo_session=${first}` } }), 401, 'unauthorized');
    expect((await t.anonymous('/api/config', { headers: { cookie: `mo_session=${cookieOf(changed)}` } })).status).toBe(200);
  });

  it('shows the key and regenerates the generated one with the password only', async () => {
    await freshInstall();
    await setUp();
    const old = await t.auth.apiKey();
    await expectError(await t.anonymous('/api/auth/api-key', json({ password: 'wrong passphrase', regenerate: true })), 401, 'unauthorized');
    expect(await (await t.anonymous('/api/auth/api-key', json({ password: 'a good passphrase' }))).json()).toEqual({ api_key: old, source: 'generated' });
    const res = await t.anonymous('/api/auth/api-key', json({ password: 'a good passphrase', regenerate: true }));
    const { api_key } = (await res.json()) as { api_key: string };
    expect(api_key).not.toBe(old);
    await expectError(await t.anonymous('/api/config', { headers: { 'x-api-key': old } }), 401, 'unauthorized');
    expect((await t.anonymous('/api/config', { headers: { 'x-api-key': api_key } })).status).toBe(200);
  });

  it('refuses bodies that are not the route\'s, naming the field', async () => {
    await freshInstall();
    const res = await t.anonymous('/api/auth/login', json({ username: 'owner', password: 1 }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^password/);
    await expectError(await t.anonymous('/api/auth/login', json({ username: 'owner', password: 'x', admin: true })), 400, 'bad_request');
  });
});

describe('wrong credentials', () => {
  it(`are refused with 429 after ${MAX_AUTH_FAILURES_PER_MINUTE} a minute from one address, keys and passwords alike, while others go on`, async () => {
    await freshInstall();
    await setUp();
    for (let i = 0; i < MAX_AUTH_FAILURES_PER_MINUTE / 2; i++) {
      await expectError(await t.anonymous('/api/config', { headers: { 'x-api-key': `guess-${i}` } }, from('192.168.1.66')), 401, 'unauthorized');
      await expectError(await t.anonymous('/api/auth/login', json({ username: 'owner', password: `guess ${i} guess` }), from('192.168.1.66')), 401, 'unauthorized');
    }
    const key = await t.auth.apiKey();
    const limited = await t.anonymous('/api/config', { headers: { 'x-api-key': key } }, from('192.168.1.66'));
    await expectError(limited, 429, 'too_many_requests');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    await expectError(await t.anonymous('/api/auth/login', json({ username: 'owner', password: 'a good passphrase' }), from('192.168.1.66')), 429, 'too_many_requests');
    expect((await t.anonymous('/api/config', { headers: { 'x-api-key': key } }, from('192.168.1.67'))).status).toBe(200);
  });

  it('but a request without any is a plain 401 and counts for nothing', async () => {
    await freshInstall();
    for (let i = 0; i < MAX_AUTH_FAILURES_PER_MINUTE * 2; i++) {
      await expectError(await t.anonymous('/api/config', {}, from('192.168.1.66')), 401, 'unauthorized');
    }
    expect((await t.anonymous('/api/config', { headers: { 'x-api-key': await t.auth.apiKey() } }, from('192.168.1.66'))).status).toBe(200);
  });
});

describe('auth = "local_open"', () => {
  const local = { ...from('127.0.0.1') };

  it('lets a loopback client addressing a loopback name in without a key', async () => {
    t = await testApp({ toml: '[app]\nauth = "local_open"\n' });
    expect((await t.anonymous('http://localhost:8080/api/config', {}, local)).status).toBe(200);
    expect((await t.anonymous('http://127.0.0.1:8080/api/config', {}, local)).status).toBe(200);
    expect((await t.anonymous('http://[::1]:8080/api/config', {}, from('::1'))).status).toBe(200);
    expect(await (await t.anonymous('http://localhost:8080/api/auth/status', {}, local)).json()).toMatchObject({ authenticated: true, via: 'local' });
  });

  it('never for another client, a request relayed by a proxy, or a page on a rebinding name', async () => {
    t = await testApp({ toml: '[app]\nauth = "local_open"\n' });
    await expectError(await t.anonymous('http://localhost:8080/api/config', {}, from('192.168.1.66')), 401, 'unauthorized');
    await expectError(await t.anonymous('http://localhost:8080/api/config', { headers: { 'x-forwarded-for': '203.0.113.9' } }, local), 401, 'unauthorized');
    await expectError(await t.anonymous('http://localhost:8080/api/config', { headers: { forwarded: 'for=203.0.113.9' } }, local), 401, 'unauthorized');
    // DNS rebinding: the browser resolved attacker.example to 127.0.0.1 and sends its own Host,
    // a matching Origin, and same-origin in Sec-Fetch-Site.
    const rebinding = {
      method: 'POST',
      body: JSON.stringify({ dry_run: false }),
      headers: { 'content-type': 'application/json', origin: 'http://attacker.example:8080', 'sec-fetch-site': 'same-origin' },
    };
    await expectError(await t.anonymous('http://attacker.example:8080/api/settings', rebinding, local), 401, 'unauthorized');
    expect(t.config.current().app.dry_run).toBe(true);
  });
});

describe('DNS rebinding with auth required', () => {
  it('gets nothing: the page has neither the key nor the owner\'s cookie', async () => {
    await freshInstall();
    await setUp();
    const res = await t.anonymous('http://attacker.example:8080/api/settings', {
      method: 'POST',
      body: JSON.stringify({ dry_run: false }),
      headers: { 'content-type': 'application/json', origin: 'http://attacker.example:8080', 'sec-fetch-site': 'same-origin' },
    }, from('127.0.0.1'));
    await expectError(res, 401, 'unauthorized');
    expect(t.config.current().app.dry_run).toBe(true);
  });
});

describe('app.allowed_hosts', () => {
  it('answers the listed hosts and loopback only, also for the open routes, and checks X-Forwarded-Host', async () => {
    t = await testApp({ toml: '[app]\nallowed_hosts = ["media.example.org"]\n' });
    const ok = (url: string, headers: Record<string, string> = {}) => t.app.request(url, { headers });
    expect((await ok('http://media.example.org/api/config')).status).toBe(200);
    expect((await ok('http://MEDIA.example.org:8443/api/health')).status).toBe(200);
    expect((await ok('http://localhost:8080/api/config')).status).toBe(200);
    expect((await ok('http://127.0.0.1:8080/api/config')).status).toBe(200);
    await expectError(await ok('http://attacker.example/api/health'), 403, 'forbidden');
    await expectError(await ok('http://attacker.example/api/config'), 403, 'forbidden');
    await expectError(await ok('http://192.168.1.5:8080/api/config'), 403, 'forbidden');
    await expectError(await ok('http://media.example.org/api/config', { 'x-forwarded-host': 'attacker.example' }), 403, 'forbidden');
    expect((await ok('http://localhost/api/config', { 'x-forwarded-host': 'media.example.org' })).status).toBe(200);
  });

  it('checks nothing when empty, as before', async () => {
    t = await testApp();
    expect((await t.app.request('http://anything.example/api/config')).status).toBe(200);
    expect((await t.app.request('http://anything.example/api/config', { headers: { 'x-api-key': TEST_API_KEY } })).status).toBe(200);
  });
});

describe('the set-up page', () => {
  it('is served at /setup without data, keeping its token out of Referer headers, caches and frames', async () => {
    await freshInstall();
    const res = await t.anonymous('/setup?token=abc');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    const html = await res.text();
    expect(html).toContain('type="password"');
    expect(html).toContain("fetch('api/auth/setup'");
    expect(html).not.toContain(t.install.paths.data);
  });
});
