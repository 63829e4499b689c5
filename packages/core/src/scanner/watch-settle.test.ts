import { describe, expect, it } from 'vitest';
import {
  changed,
  covers,
  decide,
  enqueued,
  IDLE,
  isFreshChange,
  RETRY_MS,
  SETTLE_MARGIN_MS,
  watchSettingsChange,
  type QueuedPass,
  type WatchSettings,
  type WatchState,
} from './watch-settle.ts';

const SETTLE = 5;
const WAIT = SETTLE * 1000 + SETTLE_MARGIN_MS;

/**
 * A watcher on fake time: `changes` are the times of change events, `passes` answers each request
 * for a pass; returns the times at which a pass was requested.
 */
function simulate(changes: number[], opts: { until: number; settle?: number; answer?: (atMs: number, asOfMs: number) => QueuedPass | null }) {
  const settle = opts.settle ?? SETTLE;
  const answer = opts.answer ?? (() => ({ state: 'waiting', startedMs: null }));
  const pending = [...changes].sort((a, b) => a - b);
  const requests: number[] = [];
  let s: WatchState = IDLE;
  for (let now = 0; now <= opts.until; now += 100) {
    while (pending.length > 0 && pending[0]! <= now) s = changed(s, pending.shift()!);
    const d = decide(s, now, settle);
    if (d.kind === 'enqueue') {
      requests.push(now);
      s = enqueued(s, d.asOfMs, answer(now, d.asOfMs), now);
    }
  }
  return requests;
}

describe('decide', () => {
  it('is idle with no change', () => {
    expect(decide(IDLE, 1_000_000, SETTLE)).toEqual({ kind: 'idle' });
  });

  it('waits settle_seconds plus the margin after the last change, then asks for the pass as of that change', () => {
    const s = changed(IDLE, 10_000);
    expect(decide(s, 10_000, SETTLE)).toEqual({ kind: 'wait', ms: WAIT });
    expect(decide(s, 10_000 + WAIT - 1, SETTLE)).toEqual({ kind: 'wait', ms: 1 });
    expect(decide(s, 10_000 + WAIT, SETTLE)).toEqual({ kind: 'enqueue', asOfMs: 10_000 });
    expect(decide(s, 10_000 + WAIT * 10, SETTLE)).toEqual({ kind: 'enqueue', asOfMs: 10_000 });
  });

  it('with settle_seconds 0 waits only the margin', () => {
    expect(decide(changed(IDLE, 0), 0, 0)).toEqual({ kind: 'wait', ms: SETTLE_MARGIN_MS });
    expect(decide(changed(IDLE, 0), SETTLE_MARGIN_MS, 0).kind).toBe('enqueue');
  });

  it('a settle_seconds changed at run time moves the deadline', () => {
    const s = changed(IDLE, 0);
    expect(decide(s, 3000, 60)).toEqual({ kind: 'wait', ms: 58_000 });
    expect(decide(s, 3000, 1)).toEqual({ kind: 'enqueue', asOfMs: 0 });
  });

  it('holds off until the retry time even when the changes have settled', () => {
    const s: WatchState = { lastChangeMs: 0, retryAtMs: WAIT + 500 };
    expect(decide(s, WAIT, SETTLE)).toEqual({ kind: 'wait', ms: 500 });
    expect(decide(s, WAIT + 500, SETTLE)).toEqual({ kind: 'enqueue', asOfMs: 0 });
  });
});

describe('isFreshChange', () => {
  it('counts a change that leaves the file unsettled, not one to a file already settled', () => {
    for (const settle of [0, 1, SETTLE, 120]) {
      const limit = settle * 1000 + SETTLE_MARGIN_MS;
      expect(isFreshChange(100_000, 100_000, settle)).toBe(true);
      expect(isFreshChange(100_000, 100_000 + limit - 1, settle)).toBe(true);
      expect(isFreshChange(100_000, 100_000 + limit, settle)).toBe(false);
      expect(isFreshChange(100_000, 100_000 + 10 * limit, settle)).toBe(false);
      // A clock behind the file's time: the file is being written now.
      expect(isFreshChange(100_000, 90_000, settle)).toBe(true);
    }
  });
});

describe('changed', () => {
  it('keeps the newest change, whatever order events are noted in', () => {
    expect(changed(changed(IDLE, 5000), 3000).lastChangeMs).toBe(5000);
    expect(changed(changed(IDLE, 3000), 5000).lastChangeMs).toBe(5000);
  });

  it('keeps a pending retry', () => {
    expect(changed({ lastChangeMs: 1, retryAtMs: 99 }, 50)).toEqual({ lastChangeMs: 50, retryAtMs: 99 });
  });
});

