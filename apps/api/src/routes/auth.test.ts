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
    expect(await (await t.anonymous('/api/auth/status', { headers: { cookie } })).json()).toMatchObject({
      owner: true,
      authenticated: true,
      via: 'session',
      username: 'owner',
    });
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

    await expectError(
      await t.anonymous('/api/auth/password', json({ current_password: 'wrong passphrase', new_password: 'a new passphrase' })),
      401,
      'unauthorized',
    );
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

  it("refuses bodies that are not the route's, naming the field", async () => {
    await freshInstall();
    const res = await t.anonymous('/api/auth/login', json({ username: 'owner', password: 1 }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^password/);
    await expectError(await t.anonymous('/api/auth/login', json({ username: 'owner', password: 'x', admin: true })), 400, 'bad_request');
  });
});

describe('open sessions', () => {
  const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
  const curl = 'curl/8.5.0';
  type Listed = { sessions: { id: string; created_at: string; last_seen_at: string; address: string | null; user_agent: string | null; current: boolean }[] };

  async function logIn(headers: Record<string, string> = {}, peer = '192.168.1.20') {
    const res = await t.anonymous('/api/auth/login', json({ username: 'owner', password: 'a good passphrase' }, headers), from(peer));
    expect(res.status).toBe(200);
    return `mo_session=${cookieOf(res)}`;
  }
  const list = async (cookie: string) => {
    const res = await t.anonymous('/api/auth/sessions', { headers: { cookie } });
    expect(res.status).toBe(200);
    return (await res.json()) as Listed;
  };
  const end = (id: string, init: RequestInit = {}) => t.anonymous(`/api/auth/sessions/${id}/end`, { method: 'POST', ...init });

  it('are listed with when and where each was used, this one marked, and no cookie secret in sight', async () => {
    await freshInstall();
    const setupCookie = `mo_session=${await setUp()}`;
    const laptop = await logIn({ 'user-agent': firefox });
    const script = await logIn({ 'user-agent': curl, 'x-forwarded-for': '203.0.113.9' }, '10.0.0.2');
    const { sessions } = await list(laptop);
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s) => s.current)).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{16}$/),
        created_at: expect.any(String),
        last_seen_at: expect.any(String),
        address: '192.168.1.20',
        user_agent: 'Firefox 128 on Linux',
        current: true,
      },
    ]);
    expect(sessions.find((s) => s.user_agent === curl)).toMatchObject({ address: '203.0.113.9 via 10.0.0.2', current: false });
    const text = JSON.stringify(sessions);
    for (const cookie of [setupCookie, laptop, script]) expect(text).not.toContain(cookie.slice('mo_session='.length));
    // The most recently used first.
    const seen = sessions.map((s) => s.last_seen_at);
    expect(seen).toEqual([...seen].sort().reverse());
    // A script with the key sees them all, none its own.
    const byKey = await t.anonymous('/api/auth/sessions', { headers: { 'x-api-key': await t.auth.apiKey() } });
    expect(((await byKey.json()) as Listed).sessions.map((s) => s.current)).toEqual([false, false, false]);
  });

  it('are not shown or ended without credentials, unlike the open auth routes', async () => {
    await freshInstall();
    const cookie = `mo_session=${await setUp()}`;
    const [{ id }] = (await list(cookie)).sessions as [Listed['sessions'][number]];
    await expectError(await t.anonymous('/api/auth/sessions'), 401, 'unauthorized');
    await expectError(await t.anonymous('/api/auth/sessions', { headers: { cookie: 'mo_session=made-up' } }), 401, 'unauthorized');
    await expectError(await end(id), 401, 'unauthorized');
    await expectError(await end(id, { headers: { cookie: `mo_session=${id}` } }), 401, 'unauthorized');
    await expectError(await t.anonymous('/api/auth/sessions', { headers: { 'x-api-key': 'wrong' } }), 401, 'unauthorized');
    expect((await t.anonymous('/api/config', { headers: { cookie } })).status).toBe(200);
  });

  it('end another: its cookie then gets a 401 while this one goes on', async () => {
    await freshInstall();
    const mine = `mo_session=${await setUp()}`;
    const other = await logIn({ 'user-agent': firefox });
    const target = (await list(mine)).sessions.find((s) => !s.current)!;
    const res = await end(target.id, { headers: { cookie: mine } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ended: true });
    expect(res.headers.get('set-cookie')).toBeNull();
    await expectError(await t.anonymous('/api/config', { headers: { cookie: other } }), 401, 'unauthorized');
    await expectError(await t.anonymous('/api/auth/sessions', { headers: { cookie: other } }), 401, 'unauthorized');
    expect((await list(mine)).sessions.map((s) => s.id)).not.toContain(target.id);
    expect((await t.anonymous('/api/config', { headers: { cookie: mine } })).status).toBe(200);
    await expectError(await end(target.id, { headers: { cookie: mine } }), 404, 'not_found');
  });

  it('end this one: the answer clears the cookie, which no longer works', async () => {
    await freshInstall();
    const mine = `mo_session=${await setUp()}`;
    const { id } = (await list(mine)).sessions[0]!;
    const res = await end(id, { headers: { cookie: mine } });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/mo_session=;/);
    await expectError(await t.anonymous('/api/config', { headers: { cookie: mine } }), 401, 'unauthorized');
  });

  it('can be ended by a script with the key', async () => {
    await freshInstall();
    const mine = `mo_session=${await setUp()}`;
    const { id } = (await list(mine)).sessions[0]!;
    expect((await end(id, { headers: { 'x-api-key': await t.auth.apiKey() } })).status).toBe(200);
    await expectError(await t.anonymous('/api/config', { headers: { cookie: mine } }), 401, 'unauthorized');
  });

  it('answer 404 for an id that names no open session, and end nothing', async () => {
    await freshInstall();
    const mine = `mo_session=${await setUp()}`;
    for (const id of ['0123456789abcdef', 'nope', encodeURIComponent(mine.slice('mo_session='.length)), 'x'.repeat(300)]) {
      await expectError(await end(id, { headers: { cookie: mine } }), 404, 'not_found');
    }
    expect((await list(mine)).sessions).toHaveLength(1);
  });

  it('are not ended by a page on another site, nor by a body that is not JSON', async () => {
    await freshInstall();
    const mine = `mo_session=${await setUp()}`;
    const other = await logIn();
    const target = (await list(mine)).sessions.find((s) => !s.current)!;
    await expectError(await end(target.id, { headers: { cookie: mine, 'sec-fetch-site': 'cross-site' } }), 403, 'forbidden');
    await expectError(await end(target.id, { headers: { cookie: mine, origin: 'https://evil.example' } }), 403, 'forbidden');
    const form = { body: 'a=1', headers: { cookie: mine, 'content-type': 'application/x-www-form-urlencoded', 'content-length': '3' } };
    await expectError(await end(target.id, form), 400, 'bad_request');
    expect((await t.anonymous('/api/config', { headers: { cookie: other } })).status).toBe(200);
    // The UI's own request: same-origin, no body.
    expect((await end(target.id, { headers: { cookie: mine, 'sec-fetch-site': 'same-origin', origin: 'http://localhost' } })).status).toBe(200);
  });
});

