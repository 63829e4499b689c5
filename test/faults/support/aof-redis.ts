// A redis-server of the test's own with its data on disk (appendonly, fsync on every write), as
// docker-compose.yml runs it: killed with SIGKILL and started again on the same port and folder,
// it comes back with every job it held. (test/support/redis.ts's PrivateRedis keeps nothing.)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { Redis } from 'ioredis';
import { freePort } from '../../support/redis.ts';

export class AofRedis {
  private proc: ChildProcess | undefined;
  private constructor(
    readonly port: number,
    readonly dir: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(dir: string): Promise<AofRedis> {
    await mkdir(dir, { recursive: true });
    const r = new AofRedis(await freePort(), dir);
    await r.start();
    return r;
  }

  async start(): Promise<void> {
    this.proc = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--maxmemory-policy', 'noeviction'],
      { stdio: 'ignore' },
    );
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
        await new Promise((res) => setTimeout(res, 50));
      } finally {
        c.disconnect();
      }
    }
  }

  async kill(): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((res) => p.once('exit', res));
    p.kill('SIGKILL');
    await exited;
  }
}
