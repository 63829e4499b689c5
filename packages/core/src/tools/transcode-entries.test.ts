import { describe, expect, it } from 'vitest';
import type { MediaSnapshot } from '@mo/shared';
import { CANCELLED } from '../queue/job-cancel.ts';
import { bullPriority, jobAttempt, nextEntry, PRIORITY_LIMIT, queuedEntry, topPriority, type EntryEvent, type TranscodeRecord } from './transcode-entries.ts';

const T0 = '2026-01-01T00:00:00.000Z';
const NOW = '2026-01-02T00:00:00.000Z';
const P = '/m/Movies/A/A.avi';
const snap: MediaSnapshot = { bytes: 10, streams: [{ index: 0, type: 'video', codec: 'h264', language: null, default: true }] };

function rec(status: TranscodeRecord['status'], extra: Partial<TranscodeRecord> = {}): TranscodeRecord {
  return { ...queuedEntry(T0), status, job_id: 'tr-a', ...extra };
}

const unrecorded = undefined;
const waiting = rec('queued');
const running = rec('running', { output: '/m/Movies/A/A.mp4' });
const done = rec('done', { output: '/m/Movies/A/A.mp4', original: 'kept', before: snap, after: snap, seconds: 3 });
const failed = rec('failed', { error: 'boom' });
const prioritized = { ...queuedEntry(T0), priority: 5 };

const finish: EntryEvent = { type: 'finish', job_id: 'tr-a', output: '/m/Movies/A/A.mp4', before: snap, after: snap, seconds: 3 };

type Row = [string, TranscodeRecord | undefined, EntryEvent, Partial<TranscodeRecord> | null | 'refused' | 'unchanged'];

