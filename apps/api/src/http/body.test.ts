import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainUnreadBody, jsonBody } from './body.ts';

let server: ServerType;
let port: number;

beforeAll(async () => {
  const app = new Hono();
  app.use('*', drainUnreadBody);
  // As in the app: the limit looks at the body, which is what leaves an unread one stuck.
  app.use('*', bodyLimit({ maxSize: 1024 * 1024 }));
  app.post('/ignores', (c) => c.json({ ok: true }));
  app.post('/reads', async (c) => c.json({ keys: Object.keys((await jsonBody(c)) as object) }));
  app.get('/ping', (c) => c.text('pong'));
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function send(agent: Agent, method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
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
