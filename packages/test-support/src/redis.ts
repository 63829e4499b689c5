import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** The Redis the tests share; every test keeps to its own QUEUE_PREFIX on it. */
export function testRedisUrl(): string {
  return process.env.REDIS_URL || 'redis://127.0.0.1:6379';
}

export function uniquePrefix(tag = 't'): string {
  return `test-${tag}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Deletes every key under a prefix, so that shared Redis stays clean after a run. */
export async function dropPrefix(url: string, prefix: string): Promise<void> {
  const r = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await r.del(...keys);
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * A redis-server of the test's own, which the test may stop and start again on the same port.
 * With a data folder it keeps its data as docker-compose.yml runs it (append-only, fsync on every
 * write, no eviction), so a SIGKILLed server comes back with every job it held; without, nothing.
 */
export class PrivateRedis {
  private proc: ChildProcess | undefined;
  constructor(
    readonly port: number,
    readonly dataDir?: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(dataDir?: string): Promise<PrivateRedis> {
    if (dataDir) await mkdir(dataDir, { recursive: true });
    const r = new PrivateRedis(await freePort(), dataDir);
    await r.start();
    return r;
  }

  async start(): Promise<void> {
    const persistence = this.dataDir
      ? ['--dir', this.dataDir, '--appendonly', 'yes', '--appendfsync', 'always', '--maxmemory-policy', 'noeviction']
      : ['--appendonly', 'no'];
    this.proc = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', ...persistence], {
      stdio: 'ignore',
    });
    const deadline = Date.now() + 15_000;
    for (;;) {
      const c = new Redis(this.url, { maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
      c.on('error', () => {});
      try {
        await c.connect();
        // Answers LOADING while it replays the append-only file.
        if ((await c.ping()) === 'PONG') return;
      } catch {
        if (Date.now() > deadline) throw new Error(`redis-server on ${this.port} did not start`);
        await new Promise((r) => setTimeout(r, 50));
      } finally {
        c.disconnect();
      }
    }
  }

  async stop(): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
  }
}

/**
 * What 30 to 60 s of wall time would do for jobs whose worker was SIGKILLed: their lock key
 * expires (30 s TTL), a periodic stalled check puts them in the queue's `stalled` set, and the
 * check's own 30 s throttle key lapses. Done at once, so that the next worker's stalled check at
 * start-up (BullMQ runs one when a worker starts) finds them stalled and moves them back to
 * `wait`, or fails them past `maxStalledCount`. Only call it when no worker of the queue is alive.
 * Returns the ids it aged.
 */
export async function fastForwardStalls(redisUrl: string, prefix: string, queue: string): Promise<string[]> {
  const r = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const key = (k: string) => `${prefix}:${queue}:${k}`;
    const active = await r.lrange(key('active'), 0, -1);
    for (const id of active) {
      await r.del(key(`${id}:lock`));
      await r.sadd(key('stalled'), id);
    }
    await r.del(key('stalled-check'));
    return active;
  } finally {
    r.disconnect();
  }
}
