import type { MediaSnapshot, TranscodeStatus } from '@mo/shared';
import { CANCELLED } from '../queue/job-cancel.ts';

/**
 * The life of a transcode queue entry, stated once. The API and the worker only ask for these
 * transitions (through transcode-store.ts); nothing else writes `state.transcodes`.
 *
 *   (no record) = queued ──claim──▶ queued + job ──start──▶ running ──finish──▶ done
 *        ▲  ▲                          │   │                  │  │                 │
 *        │  └─────unclaim/settle───────┘   └────cancel─────┐  │  └─fail/cancel/    └─discard_original
 *        │                                                 ▼  ▼    settle
 *        └──────────────────retry───────────────────────── failed ◀─┘
 *
 * A job may start again after it failed or its worker died (BullMQ's retry of the same job id);
 * every other event must come from the job the entry holds, so a late word from an attempt that
 * was given up on never overwrites what a newer job did.
 */
export type TranscodeRecord = TranscodeStatus;

export type EntryEvent =
  /** run-next or run-all: a job with this id is about to be queued for the entry. */
  | { type: 'claim'; job_id: string }
  /** The job could not be queued after all. */
  | { type: 'unclaim'; job_id: string }
  | { type: 'start'; job_id: string; output: string }
  /** The MP4 is verified and in place; the original still lies beside it. */
  | { type: 'finish'; job_id: string; output: string; before: MediaSnapshot; after: MediaSnapshot; seconds: number }
  /** Its job removed the original after finishing (`keep_original` off); `recycled_to`: where in the recycle bin, when known. */
  | { type: 'original_removed'; job_id: string; recycled_to?: string | null }
  | { type: 'fail'; job_id: string; error: string }
  | { type: 'cancel'; job_id: string }
  /** Its job ended where no handler saw it (a dead worker), or vanished. */
  | { type: 'settle'; job_id: string; error: string }
  /** `job_state`: what the queue says of job `job_id` (the failed entry's, when read) now; null when it has no such job. */
  | { type: 'retry'; job_id: string | null; job_state: string | null }
  | { type: 'prioritize'; priority: number }
  | { type: 'discard_original'; recycled_to?: string | null };

export interface Refusal {
  code: 'conflict' | 'forbidden';
  message: string;
}

/** `entry: null`: no record is needed (queued, no job, priority 0, no output planned). */
export type Transition = { ok: true; entry: TranscodeRecord | null } | { ok: false; refusal: Refusal };

/** Priorities run from -LIMIT to LIMIT, so that each maps onto BullMQ's 1 to 2^21 (lower first). */
export const PRIORITY_LIMIT = 1_000_000;

export function bullPriority(priority: number): number {
  return PRIORITY_LIMIT + 1 - Math.max(-PRIORITY_LIMIT, Math.min(PRIORITY_LIMIT, priority));
}

export function queuedEntry(updatedAt: string): TranscodeRecord {
  return {
    status: 'queued',
    job_id: null,
    updated_at: updatedAt,
    output: null,
    error: null,
    priority: 0,
    before: null,
    after: null,
    seconds: null,
    original: null,
    original_recycled_to: null,
  };
}

function keep(entry: TranscodeRecord): TranscodeRecord | null {
  return entry.status === 'queued' && entry.job_id === null && entry.priority === 0 && entry.output === null ? null : entry;
}

const ok = (entry: TranscodeRecord | null): Transition => ({ ok: true, entry });
const refuse = (code: Refusal['code'], message: string): Transition => ({ ok: false, refusal: { code, message } });

function busy(path: string, e: TranscodeRecord): Transition {
  switch (e.status) {
    case 'running':
      return refuse('conflict', `${path} is being transcoded by job transcode/${e.job_id}; cancel its job first`);
    case 'done':
      return refuse('conflict', `${path} has been transcoded already`);
    case 'failed':
      return refuse('conflict', `${path} failed (${e.error ?? 'no reason'}); retry it first`);
    case 'queued':
      return refuse('conflict', `${path} already waits in job transcode/${e.job_id}`);
  }
}

function stale(path: string, e: TranscodeRecord, jobId: string): Transition {
  return refuse('conflict', `${path} belongs to ${e.job_id === null ? 'no job' : `job transcode/${e.job_id}`} (${e.status}), not to job transcode/${jobId}`);
}

