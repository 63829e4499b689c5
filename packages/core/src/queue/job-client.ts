import { Queue, type Job, type JobType } from 'bullmq';
import { Redis } from 'ioredis';
import {
  apiJobOptions,
  transcodeJobOptions,
  JOB_STATES,
  JOBS,
  QUEUE_NAMES,
  type ErrorCode,
  type JobName,
  type JobPayload,
  type JobState,
  type QueueName,
  type WorkersReport,
} from '@mo/shared';
import { AppError, readJobFailure } from '../errors.ts';
import type { Logger } from '../logging/logger.ts';
import { withDeadline } from './deadline.ts';
import { jobAbout } from './job-about.ts';
import { BULL_TYPES_OF_STATE, newestJobs, type JobListItem } from './job-list.ts';
import { contractState, isoOrNull, type JobView } from './job-view.ts';
import { passOutline } from '../scanner/pass-file.ts';
import { apiRedisOptions } from './redis-options.ts';
import { workersReport } from './worker-health.ts';
import { readWorkerRecords } from './worker-registry.ts';

/** CONTRACT.md: Redis trouble is answered within 2 s, never a hang. */
export const REDIS_DEADLINE_MS = 1500;

/**
 * How long a waiting request sleeps between two looks at its job, `waitedMs` into the wait: a
 * twentieth of the wait so far, from 20 to 250 ms, so the answer comes at most ~5 % after the job
 * ends (a fixed 250 ms step added 125 ms on average to a 1.5 s library scan) while a long wait
 * asks Redis a few times a second at most.
 */
export function settlePollMs(waitedMs: number): number {
  return Math.min(250, Math.max(20, Math.round(waitedMs / 20)));
}

export interface JobRef {
  id: string;
  queue: QueueName;
  state: JobState;
}

export type SubmitOutcome =
  | { kind: 'completed'; job: JobRef; result: unknown }
  /** `code`: the AppError code the handler failed with, when a retry would not have fixed it. */
  | { kind: 'failed'; job: JobRef; error: string; code: ErrorCode | null }
  | { kind: 'pending'; job: JobRef };

export interface QueueStats {
  queue: QueueName;
  counts: Record<'waiting' | 'active' | 'delayed' | 'completed' | 'failed', number>;
  /** Jobs finished since the queue's metrics began (BullMQ metrics, kept by the workers). */
  completed_total: number;
  failed_total: number;
}

export interface JobClient {
  /**
   * Adds a job (or joins the running one, for jobs that allow it) and waits up to `waitSeconds`.
   * Transcodes go through queueTranscodes: each needs the id its queue entry was claimed with.
   */
  submit<N extends Exclude<JobName, 'transcode-run'>>(name: N, payload: JobPayload<N>, opts: { waitSeconds: number }): Promise<SubmitOutcome>;
  /** Queues transcode jobs with the ids and priorities their entries were claimed with, in one round trip. */
  queueTranscodes(jobs: readonly { payload: JobPayload<'transcode-run'>; jobId: string; priority: number }[]): Promise<JobRef[]>;
  /** Gives a waiting job another priority (BullMQ's: lower runs first); false when it no longer waits. */
  reprioritize(queue: QueueName, id: string, priority: number): Promise<boolean>;
  /**
   * Removes each named job that has not started (waiting, or put back by a paused worker); one a
   * worker holds stays. Returns the ids removed.
   */
  removeWaiting(queue: QueueName, ids: readonly string[]): Promise<string[]>;
  /** BullMQ's own pause of a queue: workers take none of its jobs while paused. */
  setPaused(queue: QueueName, paused: boolean): Promise<void>;
  /** The progress each named job last reported; a job the queue no longer has is left out. */
  progressOf(queue: QueueName, ids: readonly string[]): Promise<Map<string, unknown>>;
  get(queue: QueueName, id: string): Promise<JobView | null>;
  /** The newest `limit` jobs of one queue or all, in one state or any, without their results. */
  list(filter: { queue?: QueueName; state?: JobState; limit: number }): Promise<JobListItem[]>;
  ping(): Promise<boolean>;
  /** Redis's INFO memory: what it uses, and its maxmemory (0: no limit). */
  memory(): Promise<{ used_bytes: number; max_bytes: number }>;
  stats(): Promise<QueueStats[]>;
  /** The workers' heartbeat records, and the live workers of each queue. */
  workers(): Promise<WorkersReport>;
  /** The BullMQ queues themselves, for the queue dashboard. */
  queues(): Queue[];
  close(): Promise<void>;
}

