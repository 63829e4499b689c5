import { describe, expect, it } from 'vitest';
import { JOB_STATES } from '@mo/shared';
import { BULL_TYPES_OF_STATE, lastChangeMs, newestJobs, type JobListItem } from './job-list.ts';
import { contractState } from './job-view.ts';
import { jobAbout } from './job-about.ts';

function job(id: string, times: { created?: string; started?: string; finished?: string }, queue: JobListItem['queue'] = 'scan'): JobListItem {
  return {
    id,
    queue,
    name: 'scan-pass',
    state: 'completed',
    progress: 0,
    error: null,
    error_code: null,
    created_at: times.created ?? null,
    started_at: times.started ?? null,
    finished_at: times.finished ?? null,
    summary: null,
    about: jobAbout('scan-pass', { trigger: 'api' }),
  };
}
const T = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();

describe('lastChangeMs', () => {
  it('is when the job finished, else when it started, else when it was added; 0 with none', () => {
    expect(lastChangeMs(job('1', { created: T(1), started: T(2), finished: T(3) }))).toBe(Date.parse(T(3)));
    expect(lastChangeMs(job('1', { created: T(1), started: T(2) }))).toBe(Date.parse(T(2)));
    expect(lastChangeMs(job('1', { created: T(1) }))).toBe(Date.parse(T(1)));
    expect(lastChangeMs(job('1', {}))).toBe(0);
  });
});

describe('newestJobs', () => {
  it('orders jobs of several lists by their last change, newest first, and keeps the first `limit`', () => {
    const finishedLate = job('1', { created: T(1), started: T(2), finished: T(50) });
    const waiting = job('2', { created: T(40) }, 'media');
    const running = job('3', { created: T(10), started: T(45) }, 'transcode');
    const finishedEarly = job('4', { created: T(5), started: T(6), finished: T(7) }, 'library');
    const found = [finishedEarly, waiting, finishedLate, running];
    expect(newestJobs(found, 10).map((j) => j.id)).toEqual(['1', '3', '2', '4']);
    expect(newestJobs(found, 2).map((j) => j.id)).toEqual(['1', '3']);
    expect(newestJobs(found, 0)).toEqual([]);
    expect(newestJobs([], 5)).toEqual([]);
  });

  it('keeps the order the lists were read in for jobs that changed at the same time', () => {
    const a = job('a', { created: T(1) });
    const b = job('b', { created: T(1) }, 'media');
    expect(newestJobs([a, b], 2).map((j) => j.id)).toEqual(['a', 'b']);
    expect(newestJobs([b, a], 2).map((j) => j.id)).toEqual(['b', 'a']);
  });

  it('counts a job read from two lists once, as first read; the same id on two queues is two jobs', () => {
    const active = { ...job('7', { created: T(1), started: T(2) }), state: 'active' as const };
    const completed = job('7', { created: T(1), started: T(2), finished: T(3) });
    expect(newestJobs([active, completed], 5)).toEqual([active]);
    const other = job('7', { created: T(1) }, 'library');
    expect(newestJobs([active, other], 5)).toHaveLength(2);
  });
});

describe('BULL_TYPES_OF_STATE', () => {
  it('reads, for each state, exactly the BullMQ lists whose jobs contractState calls by that state', () => {
    for (const state of JOB_STATES) {
      for (const type of BULL_TYPES_OF_STATE[state]) expect(contractState(type), type).toBe(state);
    }
    const bull = ['waiting', 'prioritized', 'waiting-children', 'paused', 'active', 'delayed', 'completed', 'failed'];
    expect(Object.values(BULL_TYPES_OF_STATE).flat().sort()).toEqual(bull.sort());
  });
});
