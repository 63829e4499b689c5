import { describe, expect, it } from 'vitest';
import { createFailureLimiter } from './failure-limiter.ts';

describe('failure limiter', () => {
  it('lets an address fail `limit` times in the window, then refuses it until the oldest failure leaves', () => {
    const l = createFailureLimiter({ limit: 3, windowMs: 60_000 });
    for (let t = 0; t < 3; t++) {
      expect(l.retryAfterMs('a', t * 1000)).toBe(0);
      l.fail('a', t * 1000);
    }
    expect(l.retryAfterMs('a', 3000)).toBe(57_000);
    expect(l.retryAfterMs('b', 3000)).toBe(0);
    expect(l.retryAfterMs('a', 59_999)).toBe(1);
    expect(l.retryAfterMs('a', 60_000)).toBe(0);
  });

  it('counts only the failures still inside the window', () => {
    const l = createFailureLimiter({ limit: 2, windowMs: 10_000 });
    l.fail('a', 0);
    l.fail('a', 1000);
    l.fail('a', 9000);
    expect(l.retryAfterMs('a', 10_500)).toBe(500);
    expect(l.retryAfterMs('a', 11_000)).toBe(0);
    l.fail('a', 11_000);
    expect(l.retryAfterMs('a', 11_000)).toBe(8000);
  });

  it('forgets the longest-quiet addresses first when it holds too many', () => {
    const l = createFailureLimiter({ limit: 1, windowMs: 60_000, maxKeys: 2 });
    l.fail('a', 0);
    l.fail('b', 1);
    l.fail('a', 2);
    l.fail('c', 3);
    expect(l.retryAfterMs('b', 4)).toBe(0);
    expect(l.retryAfterMs('a', 4)).toBeGreaterThan(0);
    expect(l.retryAfterMs('c', 4)).toBeGreaterThan(0);
  });
});
