import { describe, expect, it } from 'vitest';
import { createEventThrottle } from './event-throttle.ts';

const SECOND = 1000;

describe('the per-job progress throttle', () => {
  it('sends the first progress at once and holds the rest of the interval, keeping only the latest', () => {
    const t = createEventThrottle<string>(SECOND);
    expect(t.offer('a', 'progress', 'p1', 0)).toBe('p1');
    expect(t.offer('a', 'progress', 'p2', 100)).toBeNull();
    expect(t.offer('a', 'progress', 'p3', 900)).toBeNull();
    expect(t.nextDue()).toBe(SECOND);
    expect(t.due(999)).toEqual([]);
    expect(t.due(1000)).toEqual(['p3']);
    // The held one counted as a send: the next progress waits a whole interval from it.
    expect(t.offer('a', 'progress', 'p4', 1500)).toBeNull();
    expect(t.due(2000)).toEqual(['p4']);
  });

  it('throttles each job on its own', () => {
    const t = createEventThrottle<string>(SECOND);
    expect(t.offer('a', 'progress', 'a1', 0)).toBe('a1');
    expect(t.offer('b', 'progress', 'b1', 10)).toBe('b1');
    expect(t.offer('a', 'progress', 'a2', 20)).toBeNull();
    expect(t.offer('b', 'progress', 'b2', 30)).toBeNull();
    expect(t.due(1000)).toEqual(['a2']);
    expect(t.due(1010)).toEqual(['b2']);
  });

  it('sends a progress at once when the last one went out an interval ago or more', () => {
    const t = createEventThrottle<string>(SECOND);
    t.offer('a', 'progress', 'p1', 0);
    expect(t.offer('a', 'progress', 'p2', 1000)).toBe('p2');
    expect(t.offer('a', 'progress', 'p3', 5000)).toBe('p3');
    expect(t.due(10_000)).toEqual([]);
  });

  it('always sends the end at once, dropping the progress it supersedes, and forgets the job', () => {
    const t = createEventThrottle<string>(SECOND);
    t.offer('a', 'progress', 'p1', 0);
    expect(t.offer('a', 'progress', 'p2', 10)).toBeNull();
    expect(t.offer('a', 'end', 'completed', 20)).toBe('completed');
    expect(t.size()).toBe(0);
    expect(t.nextDue()).toBeNull();
    expect(t.due(5000)).toEqual([]);
  });

  it('sends an end even for a job it never saw, and a start at once', () => {
    const t = createEventThrottle<string>(SECOND);
    expect(t.offer('x', 'end', 'failed', 0)).toBe('failed');
    expect(t.offer('y', 'start', 'active', 0)).toBe('active');
    expect(t.offer('y', 'start', 'active again', 1)).toBe('active again');
    expect(t.size()).toBe(0);
  });

  it('drops progress held from an attempt that failed when the retry starts', () => {
    const t = createEventThrottle<string>(SECOND);
    t.offer('a', 'progress', 'p1', 0);
    t.offer('a', 'progress', 'old attempt', 10);
    expect(t.offer('a', 'start', 'active', 20)).toBe('active');
    expect(t.due(1000)).toEqual([]);
  });

  it('forgets a job an interval after its last progress, so jobs that vanish without an end do not pile up', () => {
    const t = createEventThrottle<string>(SECOND);
    for (let i = 0; i < 100; i++) t.offer(`job${i}`, 'progress', 'p', i);
    expect(t.size()).toBe(100);
    expect(t.nextDue()).toBe(SECOND);
    t.due(1050);
    expect(t.size()).toBe(49);
    expect(t.nextDue()).toBe(1051);
    t.due(1099);
    expect(t.size()).toBe(0);
    expect(t.nextDue()).toBeNull();
  });

  it('clears everything it tracks', () => {
    const t = createEventThrottle<string>(SECOND);
    t.offer('a', 'progress', 'p1', 0);
    t.offer('a', 'progress', 'p2', 1);
    t.clear();
    expect(t.size()).toBe(0);
    expect(t.due(5000)).toEqual([]);
  });
});
