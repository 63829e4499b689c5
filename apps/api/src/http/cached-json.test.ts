import { execFileSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { cacheJson, cacheStreamedJson, sendJson } from './cached-json.ts';

const value = { items: Array.from({ length: 500 }, (_, i) => ({ i, title: `Title ${i} — été` })) };
const cached = cacheJson(value);
const app = new Hono().get('/x', (c) => sendJson(c, cached));

describe('cached JSON answers', () => {
  it('holds exactly the bytes JSON.stringify gives', () => {
    const odd = { a: [1, 'two', null, { b: [true, { c: 'é😀' }] }], d: undefined, e: { f: [] }, g: '"quoted"\n', h: [undefined, () => 1], i: new Date(0) };
    for (const v of [value, odd, [], {}, 'text', 42, null, Array.from({ length: 20_000 }, (_, i) => ({ i, s: 'x'.repeat(i % 50) }))]) {
      expect(Buffer.from(cacheJson(v).body).toString('utf8')).toBe(JSON.stringify(v));
    }
  });

  it('compresses an answer of many megabytes a piece at a time into one gzip stream that gunzip and the gzip tool read back whole', () => {
    const big = Array.from({ length: 60_000 }, (_, i) => ({
      i,
      path: `/m/disk1/Movies/Title ${i} (${1900 + (i % 120)})/Title ${i}.mkv`,
      s: 'é😀'.repeat(i % 5),
    }));
    const plain = JSON.stringify(big);
    expect(plain.length).toBeGreaterThan(4 * (1 << 20));
    const cached = cacheJson(big);
    expect(cached.gzip!.length).toBeLessThan(plain.length / 4);
    expect(gunzipSync(cached.gzip!).toString('utf8')).toBe(plain);
    expect(execFileSync('gzip', ['-dc'], { input: cached.gzip!, maxBuffer: 1 << 26 }).toString('utf8')).toBe(plain);
    expect(Buffer.from(cached.body).toString('utf8')).toBe(plain);
  });

  it('writes a list given as a generator as the array it yields, one element at a time', () => {
    const made: number[] = [];
    function* entries(n: number) {
      for (let i = 0; i < n; i++) {
        made.push(i);
        yield { i, s: 'é'.repeat(i % 7) };
      }
    }
    const list = Array.from(entries(30_000));
    made.length = 0;
    const streamed = cacheStreamedJson<{ total: number; items: { i: number; s: string }[]; none: number[] }>({
      total: 2,
      items: entries(30_000),
      none: entries(0) as never,
    });
    expect(made).toHaveLength(30_000);
    const plain = JSON.stringify({ total: 2, items: list, none: [] });
    expect(Buffer.from(streamed.body).toString('utf8')).toBe(plain);
    expect(streamed.etag).toBe(cacheJson(JSON.parse(plain)).etag);
  });

  it('sends the bytes as JSON to a client that takes no gzip', async () => {
    const res = await app.request('/x');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.json()).toEqual(value);
  });

  it('sends the gzip copy when the client accepts it', async () => {
    const res = await app.request('/x', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    const raw = Buffer.from(await res.arrayBuffer());
    expect(raw.length).toBeLessThan(cached.body.length / 4);
    expect(JSON.parse(gunzipSync(raw).toString('utf8'))).toEqual(value);
  });

  it('gzips for a client that prefers it less, but does not refuse it', async () => {
    const res = await app.request('/x', { headers: { 'accept-encoding': 'br;q=1.0, gzip;q=0.8' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
  });

  it('does not gzip for a client that refuses it', async () => {
    const res = await app.request('/x', { headers: { 'accept-encoding': 'gzip;q=0, identity' } });
    expect(res.headers.get('content-encoding')).toBeNull();
  });

  it('answers a matching If-None-Match with 304', async () => {
    const first = await app.request('/x');
    const res = await app.request('/x', { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(res.status).toBe(304);
  });
});