describe('covers', () => {
  it('a pass that has not begun covers any change', () => {
    for (const state of ['waiting', 'prioritized', 'delayed', 'waiting-children']) {
      expect(covers({ state, startedMs: null }, 10_000)).toBe(true);
      expect(covers({ state, startedMs: 1 }, 10_000)).toBe(true);
    }
  });

  it('a pass that has begun covers only changes made before it began', () => {
    for (const state of ['active', 'completed', 'failed']) {
      expect(covers({ state, startedMs: 10_000 }, 10_000)).toBe(true);
      expect(covers({ state, startedMs: 10_001 }, 10_000)).toBe(true);
      expect(covers({ state, startedMs: 9_999 }, 10_000)).toBe(false);
      expect(covers({ state, startedMs: null }, 10_000)).toBe(false);
    }
  });

  it('a pass gone from the queue covers nothing', () => {
    expect(covers({ state: 'unknown', startedMs: null }, 0)).toBe(false);
  });
});

describe('enqueued', () => {
  const s = changed(IDLE, 1000);

  it('is idle once a pass covers the change', () => {
    expect(enqueued(s, 1000, { state: 'waiting', startedMs: null }, 9000)).toEqual(IDLE);
    expect(enqueued(s, 1000, { state: 'active', startedMs: 1000 }, 9000)).toEqual(IDLE);
  });

  it('keeps a change that came in while the pass was being asked for, without a retry delay', () => {
    const later = changed(s, 8000);
    expect(enqueued(later, 1000, { state: 'waiting', startedMs: null }, 9000)).toEqual({ lastChangeMs: 8000, retryAtMs: null });
  });

  it('retries shortly when it joined a pass that began before the change', () => {
    expect(enqueued(s, 1000, { state: 'active', startedMs: 500 }, 9000)).toEqual({ lastChangeMs: 1000, retryAtMs: 9000 + RETRY_MS });
  });

  it('retries shortly when the queue could not be reached', () => {
    expect(enqueued(s, 1000, null, 9000)).toEqual({ lastChangeMs: 1000, retryAtMs: 9000 + RETRY_MS });
  });

  it('clears the retry once covered', () => {
    expect(enqueued({ lastChangeMs: 1000, retryAtMs: 9000 }, 1000, { state: 'waiting', startedMs: null }, 9000)).toEqual(IDLE);
  });
});

describe('over time', () => {
  it('a burst of 24 files, one every 300 ms, gives one pass, settle_seconds after the last', () => {
    const burst = Array.from({ length: 24 }, (_, i) => i * 300);
    expect(simulate(burst, { until: 60_000 })).toEqual([23 * 300 + WAIT]);
  });

  it('a download that keeps writing gets no pass until it stops', () => {
    const writes = Array.from({ length: 200 }, (_, i) => i * 1000);
    expect(simulate(writes, { until: 300_000 })).toEqual([199_000 + WAIT]);
  });

  it('two downloads further apart than settle_seconds give two passes', () => {
    expect(simulate([0, 20_000], { until: 60_000 })).toEqual([WAIT, 20_000 + WAIT]);
  });

  it('joining a pass that began before the change asks again until a pass covers it', () => {
    // A pass runs from 0 until 10 s: requests before then join it and do not cover the change at 1 s.
    const answer = (at: number): QueuedPass => (at < 10_000 ? { state: 'active', startedMs: 0 } : { state: 'waiting', startedMs: null });
    expect(simulate([1000], { until: 60_000, answer })).toEqual([1000 + WAIT, 1000 + WAIT + RETRY_MS, 1000 + WAIT + 2 * RETRY_MS]);
  });

  it('a queue that is down is asked again every RETRY_MS until it answers', () => {
    const answer = (at: number) => (at < 12_000 ? null : { state: 'waiting', startedMs: null });
    expect(simulate([0], { until: 60_000, answer })).toEqual([WAIT, WAIT + RETRY_MS, WAIT + 2 * RETRY_MS, WAIT + 3 * RETRY_MS]);
  });

  it('no change, no pass', () => {
    expect(simulate([], { until: 600_000 })).toEqual([]);
  });

  it('every spacing of two changes gives one pass when within the wait (a change in the same tick counts) and two otherwise', () => {
    for (let gap = 0; gap <= 2 * WAIT; gap += 100) {
      const requests = simulate([0, gap], { until: 4 * WAIT });
      expect(requests, `gap ${gap}`).toEqual(gap <= WAIT ? [gap + WAIT] : [WAIT, gap + WAIT]);
    }
  });
});

describe('watchSettingsChange', () => {
  const settings = (downloads: string, watch: boolean, settle: number): WatchSettings => ({ paths: { downloads }, app: { watch, settle_seconds: settle } });
  const before = settings('/downloads', true, 5);

  it.each([
    ['another downloads folder', '/downloads', settings('/other', true, 5), 'rearm'],
    ['app.watch turned off', '/downloads', settings('/downloads', false, 5), 'rearm'],
    ['a folder the watch does not follow yet, though the setting did not change', '/old', before, 'rearm'],
    ['another folder and another settle time: watching again plans anew', '/downloads', settings('/other', true, 9), 'rearm'],
    ['a new settle_seconds', '/downloads', settings('/downloads', true, 9), 'replan'],
    ['anything else', '/downloads', settings('/downloads', true, 5), null],
  ] as const)('%s: %s', (_what, folder, next, want) => {
    expect(watchSettingsChange(folder, next, before)).toBe(want);
  });
});
