import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@mo/shared';
import { testApp, type TestApp } from '../test-support/app.ts';
import { MAX_AUTH_FAILURES_PER_MINUTE } from '../app.ts';

let t: TestApp;
afterEach(async () => t?.close());

/** The socket a real server would hand the app: its peer address. */
const from = (remoteAddress: string) => ({ incoming: { httpVersion: '1.1', socket: { remoteAddress } } });

const PROXY = '10.0.0.2';

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(errorBodySchema.parse(await res.json()).error.code).toBe(code);
}

/** A request the proxy relays for a client that has put `claimed` in front of the address the proxy appends. */
function viaProxy(key: string, xff: string, peer = PROXY) {
  return t.anonymous('/api/config', { headers: { 'x-api-key': key, 'x-forwarded-for': xff } }, from(peer));
}

async function spendGuesses(xff: string, peer = PROXY) {
  for (let i = 0; i < MAX_AUTH_FAILURES_PER_MINUTE; i++) await expectError(await viaProxy(`guess-${i}`, xff, peer), 401, 'unauthorized');
}

describe('wrong keys behind a reverse proxy', () => {
  it('count per client when the proxy is trusted: one client spending its guesses locks out no other', async () => {
    t = await testApp({ toml: `[app]\ntrusted_proxies = ["10.0.0.0/24"]\n` });
    const key = await t.auth.apiKey();
    await spendGuesses('203.0.113.9');
    await expectError(await viaProxy(key, '203.0.113.9'), 429, 'too_many_requests');
    expect((await viaProxy(key, '198.51.100.7')).status).toBe(200);
    // What the client writes in front of the address the proxy appends changes nothing.
    await expectError(await viaProxy(key, '198.51.100.7, 203.0.113.9'), 429, 'too_many_requests');
    // Two proxies in a row, both trusted: the client is the one the outer proxy saw.
    await expectError(await viaProxy(key, '203.0.113.9, 10.0.0.3'), 429, 'too_many_requests');
  });

  it('share one bucket when the list is empty, as before the setting: the proxy is the client', async () => {
    t = await testApp();
    const key = await t.auth.apiKey();
    await spendGuesses('203.0.113.9');
    await expectError(await viaProxy(key, '198.51.100.7'), 429, 'too_many_requests');
  });

  it('from a peer that is not a trusted proxy count against that peer, whatever X-Forwarded-For it forges', async () => {
    t = await testApp({ toml: `[app]\ntrusted_proxies = ["${PROXY}"]\n` });
    const key = await t.auth.apiKey();
    for (let i = 0; i < MAX_AUTH_FAILURES_PER_MINUTE; i++)
      await expectError(await viaProxy(`guess-${i}`, `198.51.100.${i}`, '192.168.1.66'), 401, 'unauthorized');
    await expectError(await viaProxy(key, '198.51.100.200', '192.168.1.66'), 429, 'too_many_requests');
    expect((await viaProxy(key, '203.0.113.9')).status).toBe(200);
  });

  it('from a trusted proxy that relays garbage count against the proxy: garbage names no client', async () => {
    t = await testApp({ toml: `[app]\ntrusted_proxies = ["${PROXY}"]\n` });
    const key = await t.auth.apiKey();
    for (let i = 0; i < MAX_AUTH_FAILURES_PER_MINUTE; i++) await expectError(await viaProxy(`guess-${i}`, `client-${i}`), 401, 'unauthorized');
    await expectError(await viaProxy(key, 'unknown'), 429, 'too_many_requests');
    expect((await viaProxy(key, '203.0.113.9')).status).toBe(200);
  });
});