function unavailable(cause?: unknown): AppError {
  const reason = cause instanceof Error ? cause.message : 'timed out';
  return new AppError('unavailable', `the job queue cannot be reached (${reason})`);
}

function listItem(queue: QueueName, state: JobState, job: Job): JobListItem {
  const failure = job.failedReason ? readJobFailure(job.failedReason) : null;
  return {
    id: job.id!,
    queue,
    name: job.name,
    state,
    progress: job.progress,
    error: failure?.message ?? null,
    error_code: failure?.code ?? null,
    created_at: isoOrNull(job.timestamp),
    started_at: isoOrNull(job.processedOn),
    finished_at: isoOrNull(job.finishedOn),
    summary: job.name === 'scan-pass' && state === 'completed' ? passOutline(job.returnvalue) : null,
    about: jobAbout(job.name, job.data),
  };
}

/** The API's one Redis connection; ioredis repeats the same error on every reconnect attempt, so one line a minute. */
function redisClient(url: string, logger: Logger): Redis {
  const client = new Redis(apiRedisOptions(url));
  let lastErrorLog = 0;
  client.on('error', (err) => {
    if (Date.now() - lastErrorLog > 60_000) {
      lastErrorLog = Date.now();
      logger.warn({ err: err.message }, 'redis connection error');
    }
  });
  return client;
}

/** The BullMQ queues over that connection, each made on first use. */
function queueCache(client: Redis, prefix: string) {
  const queues = new Map<QueueName, Queue>();
  return {
    get(name: QueueName): Queue {
      let q = queues.get(name);
      if (!q) {
        q = new Queue(name, { connection: client, prefix });
        q.on('error', () => {});
        queues.set(name, q);
      }
      return q;
    },
    close: () => Promise.allSettled([...queues.values()].map((q) => q.close())),
  };
}

function ready(client: Redis): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  // Just started, or connected and about to be ready (`connect`: the socket is open, the
  // handshake not done): give it a moment, within the deadline. Reconnecting after a loss: answer now.
  if (client.status !== 'wait' && client.status !== 'connecting' && client.status !== 'connect') {
    return Promise.reject(unavailable(new Error(`redis is ${client.status}`)));
  }
  return new Promise((resolve) => client.once('ready', () => resolve()));
}

type Guarded = <T>(work: () => Promise<T>) => Promise<T>;

/** Runs Redis work once the connection is ready, within REDIS_DEADLINE_MS; any failure is `unavailable`. */
function guardedBy(client: Redis): Guarded {
  return async (work) => {
    try {
      return await withDeadline(ready(client).then(work), REDIS_DEADLINE_MS, () => unavailable());
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw unavailable(err);
    }
  };
}

/** What the client's operations share: its queues, and the deadline around each call to them. */
interface ClientContext {
  queue: (name: QueueName) => Queue;
  guarded: Guarded;
}

/**
 * Polls until the job finishes or the wait runs out. Polling rather than QueueEvents: a stream
 * reader that connects after the job has finished misses its event and would hold the request
 * for the whole wait, and a poll also rides out a Redis restart without any special handling.
 */
