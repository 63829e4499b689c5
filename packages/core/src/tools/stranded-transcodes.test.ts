import { describe, expect, it } from 'vitest';
import type { TranscodeStatus } from '@mo/shared';
import type { JobOutcome } from '../queue/job-view.ts';
import { CLAIM_GRACE_MS, strandedTranscodes } from './stranded-transcodes.ts';
import { queuedEntry } from './transcode-entries.ts';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString();
const entry = (over: Partial<TranscodeStatus>): TranscodeStatus => ({ ...queuedEntry(at(1000)), status: 'running', job_id: '7', ...over });

describe('strandedTranscodes', () => {
  it('names a running entry whose job failed outside its handler, with the queue’s reason', () => {
    const outcomes = new Map<string, JobOutcome | null>([['7', { state: 'failed', reason: 'job stalled more than allowable limit' }]]);
    expect(strandedTranscodes({ '/m/a.avi': entry({}) }, outcomes, NOW)).toEqual([
      { path: '/m/a.avi', job_id: '7', error: 'job stalled more than allowable limit' },
    ]);
  });

  it('names a running entry whose job the queue no longer has', () => {
    expect(strandedTranscodes({ '/m/a.avi': entry({}) }, new Map([['7', null]]), NOW)).toEqual([
      { path: '/m/a.avi', job_id: '7', error: 'job transcode/7 is no longer in the queue' },
    ]);
  });

  it.each(['active', 'waiting', 'delayed', 'prioritized', 'waiting-children', 'completed'])('leaves a running entry whose job is %s', (state) => {
    expect(strandedTranscodes({ '/m/a.avi': entry({}) }, new Map([['7', { state, reason: null }]]), NOW)).toEqual([]);
  });

  it('leaves an entry whose job it did not ask about (read failed, or added since)', () => {
    expect(strandedTranscodes({ '/m/a.avi': entry({}) }, new Map(), NOW)).toEqual([]);
  });

  it('names a waiting entry whose job the queue lacks only once its claim is older than the grace', () => {
    const young = entry({ status: 'queued', job_id: '7', updated_at: at(CLAIM_GRACE_MS - 1000) });
    const old = entry({ status: 'queued', job_id: '8', updated_at: at(CLAIM_GRACE_MS + 1000) });
    expect(
      strandedTranscodes(
        { '/m/young.avi': young, '/m/old.avi': old },
        new Map([
          ['7', null],
          ['8', null],
        ]),
        NOW,
      ),
    ).toEqual([{ path: '/m/old.avi', job_id: '8', error: 'job transcode/8 is no longer in the queue' }]);
  });

  it('leaves entries that hold no job: nothing can strand them', () => {
    expect(
      strandedTranscodes({ '/m/a.avi': entry({ status: 'queued', job_id: null, priority: 4, updated_at: at(CLAIM_GRACE_MS * 9) }) }, new Map(), NOW),
    ).toEqual([]);
  });

  it('leaves done and failed entries alone whatever the queue says', () => {
    const outcomes = new Map<string, JobOutcome | null>([['7', null]]);
    expect(strandedTranscodes({ '/m/a.avi': entry({ status: 'done' }), '/m/b.avi': entry({ status: 'failed' }) }, outcomes, NOW)).toEqual([]);
  });
});
