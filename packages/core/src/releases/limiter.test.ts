import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createLimiter } from './limiter.ts';

describe('createLimiter', () => {
  it('runs at most `concurrency` tasks at once, in the order given', async () => {
    const limit = createLimiter({ concurrency: 2, minIntervalMs: 0 });
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        limit(async () => {
          order.push(n);
          most = Math.max(most, ++running);
          await sleep(10);
          running--;
          return n * 10;
        }),
      ),
    );
    expect(results).toEqual([10, 20, 30, 40, 50]);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('spaces the starts by minIntervalMs', async () => {
    const limit = createLimiter({ concurrency: 10, minIntervalMs: 40 });
    const starts: number[] = [];
    await Promise.all([1, 2, 3].map(() => limit(async () => void starts.push(performance.now()))));
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(38);
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(38);
  });

  it('passes a failure to its caller and goes on with the rest', async () => {
    const limit = createLimiter({ concurrency: 1, minIntervalMs: 0 });
    const failing = limit(() => {
      throw new Error('boom');
    });
    const next = limit(async () => 'next');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });
});