async function settle(guarded: Guarded, job: Job, ms: number): Promise<void> {
  const started = Date.now();
  const deadline = started + ms;
  while (Date.now() < deadline) {
    try {
      const state = await guarded(() => job.getState());
      if (state === 'completed' || state === 'failed' || state === 'unknown') return;
    } catch {
      // Redis went away mid-wait: keep trying until the deadline, then answer with the job.
    }
    const now = Date.now();
    await new Promise((r) => setTimeout(r, Math.min(settlePollMs(now - started), Math.max(0, deadline - now))));
  }
}

async function ref(job: Job, fallback: JobState = 'waiting'): Promise<JobRef> {
  const state = contractState(await job.getState()) ?? fallback;
  return { id: job.id!, queue: JOBS[job.name as JobName].queue, state };
}

async function submit<N extends Exclude<JobName, 'transcode-run'>>(
  { queue, guarded }: ClientContext,
  name: N,
  payload: JobPayload<N>,
  { waitSeconds }: { waitSeconds: number },
): Promise<SubmitOutcome> {
  const def = JOBS[name];
  const data = def.payload.parse(payload);
  const q = queue(def.queue);
  const job = await guarded(async () => {
    const added = await q.add(name, data, apiJobOptions(name, data));
    // A deduplicated add hands back the id of the job it joined; load that job's own record.
    return (await q.getJob(added.id!)) ?? added;
  });
  if (waitSeconds > 0) await settle(guarded, job, waitSeconds * 1000);
  const r = await guarded(() => ref(job));
  if (r.state !== 'completed' && r.state !== 'failed') return { kind: 'pending', job: r };
  // The record read at add time predates the finish; read the outcome now.
  const done = await guarded(async () => (await q.getJob(job.id!)) ?? job);
  if (r.state === 'completed') return { kind: 'completed', job: r, result: done.returnvalue };
  const failure = readJobFailure(done.failedReason || 'job failed');
  return { kind: 'failed', job: r, error: failure.message, code: failure.code };
}

async function queueTranscodes({ queue, guarded }: ClientContext, items: Parameters<JobClient['queueTranscodes']>[0]): Promise<JobRef[]> {
  if (items.length === 0) return [];
  const def = JOBS['transcode-run'];
  const bulk = items.map((i) => ({ name: 'transcode-run', data: def.payload.parse(i.payload), opts: transcodeJobOptions(i.jobId, i.priority) }));
  const added = await guarded(() => queue(def.queue).addBulk(bulk));
  return added.map((job) => ({ id: job.id!, queue: def.queue, state: 'waiting' as const }));
}

async function reprioritize(q: Queue, id: string, priority: number): Promise<boolean> {
  const job = await q.getJob(id);
  const state = job ? await job.getState() : null;
  // A delayed transcode is one a worker put back while paused: it keeps the priority it has
  // when it comes back.
  if (!job || (state !== 'waiting' && state !== 'prioritized' && state !== 'delayed')) return false;
  await job.changePriority({ priority });
  return true;
}

async function removeWaiting(q: Queue, ids: readonly string[]): Promise<string[]> {
  const removed = await Promise.all(
    ids.map(async (id) => {
      const job = await q.getJob(id);
      const state = job ? await job.getState() : null;
      if (state !== 'waiting' && state !== 'prioritized' && state !== 'delayed') return null;
      // BullMQ refuses (0) to remove a job a worker has locked: one that started since stays.
      return (await q.remove(id)) === 1 ? id : null;
    }),
  );
  return removed.filter((id) => id !== null);
}

async function progressOf(q: Queue, ids: readonly string[]): Promise<Map<string, unknown>> {
  const jobs = await Promise.all(ids.map((id) => q.getJob(id)));
  return new Map(jobs.flatMap((job) => (job ? [[job.id!, job.progress] as const] : [])));
}

