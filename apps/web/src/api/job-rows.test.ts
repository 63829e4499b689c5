import { describe, expect, it } from 'vitest';
import { mergeJobs, runSeconds, type ListedJob } from './job-rows.ts';
import type { LiveJob } from './live.ts';

const T = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const ms = (s: number) => Date.parse(T(s));

function listed(id: string, state: ListedJob['state'], extra: Partial<ListedJob> = {}): ListedJob {
  return {
    id,
    queue: 'transcode',
    name: 'transcode-run',
    state,
    progress: 0,
    error: null,
    error_code: null,
    created_at: T(1),
    started_at: state === 'waiting' ? null : T(2),
    finished_at: state === 'completed' || state === 'failed' ? T(3) : null,
    summary: null,
    ...extra,
  };
}
function live(id: string, state: LiveJob['state'], at: number, extra: Partial<LiveJob> = {}): LiveJob {
  return { queue: 'transcode', id, name: 'transcode-run', state, at, ...extra };
}

describe('mergeJobs', () => {
  it('shows the list as it is when nothing came after it', () => {
    const jobs = [listed('2', 'active', { progress: { percent: 10 } }), listed('1', 'completed')];
    const older = [live('2', 'active', ms(5), { progress: { percent: 5 } }), live('1', 'active', ms(5))];
    expect(mergeJobs(jobs, ms(10), older)).toEqual(jobs);
    expect(mergeJobs(jobs, ms(10), [])).toEqual(jobs);
  });

  it("takes a newer event's state, progress and error over the list's, keeping the list's times", () => {
    const running = listed('2', 'active', { progress: { percent: 10 } });
    const [row] = mergeJobs([running], ms(10), [live('2', 'active', ms(11), { progress: { percent: 60, speed: 2, out_time_seconds: 30 } })]);
    expect(row).toMatchObject({ state: 'active', progress: { percent: 60, speed: 2, out_time_seconds: 30 }, started_at: T(2) });
    const [ended] = mergeJobs([running], ms(10), [live('2', 'failed', ms(12), { error: 'cancelled' })]);
    expect(ended).toMatchObject({ state: 'failed', error: 'cancelled', progress: { percent: 10 } });
  });

  it('puts jobs the list does not hold yet first, newest first; older ones it no longer holds are left out', () => {
    const rows = mergeJobs([listed('1', 'completed')], ms(10), [
      live('3', 'active', ms(11)),
      live('4', 'active', ms(12), { queue: 'scan', name: 'scan-pass' }),
      live('0', 'completed', ms(9)),
    ]);
    expect(rows.map((r) => `${r.queue}:${r.id}`)).toEqual(['scan:4', 'transcode:3', 'transcode:1']);
    expect(rows[0]).toMatchObject({ state: 'active', started_at: null, finished_at: null, summary: null, error: null });
  });

  it('tells jobs of two queues with the same id apart', () => {
    const rows = mergeJobs([listed('1', 'active')], ms(10), [live('1', 'failed', ms(11), { queue: 'media', name: 'media-tracks' })]);
    expect(rows.map((r) => `${r.queue}:${r.id}:${r.state}`)).toEqual(['media:1:failed', 'transcode:1:active']);
  });

  it('shows what the stream told before the list first came', () => {
    expect(mergeJobs([], 0, [live('1', 'active', ms(1))]).map((r) => r.id)).toEqual(['1']);
  });
});

describe('runSeconds', () => {
  it('is the time from start to end, or to now while it runs', () => {
    expect(runSeconds({ state: 'completed', started_at: T(2), finished_at: T(32) }, ms(100))).toBe(30);
    expect(runSeconds({ state: 'active', started_at: T(2), finished_at: null }, ms(12))).toBe(10);
  });
  it('is null for a job that has not run, or waits for another attempt', () => {
    expect(runSeconds({ state: 'waiting', started_at: null, finished_at: null }, ms(12))).toBeNull();
    expect(runSeconds({ state: 'delayed', started_at: T(2), finished_at: null }, ms(12))).toBeNull();
    expect(runSeconds({ state: 'active', started_at: T(20), finished_at: null }, ms(12))).toBe(0);
  });
});
