import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPool, PoolWaitAborted, useProbeConcurrency } from './probe-pool.ts';
import { probeFile, runTool, ToolError } from './run.ts';
import { makeClip } from './test-fixtures/clips.ts';

/** A task that counts how many run at once and ends when told to. */
function counter() {
  let now = 0;
  let max = 0;
  const ends: (() => void)[] = [];
  return {
    get max() {
      return max;
    },
    get now() {
      return now;
    },
    task: () =>
      new Promise<void>((resolve) => {
        now++;
        max = Math.max(max, now);
        ends.push(() => {
          now--;
          resolve();
        });
      }),
    /** Ends the longest-running task. */
    endOne() {
      ends.shift()?.();
    },
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('createPool', () => {
  it('runs 50 tasks at most `limit` at a time, in the order they came', async () => {
    const pool = createPool(() => 3);
    const c = counter();
    const order: number[] = [];
    const all = Array.from({ length: 50 }, (_, i) => pool.run(() => (order.push(i), c.task())));
    await tick();
    expect([pool.running, pool.waiting]).toEqual([3, 47]);
    while (pool.running > 0) {
      c.endOne();
      await tick();
    }
    await Promise.all(all);
    expect(c.max).toBe(3);
    expect(order).toEqual([...Array(50).keys()]);
  });

  it('reads its size again as slots free up, so a new setting applies to the next tasks', async () => {
    let limit = 1;
    const pool = createPool(() => limit);
    const c = counter();
    const all = Array.from({ length: 10 }, () => pool.run(c.task));
    await tick();
    expect(c.now).toBe(1);
    limit = 4;
    c.endOne();
    await tick();
    expect(c.now).toBe(4);
    limit = 2;
    for (let i = 0; i < 3; i++) c.endOne();
    await tick();
    expect(c.now).toBe(2);
    while (pool.running > 0) {
      c.endOne();
      await tick();
    }
    await Promise.all(all);
    expect(c.max).toBe(4);
  });

  it('takes a task given up while waiting out of the line without starting it', async () => {
    const pool = createPool(() => 1);
    const c = counter();
    const first = pool.run(c.task);
    const ac = new AbortController();
    let started = false;
    const second = pool.run(async () => {
      started = true;
    }, ac.signal);
    ac.abort();
    await expect(second).rejects.toBeInstanceOf(PoolWaitAborted);
    expect(pool.waiting).toBe(0);
    c.endOne();
    await first;
    expect(started).toBe(false);
    await expect(pool.run(async () => 1, ac.signal)).rejects.toBeInstanceOf(PoolWaitAborted);
  });

  it('frees the slot of a task that fails, even one that throws before its promise', async () => {
    const pool = createPool(() => 1);
    await expect(pool.run(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(
      pool.run(() => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(await pool.run(async () => 'next')).toBe('next');
    expect(pool.running).toBe(0);
  });
});

describe('the shared probe pool with real ffprobe runs', () => {
  let dir: string;
  let clip: string;
  let log: string;
  const path = process.env.PATH;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mo-pool-'));
    clip = join(dir, 'a.mkv');
    await makeClip(clip, { seconds: 1 });
    // An ffprobe first on PATH that notes how many ffprobe runs are alive as it starts.
    const { stdout: real } = await runTool(['sh', '-c', 'command -v ffprobe'], { timeoutMs: 5000 });
    const bin = join(dir, 'bin');
    const alive = join(dir, 'alive');
    log = join(dir, 'counts');
    await mkdir(bin);
    await mkdir(alive);
    await writeFile(
      join(bin, 'ffprobe'),
      `#!/usr/bin/env bash\ntouch ${alive}/$$\nls ${alive} | wc -l >> ${log}\nsleep 0.05\n${JSON.stringify(real)} "$@"\nrc=$?\nrm -f ${alive}/$$\nexit $rc\n`,
    );
    await chmod(join(bin, 'ffprobe'), 0o755);
    process.env.PATH = `${bin}${delimiter}${path ?? ''}`;
  }, 60_000);
  afterEach(() => useProbeConcurrency(() => 2));
  afterAll(async () => {
    process.env.PATH = path;
    await rm(dir, { recursive: true, force: true });
  });

  async function fifty(): Promise<number> {
    await writeFile(log, '');
    const probes = await Promise.all(Array.from({ length: 50 }, () => probeFile(clip)));
    expect(probes.every((p) => p.streams.length === 3)).toBe(true);
    const counts = (await readFile(log, 'utf8')).trim().split('\n').map(Number);
    expect(counts).toHaveLength(50);
    return Math.max(...counts);
  }

  it('runs 50 probes at most app.probe_concurrency (default 2) at a time', async () => {
    expect(await fifty()).toBeLessThanOrEqual(2);
  }, 120_000);

  it('follows the size the process points it at', async () => {
    useProbeConcurrency(() => 5);
    const most = await fifty();
    expect(most).toBeLessThanOrEqual(5);
    expect(most).toBeGreaterThan(2);
  }, 120_000);

  it('gives up a probe still waiting for its turn when its signal aborts', async () => {
    useProbeConcurrency(() => 1);
    const ac = new AbortController();
    const first = probeFile(clip);
    const second = probeFile(clip, { signal: ac.signal });
    ac.abort();
    const err = await second.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).reason).toBe('cancelled');
    expect((await first).streams).toHaveLength(3);
  }, 60_000);
});