async function jobView(q: Queue, name: QueueName, id: string): Promise<JobView | null> {
  // State first, then the record: read the other way round, a job finishing in between shows
  // as finished without its result or error.
  const state = contractState(await q.getJobState(id));
  if (!state) return null;
  const job = await q.getJob(id);
  if (!job) return null;
  const failure = job.failedReason ? readJobFailure(job.failedReason) : null;
  return {
    id: job.id!,
    queue: name,
    name: job.name,
    state,
    progress: job.progress,
    result: state === 'completed' ? (job.returnvalue ?? null) : null,
    error: failure?.message ?? null,
    error_code: failure?.code ?? null,
    created_at: isoOrNull(job.timestamp),
    finished_at: isoOrNull(job.finishedOn),
  };
}

async function listJobs(queue: (name: QueueName) => Queue, { queue: only, state, limit }: Parameters<JobClient['list']>[0]): Promise<JobListItem[]> {
  const queues = only ? [only] : QUEUE_NAMES;
  const states = state ? [state] : JOB_STATES;
  const reads = queues.flatMap((name) =>
    states.flatMap((s) =>
      BULL_TYPES_OF_STATE[s].map(async (type) => {
        const found = await queue(name).getJobs([type as JobType], 0, limit - 1);
        return found.map((job) => listItem(name, s, job));
      }),
    ),
  );
  return newestJobs((await Promise.all(reads)).flat(), limit);
}

async function queueStats(name: QueueName, q: Queue): Promise<QueueStats> {
  const [c, completed, failed] = await Promise.all([
    q.getJobCounts('waiting', 'prioritized', 'waiting-children', 'paused', 'active', 'delayed', 'completed', 'failed'),
    q.getMetrics('completed', 0, 0),
    q.getMetrics('failed', 0, 0),
  ]);
  return {
    queue: name,
    counts: {
      waiting: (c.waiting ?? 0) + (c.prioritized ?? 0) + (c['waiting-children'] ?? 0) + (c.paused ?? 0),
      active: c.active ?? 0,
      delayed: c.delayed ?? 0,
      completed: c.completed ?? 0,
      failed: c.failed ?? 0,
    },
    completed_total: completed.meta.count,
    failed_total: failed.meta.count,
  };
}

async function ping(guarded: Guarded, client: Redis): Promise<boolean> {
  try {
    return (await guarded(() => client.ping())) === 'PONG';
  } catch {
    return false;
  }
}

/** Redis's own memory figures from INFO: `maxmemory` 0 is no limit. */
function redisMemory(info: string): { used_bytes: number; max_bytes: number } {
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return { used_bytes: field('used_memory'), max_bytes: field('maxmemory') };
}

export function createJobClient(opts: { redisUrl: string; prefix: string; logger: Logger }): JobClient {
  const client = redisClient(opts.redisUrl, opts.logger);
  const queues = queueCache(client, opts.prefix);
  const ctx: ClientContext = { queue: queues.get, guarded: guardedBy(client) };
  const { queue, guarded } = ctx;
  return {
    submit: (name, payload, wait) => submit(ctx, name, payload, wait),
    queueTranscodes: (items) => queueTranscodes(ctx, items),
    reprioritize: (name, id, priority) => guarded(() => reprioritize(queue(name), id, priority)),
    removeWaiting: (name, ids) => guarded(() => removeWaiting(queue(name), ids)),
    async setPaused(name, paused) {
      await guarded(() => (paused ? queue(name).pause() : queue(name).resume()));
    },
    progressOf: (name, ids) => guarded(() => progressOf(queue(name), ids)),
    get: (name, id) => guarded(() => jobView(queue(name), name, id)),
    list: (filter) => guarded(() => listJobs(queue, filter)),
    ping: () => ping(guarded, client),
    memory: () => guarded(() => client.info('memory')).then(redisMemory),
    stats: () => guarded(() => Promise.all(QUEUE_NAMES.map((name) => queueStats(name, queue(name))))),
    workers: () => guarded(async () => workersReport(await readWorkerRecords(client, opts.prefix), Date.now())),
    queues: () => QUEUE_NAMES.map(queue),
    async close() {
      await queues.close();
      client.disconnect();
    },
  };
}
