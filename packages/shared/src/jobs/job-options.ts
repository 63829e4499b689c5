import { JOBS, RECYCLE_PURGE_SCHEDULER_ID, SCAN_SCHEDULER_ID, type JobDefaults, type JobName } from './catalogue.ts';

const DAY = 86_400;

/**
 * The most a job may ask BullMQ to keep of it once finished: a job queued under an older
 * catalogue (larger counts) still runs, a job that asks to be kept forever does not.
 */
export const KEEP_CEILING = { age: 30 * DAY, count: 1000 } as const;

export type ApiJobOptions = JobDefaults & { deduplication?: { id: string } };

/**
 * A transcode job's id is chosen by the API before it queues the job (its queue entry names the
 * job from the moment it is claimed), and its priority carries the entry's place in line.
 */
export const TRANSCODE_JOB_ID = /^tr-[0-9a-f]{16}$/;
/** BullMQ's priorities: 1 runs first; the transcode queue uses 1 to 2,000,001 (see transcode-entries.ts). */
export const TRANSCODE_PRIORITY_MAX = 2_000_001;

/**
 * Whether a request joins the job of its name already waiting or running: a preview or a pass of
 * chosen downloads never does (nor is joined), since the pass it would share does something else.
 */
export function joinsRunning(name: JobName, payload?: unknown): boolean {
  if (!JOBS[name].joinRunning) return false;
  const p = payload as { dry_run?: unknown; sources?: unknown } | undefined;
  return name !== 'scan-pass' || (p?.dry_run === undefined && p?.sources === undefined);
}

/** The options the API gives a job it adds (of this payload); the worker runs no job that asks for more. */
export function apiJobOptions(name: JobName, payload?: unknown): ApiJobOptions {
  const def = JOBS[name];
  return { ...def.defaults, ...(joinsRunning(name, payload) ? { deduplication: { id: name } } : {}) };
}

export function transcodeJobOptions(jobId: string, priority: number): ApiJobOptions & { jobId: string; priority: number } {
  return { ...apiJobOptions('transcode-run'), jobId, priority };
}

/** What a queued job says of itself: its name, its stored options and the scheduler that made it. */
export interface QueuedJob {
  name: string;
  opts: unknown;
  repeatJobKey?: string | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown, max: number) => Number.isInteger(v) && (v as number) > 0 && (v as number) <= max;

function sameJson(a: unknown, b: unknown): boolean {
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
  }
  return a === b;
}

function keepProblem(key: string, v: unknown): string | null {
  if (!isRecord(v) || Object.keys(v).sort().join() !== 'age,count') {
    return `${key} must be {age, count}`;
  }
  if (!isCount(v.age, KEEP_CEILING.age) || !isCount(v.count, KEEP_CEILING.count)) {
    return `${key} keeps more than ${KEEP_CEILING.count} jobs or ${KEEP_CEILING.age} s`;
  }
  return null;
}

/** The jobs the worker schedules itself, each by its one job scheduler. */
const SCHEDULERS: Partial<Record<JobName, string>> = { 'scan-pass': SCAN_SCHEDULER_ID, 'recycle-purge': RECYCLE_PURGE_SCHEDULER_ID };

/** The keys BullMQ's job scheduler adds to the jobs it makes, checked only on those. */
function scheduledProblem(scheduler: string, opts: Record<string, unknown>): string | null {
  const repeat = opts.repeat;
  if (!isRecord(repeat) || !Object.keys(repeat).every((k) => k === 'every' || k === 'count' || k === 'offset')) {
    return 'repeat must be the schedule’s {every, count}';
  }
  if (!Number.isInteger(repeat.every) || (repeat.every as number) <= 0) return 'repeat.every must be a whole number of ms';
  if (typeof opts.jobId !== 'string' || !new RegExp(`^repeat:${scheduler}:\\d+$`).test(opts.jobId)) return 'jobId is not one the schedule makes';
  for (const k of ['timestamp', 'delay'] as const) {
    if (opts[k] !== undefined && !(Number.isFinite(opts[k]) && (opts[k] as number) >= 0)) return `${k} must be a number of ms`;
  }
  return null;
}

/**
 * Why a queued job's options are not ones this service gives (null when they are). Only the API
 * adds jobs, with apiJobOptions, and the worker's schedules, with the same plus BullMQ's
 * scheduler keys; anything else (a repeat, a delay, a priority, a custom id, a job kept forever)
 * came from somewhere else and is refused before it runs.
 */
export function jobOptionsProblem(name: JobName, job: QueuedJob): string | null {
  if (!isRecord(job.opts)) return 'job options must be an object';
  const opts = job.opts;
  const expected = apiJobOptions(name);
  const scheduled = job.repeatJobKey != null || opts.repeat !== undefined;
  if (scheduled) {
    const scheduler = SCHEDULERS[name];
    if (!scheduler || job.repeatJobKey !== scheduler) return 'repeat: only the periodic scanner pass repeats, and the daily recycle bin purge';
    const problem = scheduledProblem(scheduler, opts);
    if (problem) return problem;
  }
  const allowed = new Set<string>(['attempts', 'backoff', 'removeOnComplete', 'removeOnFail']);
  if (expected.deduplication && !scheduled) allowed.add('deduplication');
  if (name === 'transcode-run') allowed.add('jobId').add('priority');
  if (scheduled) for (const k of ['repeat', 'jobId', 'timestamp', 'delay']) allowed.add(k);
  const unknown = Object.keys(opts).filter((k) => !allowed.has(k));
  if (unknown.length > 0) return `${unknown.sort().join(', ')}: not an option this service sets`;
  if (opts.attempts !== expected.attempts) return `attempts must be ${expected.attempts}`;
  if (!sameJson(opts.backoff, expected.backoff)) return `backoff must be ${JSON.stringify(expected.backoff)}`;
  for (const key of ['removeOnComplete', 'removeOnFail'] as const) {
    const problem = keepProblem(key, opts[key]);
    if (problem) return problem;
  }
  if (opts.deduplication !== undefined && !sameJson(opts.deduplication, expected.deduplication)) {
    return `deduplication must be ${JSON.stringify(expected.deduplication)}`;
  }
  if (name === 'transcode-run') {
    if (typeof opts.jobId !== 'string' || !TRANSCODE_JOB_ID.test(opts.jobId)) return 'jobId is not one the API gives a transcode';
    if (!Number.isInteger(opts.priority) || (opts.priority as number) < 1 || (opts.priority as number) > TRANSCODE_PRIORITY_MAX) {
      return `priority must be a whole number from 1 to ${TRANSCODE_PRIORITY_MAX}`;
    }
  }
  return null;
}