/** Each row: the entry before, the event, and what the entry is after (fields that change). */
const table: Row[] = [
  ['claim: a plain queued entry', unrecorded, { type: 'claim', job_id: 'tr-b' }, { status: 'queued', job_id: 'tr-b', updated_at: NOW }],
  ['claim: keeps the priority', prioritized, { type: 'claim', job_id: 'tr-b' }, { job_id: 'tr-b', priority: 5 }],
  ['claim: one with a job already waiting', waiting, { type: 'claim', job_id: 'tr-b' }, 'refused'],
  ['claim: running', running, { type: 'claim', job_id: 'tr-b' }, 'refused'],
  ['claim: done', done, { type: 'claim', job_id: 'tr-b' }, 'refused'],
  ['claim: failed needs a retry first', failed, { type: 'claim', job_id: 'tr-b' }, 'refused'],
  ['unclaim: gives the entry back, needing no record', waiting, { type: 'unclaim', job_id: 'tr-a' }, null],
  ['unclaim: keeps a priority', { ...prioritized, job_id: 'tr-a' }, { type: 'unclaim', job_id: 'tr-a' }, { job_id: null, priority: 5 }],
  ['unclaim: another job’s claim is left alone', waiting, { type: 'unclaim', job_id: 'tr-b' }, 'unchanged'],
  ['unclaim: a started entry is left alone', running, { type: 'unclaim', job_id: 'tr-a' }, 'unchanged'],
  ['start: its claimed entry', waiting, { type: 'start', job_id: 'tr-a', output: '/o.mp4' }, { status: 'running', output: '/o.mp4' }],
  ['start: again after a crash', running, { type: 'start', job_id: 'tr-a', output: '/o.mp4' }, { status: 'running', output: '/o.mp4' }],
  ['start: the retry of a failed attempt', failed, { type: 'start', job_id: 'tr-a', output: '/o.mp4' }, { status: 'running', output: '/o.mp4', error: null }],
  ['start: another job’s entry', waiting, { type: 'start', job_id: 'tr-b', output: '/o.mp4' }, 'refused'],
  ['start: nobody claimed it', unrecorded, { type: 'start', job_id: 'tr-a', output: '/o.mp4' }, 'refused'],
  ['start: done already', done, { type: 'start', job_id: 'tr-a', output: '/o.mp4' }, 'refused'],
  ['finish: records the result, the original still beside it', running, finish, { status: 'done', before: snap, after: snap, seconds: 3, original: 'kept' }],
  ['finish: not running (cancelled meanwhile)', rec('failed', { error: CANCELLED }), finish, 'refused'],
  ['finish: another job holds it now', { ...running, job_id: 'tr-b' }, finish, 'refused'],
  ['original_removed: its job removed the original', done, { type: 'original_removed', job_id: 'tr-a' }, { original: 'removed' }],
  ['original_removed: another job’s entry', { ...done, job_id: 'tr-b' }, { type: 'original_removed', job_id: 'tr-a' }, 'refused'],
  ['original_removed: not done', running, { type: 'original_removed', job_id: 'tr-a' }, 'refused'],
  [
    'fail: running keeps the planned output for the next attempt',
    running,
    { type: 'fail', job_id: 'tr-a', error: 'x' },
    { status: 'failed', error: 'x', output: '/m/Movies/A/A.mp4' },
  ],
  ['fail: before it started (file gone)', waiting, { type: 'fail', job_id: 'tr-a', error: 'gone' }, { status: 'failed', error: 'gone' }],
  ['fail: a late word from an attempt given up on', { ...running, job_id: 'tr-b' }, { type: 'fail', job_id: 'tr-a', error: 'x' }, 'refused'],
  ['fail: never overwrites done', done, { type: 'fail', job_id: 'tr-a', error: 'x' }, 'refused'],
  ['cancel: a waiting job', waiting, { type: 'cancel', job_id: 'tr-a' }, { status: 'failed', error: CANCELLED }],
  ['cancel: a running job', running, { type: 'cancel', job_id: 'tr-a' }, { status: 'failed', error: CANCELLED, output: '/m/Movies/A/A.mp4' }],
  ['cancel: done stays done', done, { type: 'cancel', job_id: 'tr-a' }, 'unchanged'],
  ['cancel: another job’s entry', running, { type: 'cancel', job_id: 'tr-b' }, 'unchanged'],
  [
    'settle: running with a dead job fails',
    running,
    { type: 'settle', job_id: 'tr-a', error: 'stalled' },
    { status: 'failed', error: 'stalled', output: '/m/Movies/A/A.mp4' },
  ],
  ['settle: a lost waiting job puts the entry back in line', waiting, { type: 'settle', job_id: 'tr-a', error: 'gone' }, null],
  ['settle: done stays done', done, { type: 'settle', job_id: 'tr-a', error: 'x' }, 'unchanged'],
  ['settle: another job’s entry', running, { type: 'settle', job_id: 'tr-b', error: 'x' }, 'unchanged'],
  ['retry: failed, its job ended', failed, { type: 'retry', job_id: 'tr-a', job_state: 'failed' }, null],
  ['retry: failed, its job gone', failed, { type: 'retry', job_id: 'tr-a', job_state: null }, null],
  [
    'retry: keeps the output an earlier attempt planned',
    { ...failed, output: '/m/Movies/A/A.mp4' },
    { type: 'retry', job_id: 'tr-a', job_state: 'failed' },
    { status: 'queued', job_id: null, error: null, output: '/m/Movies/A/A.mp4' },
  ],
  [
    'retry: keeps a priority',
    { ...failed, priority: 3 },
    { type: 'retry', job_id: 'tr-a', job_state: null },
    { status: 'queued', job_id: null, priority: 3, error: null },
  ],
  ['retry: failed, its job may still run again', failed, { type: 'retry', job_id: 'tr-a', job_state: 'delayed' }, 'refused'],
  [
    'retry: what the queue said is of a job the entry no longer holds',
    { ...failed, job_id: 'tr-b' },
    { type: 'retry', job_id: 'tr-a', job_state: 'failed' },
    'refused',
  ],
  ['retry: queued stays queued', unrecorded, { type: 'retry', job_id: 'tr-a', job_state: null }, 'unchanged'],
  ['retry: running', running, { type: 'retry', job_id: 'tr-a', job_state: null }, 'refused'],
  ['retry: done', done, { type: 'retry', job_id: 'tr-a', job_state: null }, 'refused'],
  ['prioritize: a plain queued entry', unrecorded, { type: 'prioritize', priority: 7 }, { status: 'queued', job_id: null, priority: 7 }],
  ['prioritize: back to 0 needs no record', prioritized, { type: 'prioritize', priority: 0 }, null],
  ['prioritize: a waiting job', waiting, { type: 'prioritize', priority: -2 }, { job_id: 'tr-a', priority: -2 }],
  ['prioritize: a failed entry, for its retry', failed, { type: 'prioritize', priority: 2 }, { status: 'failed', priority: 2 }],
  ['prioritize: clamped to the limit', unrecorded, { type: 'prioritize', priority: 5e9 }, { priority: PRIORITY_LIMIT }],
  ['prioritize: running', running, { type: 'prioritize', priority: 1 }, 'refused'],
  ['prioritize: done', done, { type: 'prioritize', priority: 1 }, 'refused'],
  ['discard_original: done with the original kept', done, { type: 'discard_original' }, { original: 'removed' }],
  ['discard_original: removed already', { ...done, original: 'removed' }, { type: 'discard_original' }, 'refused'],
  ['discard_original: not transcoded', failed, { type: 'discard_original' }, 'refused'],
  ['discard_original: nothing recorded', unrecorded, { type: 'discard_original' }, 'refused'],
];