/** The entry after `event`, or why the event may not happen to it now. */
export function nextEntry(path: string, current: TranscodeRecord | undefined, event: EntryEvent, now: string): Transition {
  const e = current ?? queuedEntry(now);
  const at = { updated_at: now };
  switch (event.type) {
    case 'claim':
      if (e.status !== 'queued' || e.job_id !== null) return busy(path, e);
      return ok({ ...e, ...at, job_id: event.job_id });
    case 'unclaim':
      if (e.status !== 'queued' || e.job_id !== event.job_id) return ok(current ?? null);
      return ok(keep({ ...e, ...at, job_id: null }));
    case 'start':
      if (e.job_id !== event.job_id) return stale(path, e, event.job_id);
      if (e.status === 'done') return busy(path, e);
      return ok({ ...e, ...at, status: 'running', output: event.output, error: null });
    case 'finish':
      if (e.job_id !== event.job_id || e.status !== 'running') return stale(path, e, event.job_id);
      // `kept` until the original is really gone: a job killed in between leaves the truth behind.
      return ok({
        ...e,
        ...at,
        status: 'done',
        output: event.output,
        error: null,
        before: event.before,
        after: event.after,
        seconds: event.seconds,
        original: 'kept',
        original_recycled_to: null,
      });
    case 'original_removed':
      if (e.job_id !== event.job_id || e.status !== 'done') return stale(path, e, event.job_id);
      return ok({ ...e, ...at, original: 'removed', original_recycled_to: event.recycled_to ?? null });
    // A failed entry keeps the output its job planned: that job may have placed a verified MP4
    // before it died, and the next job for the entry takes it up instead of refusing to overwrite it.
    case 'fail':
      if (e.job_id !== event.job_id || e.status === 'done') return stale(path, e, event.job_id);
      return ok({ ...e, ...at, status: 'failed', error: event.error });
    case 'cancel':
      if (e.job_id !== event.job_id || (e.status !== 'queued' && e.status !== 'running')) return ok(current ?? null);
      return ok({ ...e, ...at, status: 'failed', error: CANCELLED });
    case 'settle':
      if (e.job_id !== event.job_id) return ok(current ?? null);
      // A job lost before it started did nothing to the file: the entry simply waits again.
      if (e.status === 'queued') return ok(keep({ ...e, ...at, job_id: null }));
      if (e.status !== 'running') return ok(current ?? null);
      return ok({ ...e, ...at, status: 'failed', error: event.error });
    case 'retry':
      if (e.status === 'queued') return ok(current ?? null);
      if (e.status !== 'failed') return busy(path, e);
      // Another job took the entry over and failed while its first job was looked up.
      if (e.job_id !== event.job_id) return refuse('conflict', `${path} failed again in job transcode/${e.job_id} while it was checked; retry it again`);
      // A failed attempt is recorded before BullMQ decides on another, and a cancelled job is
      // marked failed while ffmpeg stops: only once the job has ended may another take the file.
      if (event.job_state !== null && event.job_state !== 'completed' && event.job_state !== 'failed') {
        return refuse('conflict', `${path}: its job transcode/${e.job_id} is still ${event.job_state}; the queue may run it again`);
      }
      return ok(keep({ ...e, ...at, status: 'queued', job_id: null, error: null }));
    case 'prioritize':
      if (e.status === 'running' || e.status === 'done') return busy(path, e);
      return ok(keep({ ...e, ...at, priority: Math.max(-PRIORITY_LIMIT, Math.min(PRIORITY_LIMIT, event.priority)) }));
    case 'discard_original':
      if (e.status !== 'done') return refuse('conflict', `${path} has not been transcoded; its original is the only copy`);
      if (e.original !== 'kept') return refuse('conflict', `${path}: no original is kept beside ${e.output}`);
      return ok({ ...e, ...at, original: 'removed', original_recycled_to: event.recycled_to ?? null });
  }
}

/**
 * A priority above every other entry's, for moving `path` to the top; null when another entry
 * holds the highest priority already (a tie would leave `path` behind it in path order).
 */
export function topPriority(records: Readonly<Record<string, TranscodeRecord>>, path: string): number | null {
  let top = 0;
  for (const [p, e] of Object.entries(records)) if (p !== path && (e.status === 'queued' || e.status === 'failed')) top = Math.max(top, e.priority);
  return top >= PRIORITY_LIMIT ? null : top + 1;
}

export type Attempt =
  | { kind: 'run'; resumedOutput: string | null }
  /**
   * Delivered again after it finished (its worker died before telling the queue). An original
   * still recorded `kept` stays: whether to remove it was the dead attempt's decision, under the
   * `keep_original` of its time, and discard-original is there for it.
   */
  | { kind: 'finished'; output: string }
  | { kind: 'wait' }
  | { kind: 'refuse'; refusal: Refusal };

/**
 * What an attempt of job `jobId` may do with the entry it names. Only run-next and run-all queue
 * transcodes, and each claims its entry with the job's id first: a job for an entry that holds
 * another job (or none) did not come from them.
 */
export function jobAttempt(path: string, entry: TranscodeRecord | undefined, jobId: string, paused: boolean): Attempt {
  if (!entry || entry.job_id === null)
    return { kind: 'refuse', refusal: { code: 'forbidden', message: `${path}: run-next did not claim it from the transcoder queue; nothing was done` } };
  if (entry.job_id !== jobId) {
    if (entry.status === 'running')
      return { kind: 'refuse', refusal: { code: 'conflict', message: `${path} is being transcoded by job transcode/${entry.job_id}` } };
    return { kind: 'refuse', refusal: { code: 'forbidden', message: `${path}: its transcode belongs to job transcode/${entry.job_id}; nothing was done` } };
  }
  if (entry.status === 'done' && entry.output !== null) return { kind: 'finished', output: entry.output };
  if (paused) return { kind: 'wait' };
  return { kind: 'run', resumedOutput: entry.output };
}