describe('local_open behind a trusted proxy', () => {
  const open = (url: string, headers: Record<string, string>, peer = PROXY) => t.anonymous(url, { headers }, from(peer));

  it('lets in a loopback client the proxy names, addressing a loopback name', async () => {
    t = await testApp({ toml: `[app]\nauth = "local_open"\ntrusted_proxies = ["${PROXY}", "127.0.0.1"]\n` });
    expect((await open('http://localhost/api/config', { 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'https' })).status).toBe(200);
    expect((await open('http://localhost/api/config', { 'x-forwarded-for': '::1', 'x-forwarded-host': 'localhost:8443' })).status).toBe(200);
    expect(await (await open('http://localhost/api/auth/status', { 'x-forwarded-for': '127.0.0.1' })).json()).toMatchObject({
      authenticated: true,
      via: 'local',
    });
    // A script on the proxy's own machine, calling the service directly, is local as before.
    expect((await open('http://127.0.0.1:8080/api/config', {}, '127.0.0.1')).status).toBe(200);
  });

  it('never for a remote client, a forged loopback entry, garbage, a public or rebinding name, or an untrusted peer', async () => {
    t = await testApp({ toml: `[app]\nauth = "local_open"\ntrusted_proxies = ["${PROXY}", "127.0.0.1"]\n` });
    const refused: [string, Record<string, string>, string?][] = [
      ['http://localhost/api/config', { 'x-forwarded-for': '203.0.113.9' }],
      ['http://localhost/api/config', { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' }],
      ['http://localhost/api/config', { 'x-forwarded-for': 'localhost' }],
      ['http://localhost/api/config', { 'x-forwarded-for': '' }],
      ['http://media.example.org/api/config', { 'x-forwarded-for': '127.0.0.1' }],
      ['http://localhost/api/config', { 'x-forwarded-for': '127.0.0.1', 'x-forwarded-host': 'attacker.example' }],
      ['http://localhost/api/config', { 'x-forwarded-for': '127.0.0.1' }, '10.0.0.3'],
      // The proxy on this machine relaying without saying for whom: it is no loopback client.
      ['http://localhost/api/config', { 'x-forwarded-proto': 'https' }, '127.0.0.1'],
    ];
    for (const [url, headers, peer] of refused) await expectError(await open(url, headers, peer), 401, 'unauthorized');
  });

  it('never through a proxy when the list is empty, as before the setting', async () => {
    t = await testApp({ toml: '[app]\nauth = "local_open"\n' });
    await expectError(await open('http://localhost/api/config', { 'x-forwarded-for': '127.0.0.1' }, '127.0.0.1'), 401, 'unauthorized');
    expect((await open('http://localhost/api/config', {}, '127.0.0.1')).status).toBe(200);
  });
});

describe('open sessions behind a trusted proxy', () => {
  it('show the client the proxy named, without the proxy', async () => {
    t = await testApp({ toml: `[app]\ntrusted_proxies = ["${PROXY}"]\n` });
    const token = (await t.auth.setupToken())!;
    const res = await t.anonymous(
      '/api/auth/setup',
      {
        method: 'POST',
        body: JSON.stringify({ token, username: 'owner', password: 'a good passphrase' }),
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
      },
      from(PROXY),
    );
    expect(res.status).toBe(201);
    const { sessions } = (await (await t.app.request('/api/auth/sessions')).json()) as { sessions: { address: string }[] };
    expect(sessions.map((s) => s.address)).toEqual(['203.0.113.9']);
  });
});

describe('POST /api/settings', () => {
  it('refuses app.trusted_proxies, naming it: only the config file may say whose X-Forwarded-For to believe', async () => {
    t = await testApp();
    const stateFile = join(t.install.paths.data, 'state.json');
    const before = await readFile(stateFile, 'utf8').catch(() => null);
    const res = await t.app.request('/api/settings', {
      method: 'POST',
      body: JSON.stringify({ app: { trusted_proxies: ['0.0.0.0/1'] } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    const { error } = errorBodySchema.parse(await res.json());
    expect(error.message).toBe('app.trusted_proxies: can only be set in the config file');
    expect(error.details).toMatchObject({ key: 'app.trusted_proxies' });
    expect(await readFile(stateFile, 'utf8').catch(() => null)).toBe(before);
    expect(t.config.current().app.trusted_proxies).toEqual([]);
  });
});