describe('nextEntry', () => {
  it.each(table)('%s', (_, before, event, expected) => {
    const t = nextEntry(P, before, event, NOW);
    if (expected === 'refused') {
      expect(t.ok).toBe(false);
      if (!t.ok) expect(t.refusal.message).toContain(P);
    } else if (expected === 'unchanged') {
      expect(t).toEqual({ ok: true, entry: before ?? null });
    } else if (expected === null) {
      expect(t).toEqual({ ok: true, entry: null });
    } else {
      expect(t.ok).toBe(true);
      if (t.ok) expect(t.entry).toEqual({ ...(before ?? queuedEntry(NOW)), updated_at: NOW, ...expected });
    }
  });

  it('covers every event type', () => {
    const types = new Set(table.map((r) => r[2].type));
    expect([...types].sort()).toEqual([
      'cancel',
      'claim',
      'discard_original',
      'fail',
      'finish',
      'original_removed',
      'prioritize',
      'retry',
      'settle',
      'start',
      'unclaim',
    ]);
  });

  it('refuses a running entry with a hint to cancel, and a failed one with its reason', () => {
    const r1 = nextEntry(P, running, { type: 'retry', job_id: 'tr-a', job_state: null }, NOW);
    const r2 = nextEntry(P, failed, { type: 'claim', job_id: 'x' }, NOW);
    expect(!r1.ok && r1.refusal).toMatchObject({ code: 'conflict', message: expect.stringMatching(/cancel its job/) });
    expect(!r2.ok && r2.refusal.message).toMatch(/boom/);
  });
});

describe('jobAttempt', () => {
  it.each<[string, TranscodeRecord | undefined, string, boolean, unknown]>([
    ['runs its claimed entry', waiting, 'tr-a', false, { kind: 'run', resumedOutput: null }],
    ['resumes its own running entry, naming the output it had planned', running, 'tr-a', false, { kind: 'run', resumedOutput: '/m/Movies/A/A.mp4' }],
    ['runs again after its failed attempt', failed, 'tr-a', false, { kind: 'run', resumedOutput: null }],
    [
      'runs again after an attempt that died, naming the output it had planned',
      { ...failed, output: '/m/Movies/A/A.mp4' },
      'tr-a',
      false,
      { kind: 'run', resumedOutput: '/m/Movies/A/A.mp4' },
    ],
    [
      'a retried entry’s new job takes up the output the last one planned',
      { ...waiting, output: '/m/Movies/A/A.mp4' },
      'tr-a',
      false,
      { kind: 'run', resumedOutput: '/m/Movies/A/A.mp4' },
    ],
    ['finished already: nothing is left to do, the original stays as recorded', done, 'tr-a', false, { kind: 'finished', output: '/m/Movies/A/A.mp4' }],
    ['waits while paused', waiting, 'tr-a', true, { kind: 'wait' }],
    ['a finished job is not held back by a pause', done, 'tr-a', true, { kind: 'finished', output: '/m/Movies/A/A.mp4' }],
    [
      'refuses an entry nobody claimed',
      unrecorded,
      'tr-a',
      false,
      { kind: 'refuse', refusal: { code: 'forbidden', message: expect.stringMatching(/did not claim/) } },
    ],
    ['refuses an entry claimed by no job', prioritized, 'tr-a', false, { kind: 'refuse', refusal: { code: 'forbidden', message: expect.any(String) } }],
    [
      'refuses one another job is transcoding',
      { ...running, job_id: 'tr-b' },
      'tr-a',
      false,
      { kind: 'refuse', refusal: { code: 'conflict', message: expect.stringMatching(/tr-b/) } },
    ],
    [
      'refuses one another job holds',
      { ...waiting, job_id: 'tr-b' },
      'tr-a',
      false,
      { kind: 'refuse', refusal: { code: 'forbidden', message: expect.stringMatching(/tr-b/) } },
    ],
  ])('%s', (_, entry, jobId, paused, expected) => {
    expect(jobAttempt(P, entry, jobId, paused)).toEqual(expected);
  });
});

describe('priorities', () => {
  it('top is above every other queued or failed entry, whatever runs or is done', () => {
    expect(topPriority({}, 'x')).toBe(1);
    expect(topPriority({ a: { ...prioritized, priority: 9 }, b: { ...failed, priority: 12 }, c: { ...running, priority: 50 } }, 'x')).toBe(13);
    expect(topPriority({ a: { ...prioritized, priority: 9 }, x: { ...prioritized, priority: 20 } }, 'x')).toBe(10);
    expect(topPriority({ a: { ...prioritized, priority: PRIORITY_LIMIT } }, 'a')).toBe(1);
  });

  it('has no top to give while another entry holds the highest priority', () => {
    expect(topPriority({ a: { ...prioritized, priority: PRIORITY_LIMIT } }, 'x')).toBeNull();
  });

  it('maps onto BullMQ’s range, higher first, within 1 to 2^21', () => {
    expect(bullPriority(PRIORITY_LIMIT)).toBe(1);
    expect(bullPriority(0)).toBeLessThan(bullPriority(-1));
    expect(bullPriority(1)).toBeLessThan(bullPriority(0));
    expect(bullPriority(-PRIORITY_LIMIT)).toBeLessThanOrEqual(2 ** 21);
    expect(bullPriority(-10 * PRIORITY_LIMIT)).toBe(bullPriority(-PRIORITY_LIMIT));
  });
});
