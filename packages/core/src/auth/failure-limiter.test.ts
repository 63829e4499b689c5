import { describe, expect, it } from 'vitest';
import { createFailureLimiter, failureKey } from './failure-limiter.ts';

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

describe('failureKey', () => {
  it('counts an IPv6 client by its /64, which one host usually holds whole, and an IPv4 one by its address', () => {
    expect(failureKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(failureKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(failureKey('2001:0db8:0001:0002::9%eth0')).toBe('2001:db8:1:2::/64');
    expect(failureKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(failureKey('::1')).toBe('0:0:0:0::/64');
    expect(failureKey('fe80::1:2:3:4')).toBe('fe80:0:0:0::/64');
    expect(failureKey('::ffff:192.168.1.66')).toBe('192.168.1.66');
    expect(failureKey('::ffff:c0a8:142')).toBe('192.168.1.66');
    expect(failureKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(failureKey('192.168.1.66')).toBe('192.168.1.66');
    expect(failureKey('unknown')).toBe('unknown');
  });
});
