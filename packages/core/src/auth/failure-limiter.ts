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
