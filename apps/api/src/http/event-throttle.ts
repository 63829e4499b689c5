/**
 * Which job events the live stream sends, and when. A transcode reports progress several times a
 * second and a library scan once per file; every tab redraws on each, so progress goes out at most
 * once per interval per job: the first at once, the rest held with only the latest kept, and sent
 * when the interval is over. A job's start and end always go out at once, and the end drops any
 * progress still held (the end supersedes it). Pure: the caller passes the clock and runs the timer.
 */
export type ThrottledKind = 'start' | 'progress' | 'end';

interface Entry<T> {
  sentAt: number;
  held: T | undefined;
}

export interface EventThrottle<T> {
  /** The event to send now, or null when it is held (or replaces the progress held) for later. */
  offer(key: string, kind: ThrottledKind, event: T, now: number): T | null;
  /** Held progress whose interval is over, to send now; also forgets jobs quiet for an interval. */
  due(now: number): T[];
  /** When `due` next has work; null when no job is tracked. */
  nextDue(): number | null;
  /** Jobs tracked (each until an interval after its last progress, or its end). */
  size(): number;
  clear(): void;
}

export function createEventThrottle<T>(intervalMs: number): EventThrottle<T> {
  const entries = new Map<string, Entry<T>>();
  return {
    offer(key, kind, event, now) {
      const entry = entries.get(key);
      if (kind === 'end') {
        entries.delete(key);
        return event;
      }
      if (kind === 'start') {
        // A retry starts over: what was held belongs to the attempt that failed.
        if (entry) entry.held = undefined;
        return event;
      }
      if (!entry || now - entry.sentAt >= intervalMs) {
        entries.set(key, { sentAt: now, held: undefined });
        return event;
      }
      entry.held = event;
      return null;
    },
    due(now) {
      const out: T[] = [];
      for (const [key, entry] of entries) {
        if (now - entry.sentAt < intervalMs) continue;
        if (entry.held === undefined) {
          entries.delete(key);
        } else {
          out.push(entry.held);
          entry.held = undefined;
          entry.sentAt = now;
        }
      }
      return out;
    },
    nextDue() {
      let next: number | null = null;
      for (const entry of entries.values()) {
        const at = entry.sentAt + intervalMs;
        if (next === null || at < next) next = at;
      }
      return next;
    },
    size: () => entries.size,
    clear: () => entries.clear(),
  };
}
