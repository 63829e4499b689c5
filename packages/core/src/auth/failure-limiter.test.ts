import { describe, expect, it } from 'vitest';
import { createFailureLimiter, failureKey, type FailureLimiter } from './failure-limiter.ts';

function clocked(opts: { limit: number; windowMs: number; maxKeys?: number }) {
  const clock = { t: 0 };
  return { clock, limiter: createFailureLimiter({ ...opts, now: () => clock.t }) };
}

/** One check judged at once: its outcome, or the wait it was refused with. */
async function check(l: FailureLimiter, key: string, failed = true): Promise<number> {
  const r = await l.reserve(key);
  if ('retryAfterMs' in r) return r.retryAfterMs;
  r.attempt.settle(failed);
  return 0;
}

describe('failure limiter', () => {
  it('lets an address fail `limit` times in the window, then refuses it until the oldest failure leaves', async () => {
    const { clock, limiter: l } = clocked({ limit: 3, windowMs: 60_000 });
    for (clock.t = 0; clock.t < 3000; clock.t += 1000) expect(await check(l, 'a')).toBe(0);
    expect(await check(l, 'a')).toBe(57_000);
    expect(await check(l, 'b', false)).toBe(0);
    clock.t = 59_999;
    expect(await check(l, 'a')).toBe(1);
    clock.t = 60_000;
    expect(await check(l, 'a')).toBe(0);
  });

  it('counts only the failures still inside the window, and not the checks that passed', async () => {
    const { clock, limiter: l } = clocked({ limit: 2, windowMs: 10_000 });
    for (const t of [1000, 9000]) {
      clock.t = t;
      await check(l, 'a');
    }
    clock.t = 10_500;
    expect(await check(l, 'a', false)).toBe(500);
    clock.t = 11_000;
    for (let i = 0; i < 5; i++) expect(await check(l, 'a', false)).toBe(0);
    expect(await check(l, 'a')).toBe(0);
    expect(await check(l, 'a')).toBe(8000);
  });

  it('holds a place for each check in flight: of many sent at once, no more than `limit` are judged', async () => {
    const { limiter: l } = clocked({ limit: 3, windowMs: 60_000 });
    const sent = Array.from({ length: 60 }, () => l.reserve('a'));
    const taken: { attempt: { settle(failed: boolean): void } }[] = [];
    // The first three get places at once; the rest wait for them to be judged.
    for (const r of sent.slice(0, 3)) taken.push((await r) as (typeof taken)[number]);
    expect(taken.every((r) => 'attempt' in r)).toBe(true);
    for (const r of taken) r.attempt.settle(true);
    const rest = await Promise.all(sent.slice(3));
    expect(rest.every((r) => 'retryAfterMs' in r)).toBe(true);
    expect(await check(l, 'a', false)).toBeGreaterThan(0);
  });

  it('lets a waiting check through when one ahead of it passes, one place each', async () => {
    const { limiter: l } = clocked({ limit: 2, windowMs: 60_000 });
    const first = (await l.reserve('a')) as { attempt: { settle(failed: boolean): void } };
    const second = (await l.reserve('a')) as { attempt: { settle(failed: boolean): void } };
    let third: unknown = null;
    void l.reserve('a').then((r) => (third = r));
    await new Promise((r) => setImmediate(r));
    expect(third).toBeNull();
    first.attempt.settle(false);
    first.attempt.settle(true);
    await new Promise((r) => setImmediate(r));
    expect(third).toHaveProperty('attempt');
    second.attempt.settle(true);
    (third as { attempt: { settle(failed: boolean): void } }).attempt.settle(true);
    expect(await check(l, 'a')).toBeGreaterThan(0);
  });

  it('forgets the longest-quiet addresses first when it holds too many', async () => {
    const { clock, limiter: l } = clocked({ limit: 1, windowMs: 60_000, maxKeys: 2 });
    for (const key of ['a', 'b', 'a', 'c']) {
      await check(l, key);
      clock.t++;
    }
    expect(await check(l, 'b', false)).toBe(0);
    expect(await check(l, 'a')).toBeGreaterThan(0);
    expect(await check(l, 'c')).toBeGreaterThan(0);
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
