import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fetch } from 'undici';
import type { LibrarySeries } from './series-catalogue.ts';
import { fakeTvmaze, type FakeTvmaze } from './test-fixtures/fake-tvmaze.ts';
import { NotPublicAddressError, publicOnlyDispatcher, publicOnlyLookup, type Lookup } from './tvmaze-connect.ts';
import { tvmazeClient } from './tvmaze-client.ts';
import { createTvmazeProvider } from './tvmaze-provider.ts';

// 127.0.0.2 stands in for a public server: tests allow it and nothing else, while the "internal"
// server listens on 127.0.0.1, which must never be reached.
const PUBLIC = '127.0.0.2';
const INTERNAL = '127.0.0.1';
const onlyPublic = (address: string) => address === PUBLIC;

interface Recorder {
  server: Server;
  port: number;
  hits: string[];
}

const servers: Server[] = [];
let fake: FakeTvmaze | undefined;
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  await fake?.close();
  fake = undefined;
});

async function serve(host: string, handle: (url: string) => { status: number; headers?: Record<string, string>; body?: string }): Promise<Recorder> {
  const hits: string[] = [];
  // Connection: close, so that every request opens a connection of its own and is checked again.
  const server = createServer((req, res) => {
    hits.push(req.url!);
    const answer = handle(req.url!);
    res.writeHead(answer.status, { connection: 'close', 'content-type': 'application/json', ...answer.headers }).end(answer.body ?? '{}');
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, host, r));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

/** DNS from a table; an entry may change between calls (rebinding). */
function tableLookup(table: Record<string, () => string[]>): Lookup {
  return (hostname, _options, callback) => {
    const found = table[hostname]?.();
    if (!found) return callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), '');
    callback(
      null,
      found.map((address) => ({ address, family: 4 })),
    );
  };
}

async function failure(p: Promise<unknown>): Promise<unknown> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return (err as Error).cause;
}

describe('publicOnlyLookup', () => {
  const lookup = publicOnlyLookup({ lookup: tableLookup({ pub: () => [PUBLIC], mixed: () => [PUBLIC, INTERNAL], none: () => [] }), isAllowed: onlyPublic });
  const ask = (host: string, all: boolean) =>
    new Promise<{ err: Error | null; address: unknown; family?: number }>((r) =>
      lookup(host, all ? { all: true } : {}, (err, address, family) => r({ err, address, family })),
    );

  it('answers in the form asked for when every address is allowed', async () => {
    expect(await ask('pub', true)).toEqual({ err: null, address: [{ address: PUBLIC, family: 4 }], family: undefined });
    expect(await ask('pub', false)).toEqual({ err: null, address: PUBLIC, family: 4 });
  });

  it('refuses a name with any address that is not allowed, or none', async () => {
    expect((await ask('mixed', true)).err).toBeInstanceOf(NotPublicAddressError);
    expect((await ask('none', false)).err).toBeInstanceOf(NotPublicAddressError);
  });

  it('passes DNS failures through', async () => {
    expect((await ask('missing', true)).err).toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('publicOnlyDispatcher', () => {
  it('never connects to a loopback address, literal or by name, with the real resolver', async () => {
    const internal = await serve(INTERNAL, () => ({ status: 200, body: '{"secret":1}' }));
    const dispatcher = publicOnlyDispatcher();
    for (const url of [
      `http://127.0.0.1:${internal.port}/`,
      `http://localhost:${internal.port}/`,
      `http://[::ffff:127.0.0.1]:${internal.port}/`,
      `http://2130706433:${internal.port}/`,
    ]) {
      expect(await failure(fetch(url, { dispatcher }))).toBeInstanceOf(NotPublicAddressError);
    }
    expect(internal.hits).toEqual([]);
  });

  it('follows no redirect to an internal address, literal or by name', async () => {
    const internal = await serve(INTERNAL, () => ({ status: 200, body: '{"secret":1}' }));
    const pub = await serve(PUBLIC, (url) => ({
      status: 302,
      headers: { location: url === '/literal' ? `http://${INTERNAL}:${internal.port}/secret` : `http://internal.test:${internal.port}/secret` },
    }));
    const dispatcher = publicOnlyDispatcher({ isAllowed: onlyPublic, lookup: tableLookup({ 'internal.test': () => [INTERNAL] }) });
    expect(await failure(fetch(`http://${PUBLIC}:${pub.port}/literal`, { dispatcher }))).toBeInstanceOf(NotPublicAddressError);
    expect(await failure(fetch(`http://${PUBLIC}:${pub.port}/name`, { dispatcher }))).toBeInstanceOf(NotPublicAddressError);
    expect(pub.hits).toEqual(['/literal', '/name']);
    expect(internal.hits).toEqual([]);
  });

  it('checks again at every connection: a name that rebinds to an internal address after the first is refused', async () => {
    const pub = await serve(PUBLIC, () => ({ status: 200, body: '{"ok":true}' }));
    const internal = await serve(INTERNAL, () => ({ status: 200, body: '{"secret":1}' }));
    let answers = 0;
    const dispatcher = publicOnlyDispatcher({
      isAllowed: onlyPublic,
      lookup: tableLookup({ 'rebind.test': () => (answers++ === 0 ? [PUBLIC] : [INTERNAL]) }),
    });
    const first = await fetch(`http://rebind.test:${pub.port}/`, { dispatcher });
    expect(await first.json()).toEqual({ ok: true });
    expect(await failure(fetch(`http://rebind.test:${internal.port}/`, { dispatcher }))).toBeInstanceOf(NotPublicAddressError);
    expect(internal.hits).toEqual([]);
  });
});

describe('the tvmaze client and provider', () => {
  it('say why a fetch failed on this side when there is no error code', async () => {
    // Port 9 is one fetch refuses to use (the "bad ports" of the Fetch standard).
    await expect(tvmazeClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2000, allowPrivate: true }).episodes(1)).rejects.toThrow(
      'tvmaze /shows/1/episodes: bad port',
    );
  });

  it('never show a user or password the URL holds, which fetch refuses to send', async () => {
    const err = await tvmazeClient({ baseUrl: 'https://me:s3cret-pw@api.tvmaze.example', timeoutMs: 2000 })
      .episodes(1)
      .catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/^tvmaze \/shows\/1\/episodes: /);
    expect((err as Error).message).not.toMatch(/s3cret-pw|me:/);
  });

  it('refuse an internal URL unless allowPrivate, and echo nothing the server said', async () => {
    fake = await fakeTvmaze([{ id: 1, name: 'Lost', episodes: [] }]);
    fake.override = (_req, res) => (res.writeHead(500).end('internal secret'), true);
    const client = tvmazeClient({ baseUrl: fake.url, timeoutMs: 2000 });
    await expect(client.episodes(1)).rejects.toThrow('tvmaze /shows/1/episodes: its host is not a public address');
    expect(fake.requests).toEqual([]);

    const provider = createTvmazeProvider({ minIntervalMs: 0, timeoutMs: 2000, budgetMs: 2000 });
    const series: LibrarySeries[] = [{ title: 'Lost', year: null, nfoTitle: null, ids: {}, have: new Map(), known: new Map() }];
    const refused = await provider.releases(fake.url, series, '2026-01-01');
    expect(refused.status.error).toMatch(/not a public address/);
    expect(refused.status.error).not.toMatch(/500|secret/);
    expect(fake.requests).toEqual([]);

    const allowed = await provider.releases(fake.url, series, '2026-01-01', { allowPrivate: true });
    expect(allowed.status.error).toMatch(/HTTP 500/);
    expect(fake.requests).toEqual(['/singlesearch/shows?q=Lost']);
  });
});
