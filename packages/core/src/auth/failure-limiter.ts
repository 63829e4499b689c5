import { isIPv6 } from 'node:net';

/** The eight groups of an IPv6 address (a `::` filled in, a dotted IPv4 tail as two), or null. */
function ipv6Groups(address: string): number[] | null {
  const bare = address.split('%')[0]!;
  if (!isIPv6(bare)) return null;
  let text = bare;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const front = part(head);
  const back = part(tail);
  return tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * The key a client's failures are counted under: its IPv4 address, or the /64 of an IPv6 one. A
 * single host is usually given a whole /64, so counting each IPv6 address apart would let it try
 * a new address for every ten guesses.
 */
export function failureKey(address: string): string {
  const groups = ipv6Groups(address);
  if (groups === null) return address;
  // An IPv4 client as a dual-stack socket shows it (::ffff:a.b.c.d) is that IPv4 address.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/**
 * Counts failed credentials per client address in a sliding window: after `limit` failures within
 * `windowMs`, the address is refused until the oldest of them leaves the window. The map is bounded
 * so that a flood of addresses cannot grow it: the longest-quiet addresses go first.
 */
export interface FailureLimiter {
  /** Milliseconds until `key` may try again; 0 when it may now. */
  retryAfterMs(key: string, now?: number): number;
  fail(key: string, now?: number): void;
}

export function createFailureLimiter(opts: { limit: number; windowMs: number; maxKeys?: number }): FailureLimiter {
  const maxKeys = opts.maxKeys ?? 10_000;
  const failures = new Map<string, number[]>();

  function recent(key: string, now: number): number[] {
    const times = failures.get(key);
    if (!times) return [];
    const kept = times.filter((t) => now - t < opts.windowMs);
    if (kept.length === 0) failures.delete(key);
    else failures.set(key, kept);
    return kept;
  }

  return {
    retryAfterMs(key, now = Date.now()) {
      const times = recent(key, now);
      return times.length < opts.limit ? 0 : times[times.length - opts.limit]! + opts.windowMs - now;
    },
    fail(key, now = Date.now()) {
      const times = recent(key, now);
      times.push(now);
      // Only the last `limit` failures decide anything.
      if (times.length > opts.limit) times.shift();
      failures.delete(key);
      failures.set(key, times);
      if (failures.size > maxKeys) failures.delete(failures.keys().next().value!);
    },
  };
}
