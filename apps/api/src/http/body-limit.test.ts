// Against a real socket: what matters is what a client (or nginx) on the other end sees, which
// app.request cannot show: a reset instead of the answer, or a connection that cannot be reused.
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@mo/shared';
import { MAX_BODY_BYTES } from '../app.ts';
import { TEST_API_KEY, testApp, type TestApp } from '../test-support/app.ts';
import { MAX_DISCARD_BYTES } from './body-limit.ts';

let t: TestApp;
let server: ServerType;
let port: number;
let connections = 0;

beforeAll(async () => {
  t = await testApp();
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  server.on('connection', () => connections++);
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await t?.close();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** Sends `body` in pieces of `piece` bytes, `gapMs` apart; chunked when no length is given. */
function post(path: string, body: Buffer, opts: { agent?: Agent; chunked?: boolean; piece?: number; gapMs?: number } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/json', 'x-api-key': TEST_API_KEY };
    if (!opts.chunked) headers['content-length'] = body.length;
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, headers, agent: opts.agent ?? false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    const piece = opts.piece ?? body.length;
    void (async () => {
      for (let at = 0; at < body.length; at += piece) {
        if (!req.write(body.subarray(at, at + piece))) await new Promise((r) => req.once('drain', r));
        if (opts.gapMs) await new Promise((r) => setTimeout(r, opts.gapMs));
      }
      req.end();
    })();
  });
}

function get(path: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent, headers: { 'x-api-key': TEST_API_KEY } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    })
      .on('error', reject)
      .end();
  });
}

function expect413(a: Answer) {
  expect(a.status).toBe(413);
  expect(errorBodySchema.parse(JSON.parse(a.text)).error.code).toBe('payload_too_large');
}

describe('a body over 1 MiB', () => {
  it.each([
    ['with Content-Length', { chunked: false }],
    ['chunked', { chunked: true }],
    // Slower than @hono/node-server's 500 ms of draining after an answer: read before answering.
    ['sent slowly', { chunked: false, piece: 64 * 1024, gapMs: 25 }],
  ])('of 2 MiB %s is answered with the JSON 413 after it was read, and the connection carries on', async (_what, opts) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const before = connections;
    const answer = await post('/api/settings', Buffer.alloc(MAX_DISCARD_BYTES, 0x20), { agent, ...opts });
    expect413(answer);
    expect(answer.headers.connection).not.toBe('close');
    expect(await get('/api/health', agent)).toBe(200);
    expect(connections - before).toBe(1);
    agent.destroy();
    expect(t.config.current().app.settle_seconds).toBe(120);
  });

  it('up to the limit reaches the route, chunked or not; one byte more is a 413', async () => {
    const json = (size: number) => {
      const head = Buffer.from('{"app":{"settle_seconds":7},"pad":"');
      return Buffer.concat([head, Buffer.alloc(size - head.length - 2, 0x61), Buffer.from('"}')]);
    };
    for (const chunked of [false, true]) {
      // The route reads it whole and refuses the unknown key: the body got through.
      const atLimit = await post('/api/settings', json(MAX_BODY_BYTES), { chunked, piece: 100_000 });
      expect(atLimit.status, `chunked: ${chunked}`).toBe(400);
      expect(atLimit.text).toContain('pad');
      expect413(await post('/api/settings', json(MAX_BODY_BYTES + 1), { chunked, piece: 100_000 }));
    }
  });

  it('declared larger than what is read to discard is refused at once, without waiting for the body', async () => {
    const reply = await new Promise<string>((resolve) => {
      let out = '';
      const s = connect(port, '127.0.0.1', () =>
        s.write(
          `POST /api/settings HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${TEST_API_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${MAX_DISCARD_BYTES + 1}\r\n\r\n{}`,
        ),
      );
      s.setEncoding('utf8');
      s.on('data', (d: string) => (out += d));
      s.on('close', () => resolve(out));
      setTimeout(() => s.destroy(), 5000);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(reply).toMatch(/\r\nconnection: close\r\n/i);
    expect(reply).toContain('"payload_too_large"');
  });

  it('chunked past what is read to discard is refused with Connection: close, and the server answers on', async () => {
    const answer = await post('/api/settings', Buffer.alloc(MAX_DISCARD_BYTES + 256 * 1024, 0x20), { chunked: true, piece: 64 * 1024 }).catch(
      (err: Error): Answer => ({ status: -1, headers: {}, text: err.message }),
    );
    // The client may still be sending when the socket closes; if it saw the answer, it was this one.
    if (answer.status !== -1) {
      expect413(answer);
      expect(answer.headers.connection).toBe('close');
    }
    const agent = new Agent({ keepAlive: true });
    expect(await get('/api/health', agent)).toBe(200);
    agent.destroy();
  });
});
