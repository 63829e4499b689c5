import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainUnreadBody, jsonBody, requireJsonBody } from './body.ts';

let server: ServerType;
let port: number;

beforeAll(async () => {
  const app = new Hono();
  app.use('*', drainUnreadBody);
  // As in the app: the limit looks at the body, which is what leaves an unread one stuck.
  app.use('*', bodyLimit({ maxSize: 1024 * 1024 }));
  app.use('/strict/*', requireJsonBody);
  app.post('/strict/ignores', (c) => c.json({ ok: true }));
  app.post('/ignores', (c) => c.json({ ok: true }));
  app.post('/reads', async (c) => c.json({ keys: Object.keys((await jsonBody(c)) as object) }));
  app.get('/ping', (c) => c.text('pong'));
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function send(
  agent: Agent,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = body ? { 'content-type': 'application/json' } : {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('drainUnreadBody', () => {
  it.each([100, 300, 900])('a keep-alive connection carries the next request after an unread %i KB body', async (kb) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const sockets = new Set<unknown>();
      agent.on('free', (socket) => sockets.add(socket));
      expect((await send(agent, 'POST', '/ignores', JSON.stringify({ junk: 'x'.repeat(kb * 1000) }))).status).toBe(200);
      await new Promise((r) => setTimeout(r, 20));
      expect(await send(agent, 'GET', '/ping')).toEqual({ status: 200, text: 'pong' });
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('leaves a body the route reads to the route', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await send(agent, 'POST', '/reads', JSON.stringify({ a: 1, b: 'x'.repeat(500_000) }))).toEqual({ status: 200, text: '{"keys":["a","b"]}' });
      expect((await send(agent, 'GET', '/ping')).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe('requireJsonBody', () => {
  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['a form', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['no type', {}],
    ['text/plain, chunked', { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }],
  ])('refuses a body sent as %s with a 400 that says what to send, even on a route that ignores bodies', async (_, headers) => {
    const agent = new Agent({ keepAlive: false });
    try {
      const res = await send(agent, 'POST', '/strict/ignores', '{"a":1}', headers);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text).error).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/Content-Type: application\/json/) });
    } finally {
      agent.destroy();
    }
  });

  it('lets JSON through, and a POST without a body needs no type', async () => {
    const agent = new Agent({ keepAlive: false });
    try {
      expect((await send(agent, 'POST', '/strict/ignores', '{"a":1}', { 'content-type': 'application/json; charset=utf-8' })).status).toBe(200);
      expect((await send(agent, 'POST', '/strict/ignores', undefined, {})).status).toBe(200);
      expect((await send(agent, 'POST', '/strict/ignores', '', { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' })).status).toBe(
        200,
      );
    } finally {
      agent.destroy();
    }
  });
});
