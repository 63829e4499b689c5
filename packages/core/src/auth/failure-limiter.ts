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
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** One check of a secret under way: settled once it is judged. */
export interface Attempt {
  /** A failure stays in the window; anything else (the right secret, a bad request) frees its place. */
  settle(failed: boolean): void;
}

export type Reservation = { attempt: Attempt } | { retryAfterMs: number };

/**
 * Counts failed credentials per client address in a sliding window: after `limit` failures within
 * `windowMs`, the address is refused until the oldest of them leaves the window. A check in flight
 * holds a place as if it had failed, so that requests sent all at once cannot have more secrets
 * judged than the limit allows: those beyond it wait for the ones ahead to be judged. The map is
 * bounded so that a flood of addresses cannot grow it: the longest-quiet addresses go first.
 */
export interface FailureLimiter {
  /** Takes a place for one check before the secret is judged, or says how long `key` must wait. */
  reserve(key: string): Promise<Reservation>;
}

interface Entry {
  failures: number[];
  inFlight: number;
  /** Reservations waiting for a check in flight to be judged. */
  waiting: (() => void)[];
}

export function createFailureLimiter(opts: { limit: number; windowMs: number; maxKeys?: number; now?: () => number }): FailureLimiter {
  const maxKeys = opts.maxKeys ?? 10_000;
  const now = opts.now ?? Date.now;
  const entries = new Map<string, Entry>();

  /** The key's entry, its failures pruned to the window, moved to the most recently used end. */
  function entryFor(key: string, at: number): Entry {
    const entry = entries.get(key) ?? { failures: [], inFlight: 0, waiting: [] };
    entry.failures = entry.failures.filter((t) => at - t < opts.windowMs);
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  }

  function forgetIfIdle(key: string, entry: Entry): void {
    if (entry.failures.length === 0 && entry.inFlight === 0 && entry.waiting.length === 0 && entries.get(key) === entry) entries.delete(key);
  }

  function attemptOn(key: string, entry: Entry): Attempt {
    let settled = false;
    return {
      settle(failed) {
        if (settled) return;
        settled = true;
        entry.inFlight--;
        if (failed) {
          entry.failures.push(now());
          // Only the last `limit` failures decide anything.
          if (entry.failures.length > opts.limit) entry.failures.shift();
          // Bounded only when a failure is kept, so that clients who get in push no one's failures out.
          if (entries.size > maxKeys) entries.delete(entries.keys().next().value!);
        }
        // Each waiter looks again: a place freed lets one through, a full window refuses them all.
        for (const wake of entry.waiting.splice(0)) wake();
        forgetIfIdle(key, entry);
      },
    };
  }

  return {
    async reserve(key) {
      for (;;) {
        const at = now();
        const entry = entryFor(key, at);
        const { failures } = entry;
        if (failures.length >= opts.limit) return { retryAfterMs: failures[failures.length - opts.limit]! + opts.windowMs - at };
        if (failures.length + entry.inFlight < opts.limit) {
          entry.inFlight++;
          return { attempt: attemptOn(key, entry) };
        }
        await new Promise<void>((resolve) => entry.waiting.push(resolve));
      }
    },
  };
}