describe('wrong credentials', () => {
  it(`are refused with 429 after ${MAX_AUTH_FAILURES_PER_MINUTE} a minute from one address, keys and passwords alike, while others go on`, async () => {
    await freshInstall();
    await setUp();
    for (let i = 0; i < MAX_AUTH_FAILURES_PER_MINUTE / 2; i++) {
      await expectError(await t.anonymous('/api/config', { headers: { 'x-api-key': `guess-${i}` } }, from('192.168.1.66')), 401, 'unauthorized');
      await expectError(
        await t.anonymous('/api/auth/login', json({ username: 'owner', password: `guess ${i} guess` }), from('192.168.1.66')),
        401,
        'unauthorized',
      );
    }
    const key = await t.auth.apiKey();
    const limited = await t.anonymous('/api/config', { headers: { 'x-api-key': key } }, from('192.168.1.66'));
    await expectError(limited, 429, 'too_many_requests');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    await expectError(
      await t.anonymous('/api/auth/login', json({ username: 'owner', password: 'a good passphrase' }), from('192.168.1.66')),
      429,
      'too_many_requests',
    );
    expect((await t.anonymous('/api/config', { headers: { 'x-api-key': key } }, from('192.168.1.67'))).status).toBe(200);
  });

  it('sent all at once are judged no more than the limit allows, on every route that checks a secret; then the right one waits too', async () => {
    await freshInstall();
    const token = (await t.auth.setupToken())!;
    const key = await t.auth.apiKey();
    const wrongToken = (i: number) =>
      t.anonymous('/api/auth/setup', json({ token: `guess-${i}`, username: 'owner', password: 'a good passphrase' }), from('192.168.1.70'));
    const rightToken = () => t.anonymous('/api/auth/setup', json({ token, username: 'owner', password: 'a good passphrase' }), from('192.168.1.70'));
    type Send = Response | Promise<Response>;
    const attacks: [string, (i: number) => Send, () => Send][] = [
      ['/api/auth/setup', wrongToken, rightToken],
      [
        '/api/auth/login',
        (i) => t.anonymous('/api/auth/login', json({ username: 'owner', password: `guess ${i} guess` }), from('192.168.1.71')),
        () => t.anonymous('/api/auth/login', json({ username: 'owner', password: 'a good passphrase' }), from('192.168.1.71')),
      ],
      [
        '/api/auth/api-key',
        (i) => t.anonymous('/api/auth/api-key', json({ password: `guess ${i} guess` }), from('192.168.1.72')),
        () => t.anonymous('/api/auth/api-key', json({ password: 'a good passphrase' }), from('192.168.1.72')),
      ],
      [
        '/api/auth/password',
        (i) => t.anonymous('/api/auth/password', json({ current_password: `guess ${i} guess`, new_password: 'the attacker’s own' }), from('192.168.1.73')),
        () => t.anonymous('/api/config', { headers: { 'x-api-key': key } }, from('192.168.1.73')),
      ],
      [
        'X-Api-Key',
        (i) => t.anonymous('/api/config', { headers: { 'x-api-key': `guess-${i}` } }, from('192.168.1.74')),
        () => t.anonymous('/api/config', { headers: { 'x-api-key': key } }, from('192.168.1.74')),
      ],
    ];
    const sent = 3 * MAX_AUTH_FAILURES_PER_MINUTE;
    const judged: Record<string, number[]> = {};
    for (const [name, wrong, right] of attacks) {
      const answers = await Promise.all(Array.from({ length: sent }, (_, i) => wrong(i)));
      const last = await right();
      judged[name] = [answers.filter((r) => r.status === 401).length, answers.filter((r) => r.status === 429).length, last.status];
      // The set-up is taken once its guesses are spent, so that the other routes have an owner to guess at.
      if (name === '/api/auth/setup')
        expect((await t.anonymous('/api/auth/setup', json({ token, username: 'owner', password: 'a good passphrase' }), from('192.168.1.75'))).status).toBe(
          201,
        );
    }
    const expected = [MAX_AUTH_FAILURES_PER_MINUTE, sent - MAX_AUTH_FAILURES_PER_MINUTE, 429];
    expect(judged).toEqual(Object.fromEntries(attacks.map(([name]) => [name, expected])));
  });

  it('from the addresses of one IPv6 /64 count together: a host holds the whole /64, not one address', async () => {
    await freshInstall();
    for (let i = 1; i <= MAX_AUTH_FAILURES_PER_MINUTE; i++) {
      await expectError(
        await t.anonymous('/api/config', { headers: { 'x-api-key': `guess-${i}` } }, from(`2001:db8:1:2::${i.toString(16)}`)),
        401,
        'unauthorized',
      );
    }
    const key = await t.auth.apiKey();
    await expectError(await t.anonymous('/api/config', { headers: { 'x-api-key': key } }, from('2001:db8:1:2:ffff::1')), 429, 'too_many_requests');
    expect((await t.anonymous('/api/config', { headers: { 'x-api-key': key } }, from('2001:db8:1:3::1'))).status).toBe(200);
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
    for (const header of ['x-real-ip', 'x-forwarded-host', 'x-forwarded-proto', 'via']) {
      await expectError(await t.anonymous('http://localhost:8080/api/config', { headers: { [header]: 'x' } }, local), 401, 'unauthorized');
    }
    // nginx's proxy_pass as it comes: HTTP/1.0, `Host: 127.0.0.1:8080` (its $proxy_host) and no forwarding header.
    const nginx = { incoming: { httpVersion: '1.0', socket: { remoteAddress: '127.0.0.1' } } };
    await expectError(await t.anonymous('http://127.0.0.1:8080/api/config', { headers: { connection: 'close' } }, nginx), 401, 'unauthorized');
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
  it("gets nothing: the page has neither the key nor the owner's cookie", async () => {
    await freshInstall();
    await setUp();
    const res = await t.anonymous(
      'http://attacker.example:8080/api/settings',
      {
        method: 'POST',
        body: JSON.stringify({ dry_run: false }),
        headers: { 'content-type': 'application/json', origin: 'http://attacker.example:8080', 'sec-fetch-site': 'same-origin' },
      },
      from('127.0.0.1'),
    );
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
  // The page is the web UI's (web.test.ts): without a build, /setup says so and how to make the owner from a script.
  it('is served at /setup without data, keeping its token out of Referer headers, caches and frames', async () => {
    await freshInstall();
    const res = await t.anonymous('/setup?token=abc');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    const html = await res.text();
    expect(html).toContain('The web UI is not built');
    expect(html).toContain('POST api/auth/setup');
    expect(html).not.toContain(t.install.paths.data);
  });
});
