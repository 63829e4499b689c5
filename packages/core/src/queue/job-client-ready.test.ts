import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { createLogger } from '../logging/logger.ts';
import { createJobClient, type JobClient } from './job-client.ts';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';

const prefix = uniquePrefix('ready');
let proxy: Server | undefined;
let client: JobClient | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  await client?.close();
  for (const s of sockets) s.destroy();
  await new Promise((r) => (proxy ? proxy.close(r) : r(null)));
  await dropPrefix(testRedisUrl(), prefix);
});

/**
 * A proxy to the test Redis that holds the first answer of each connection for `holdMs`: the
 * client's socket is open (ioredis status `connect`) while its ready check waits, as on a loaded
 * machine. Calls `onConnection` as each connection opens.
 */
async function slowProxy(holdMs: number, onConnection: () => void): Promise<string> {
  const target = new URL(testRedisUrl());
  proxy = createServer((sock) => {
    const up = connect(Number(target.port || 6379), target.hostname);
    sockets.push(sock, up);
    sock.pipe(up);
    let first = true;
    up.on('data', (d) => {
      if (!first) return void sock.write(d);
      first = false;
      setTimeout(() => sock.write(d), holdMs);
    });
    up.on('error', () => sock.destroy());
    sock.on('error', () => up.destroy());
    onConnection();
  });
  await new Promise<void>((r) => proxy!.listen(0, '127.0.0.1', r));
  const { port } = proxy.address() as { port: number };
  return `redis://127.0.0.1:${port}`;
}

it('a call made while the first connection is open but not yet ready waits for it, within the deadline', async () => {
  let opened!: () => void;
  const connected = new Promise<void>((r) => (opened = r));
  const url = await slowProxy(400, () => opened());
  client = createJobClient({ redisUrl: url, prefix, logger: createLogger({ name: 't', level: 'silent' }) });
  client.queues();
  await connected;
  // The socket is open; the ready check's answer is held back.
  await new Promise((r) => setTimeout(r, 50));
  const stats = await client.stats();
  expect(stats.map((s) => s.queue)).toContain('scan');
});
