import { DelayedError, Job, MetricsTime, Queue, QueueEvents, UnrecoverableError, WaitingError, Worker, type RedisClient } from 'bullmq';
import { JOBS, jobOptionsProblem, jobsOfQueue, SCAN_SCHEDULER_ID, type JobName, type JobPayload, type JobResult, type QueueName } from '@mo/shared';
import { AppError, jobFailureReason, keyIssues } from '../errors.ts';
import type { Logger } from '../logging/logger.ts';
import { workerRedisOptions } from './redis-options.ts';
import { CANCELLED, isCancelRequested, listenForCancels } from './job-cancel.ts';
import type { JobOutcome } from './job-view.ts';

export interface JobContext {
  jobId: string;
  attempt: number;
  /**
   * Aborted when the job is cancelled (reason CANCELLED) or the worker shuts down (SHUTTING_DOWN:
   * the job goes back to the queue for the next worker, so record nothing as failed); pass it to
   * child processes.
   */
  signal: AbortSignal;
  progress(value: number | object): Promise<void>;
  /** The progress the job's earlier attempts left (0 before any), so that a retry can skip work already done. */
  progressSoFar?: unknown;
  /** Puts the job back to wait `ms` without counting an attempt (the transcode queue's pause). */
  defer(ms: number): Promise<never>;
  log: Logger;
}

export type JobHandler<N extends JobName> = (payload: JobPayload<N>, ctx: JobContext) => Promise<JobResult<N>>;
export type JobHandlers = { [N in JobName]?: JobHandler<N> };
/**
 * Called once a job has failed for good, also when its handler never saw the failure (BullMQ
 * failing a job that stalled too often after its worker died). Must be idempotent: every worker
 * process with a hook hears each failure, and one that starts hears the last minute's again.
 */
export type FailureHooks = { [N in JobName]?: (payload: JobPayload<N>, jobId: string, reason: string) => Promise<void> };

const FAILURE_REPLAY_MS = 60_000;

/** How one run of a job on this box ended. */
export type JobEnd = 'completed' | 'failed' | 'cancelled' | 'deferred' | 'handed_back';
export const JOB_ENDS: readonly JobEnd[] = ['completed', 'failed', 'cancelled', 'deferred', 'handed_back'];

/** Told of every job this box runs (the worker's own metrics). */
export interface JobObserver {
  /**
   * A job began on `queue`; `job` is its name, or `unknown` for a name no job has (a job some
   * other client added, refused). The function returned is called once, as the run ends.
   */
  started(queue: QueueName, job: JobName | 'unknown'): (end: JobEnd) => void;
}

function jobEnd(err: unknown, signal: AbortSignal | undefined): JobEnd {
  if (err instanceof DelayedError) return 'deferred';
  if (err instanceof WaitingError) return 'handed_back';
  if (signal?.aborted && signal.reason === CANCELLED) return 'cancelled';
  if (err instanceof UnrecoverableError && err.message === CANCELLED) return 'cancelled';
  return 'failed';
}

type Processor = (job: Job, token?: string, signal?: AbortSignal) => Promise<unknown>;

/** The processor, telling the observer of each run and how it ended. */
function observe(observer: JobObserver | undefined, queue: QueueName, run: Processor): Processor {
  if (!observer) return run;
  return async (job, token, signal) => {
    const ended = observer.started(queue, Object.hasOwn(JOBS, job.name) ? (job.name as JobName) : 'unknown');
    try {
      const result = await run(job, token, signal);
      ended('completed');
      return result;
    } catch (err) {
      ended(jobEnd(err, signal));
      throw err;
    }
  };
}

/** The abort reason of a job whose worker is shutting down: it is handed back, not failed. */
export const SHUTTING_DOWN = 'the worker is shutting down';

export function isShuttingDown(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason === SHUTTING_DOWN;
}

export interface WorkerHost {
  readonly queues: readonly QueueName[];
  /** Jobs run at a time on each of its queues. */
  readonly concurrency: Readonly<Partial<Record<QueueName, number>>>;
  /** What one of its queues says of each job: null for a job it no longer has. Throws when Redis cannot be read. */
  jobOutcomes(queue: QueueName, ids: readonly string[]): Promise<Map<string, JobOutcome | null>>;
  /** Stops or starts taking jobs of one queue on this box; running jobs go on either way. */
  setPaused(queue: QueueName, paused: boolean): void;
  /**
   * Stops taking jobs and aborts the active ones, which go back to wait, without counting an
   * attempt, for the next worker (or this one's next start) to run again: a transcode of an hour
   * must not hold a shutdown. Resolves once each handler has returned.
   */
  close(): Promise<void>;
}

const OUTCOME_BATCH = 500;

/** Every consumed queue's jobs need a handler: a gap fails here, at start, not on the first job. */
export function checkHandlers(queues: readonly QueueName[], handlers: JobHandlers): void {
  const missing = queues.flatMap((q) => jobsOfQueue(q)).filter((n) => typeof handlers[n] !== 'function');
  if (missing.length > 0) throw new Error(`no handler for job(s): ${missing.join(', ')}`);
}

export interface WorkerHostOptions {
  redisUrl: string;
  prefix: string;
  queues: readonly QueueName[];
  handlers: JobHandlers;
  logger: Logger;
  concurrency?: Partial<Record<QueueName, number>>;
  onFailed?: FailureHooks;
  observer?: JobObserver;
}

/** What refusing a job needs: a queue to remove its schedule from, and the ids to remove once failed. */
interface Refusals {
  /** For removing what a refused job leaves behind: its schedule and the job itself. */
  admin: ReadonlyMap<QueueName, Queue>;
  /** Jobs refused for options nobody here gave them: removed once failed, whatever they asked BullMQ to keep. */
  toRemove: Set<string>;
  logger: Logger;
}

async function refuse(r: Refusals, queue: QueueName, job: Job, why: string): Promise<never> {
  r.toRemove.add(job.id!);
  if (job.repeatJobKey && job.repeatJobKey !== SCAN_SCHEDULER_ID) {
    // Failing to remove it must not turn the refusal into a retry; the next start removes it.
    await r.admin
      .get(queue)!
      .removeJobScheduler(job.repeatJobKey)
      .catch((e: Error) => r.logger.error({ queue, err: e.message }, 'could not remove a job schedule'));
  }
  r.logger.warn({ queue, job_id: job.id, job_name: job.name, reason: why }, 'job refused and removed');
  throw new UnrecoverableError(jobFailureReason(new AppError('forbidden', `job ${queue}/${job.id} refused, nothing was done: ${why}`)));
}

/** The job's definition and checked payload: a job no client of ours could have added is refused, a bad payload fails for good. */
async function admit(r: Refusals, queue: QueueName, job: Job) {
  const name = job.name as JobName;
  const def = Object.hasOwn(JOBS, name) ? JOBS[name] : undefined;
  if (!def || def.queue !== queue) return refuse(r, queue, job, `no job named ${JSON.stringify(job.name)} runs on the ${queue} queue`);
  const problem = jobOptionsProblem(name, { name, opts: job.opts, repeatJobKey: job.repeatJobKey });
  if (problem) return refuse(r, queue, job, problem);
  const payload = def.payload.safeParse(job.data);
  if (!payload.success) {
    const first = keyIssues(payload.error)[0]!;
    throw new UnrecoverableError(jobFailureReason(new AppError('bad_request', `bad payload for ${name}: ${first.path}: ${first.message}; nothing was done`)));
  }
  return { name, def, payload: payload.data };
}

function jobContext(job: Job, token: string | undefined, signal: AbortSignal | undefined, log: Logger): JobContext {
  return {
    jobId: job.id!,
    attempt: job.attemptsMade + 1,
    signal: signal ?? new AbortController().signal,
    progress: (v) => job.updateProgress(v),
    progressSoFar: job.progress,
    defer: async (ms) => {
      await job.moveToDelayed(Date.now() + ms, token);
      throw new DelayedError();
    },
    log,
  };
}

/** The handler's result; how an aborted run ends is the abort's to say, whatever the handler threw. */
async function runHandler(run: () => Promise<unknown>, job: Job, token: string | undefined, signal: AbortSignal | undefined, log: Logger): Promise<unknown> {
  try {
    return await run();
  } catch (err) {
    // A cancelled job is not retried, whatever the handler threw on its way out.
    if (signal?.aborted && signal.reason === CANCELLED) throw new UnrecoverableError(CANCELLED);
    if (signal && isShuttingDown(signal)) {
      await job.moveToWait(token);
      log.info('job handed back: the worker is shutting down');
      throw new WaitingError();
    }
    throw err;
  }
}

/** Runs each job of one queue: admitted, not cancelled while it waited, its handler's result checked. */
function processorOf(opts: WorkerHostOptions, r: Refusals, queue: QueueName, client: () => Promise<RedisClient>): Processor {
  return async (job, token, signal) => {
    const { name, def, payload } = await admit(r, queue, job);
    const log = opts.logger.child({ queue, job_id: job.id, job_name: name });
    // Cancelled while it waited (or between attempts): it ends here, before any work.
    if (await isCancelRequested(await client(), opts.prefix, { queue, id: job.id! })) throw new UnrecoverableError(CANCELLED);
    const handler = opts.handlers[name] as JobHandler<typeof name>;
    log.info({ attempt: job.attemptsMade + 1 }, 'job started');
    const result = await runHandler(() => handler(payload as never, jobContext(job, token, signal, log)), job, token, signal, log);
    const checked = def.result.safeParse(result);
    if (!checked.success) throw new UnrecoverableError(`handler of ${name} returned a bad result: ${checked.error.message}`);
    log.info('job completed');
    return checked.data;
  };
}

function startWorker(opts: WorkerHostOptions, r: Refusals, queue: QueueName, concurrency: number | undefined): Worker {
  const worker: Worker = new Worker(
    queue,
    observe(
      opts.observer,
      queue,
      processorOf(opts, r, queue, () => worker.client),
    ),
    {
      connection: workerRedisOptions(opts.redisUrl),
      prefix: opts.prefix,
      concurrency,
      // BullMQ's own per-minute outcome counts: /api/metrics reads the totals from them.
      metrics: { maxDataPoints: MetricsTime.ONE_WEEK * 2 },
    },
  );
  worker.on('error', (err) => opts.logger.error({ err: err.message, queue }, 'worker error'));
  worker.on('failed', (job, err) => {
    opts.logger.warn({ queue, job_id: job?.id, err: err.message, attempts: job?.attemptsMade }, 'job failed');
    if (job?.id && r.toRemove.delete(job.id)) {
      job.remove().catch((e: Error) => opts.logger.error({ queue, job_id: job.id, err: e.message }, 'could not remove a refused job'));
    }
  });
  return worker;
}

/**
 * The reader of a queue's failures for its failure hooks; null where its jobs have none. From the
 * queue's event stream rather than the Worker's own 'failed' event: that one is only emitted by the
 * worker that ran the handler, and not at all for a job BullMQ fails for stalling too often, whose
 * worker is dead. Every process with a hook hears every failure. The stream is read from a minute
 * back: the stalled check a worker runs as it starts may fail a job before this reader is listening
 * (and the clocks of two boxes may differ).
 */
function failureReader(opts: WorkerHostOptions, worker: Worker): QueueEvents | null {
  const queue = worker.name as QueueName;
  const hooked = jobsOfQueue(queue).some((n) => opts.onFailed?.[n]);
  if (!hooked) return null;
  const events = new QueueEvents(queue, {
    connection: workerRedisOptions(opts.redisUrl),
    prefix: opts.prefix,
    lastEventId: `${Date.now() - FAILURE_REPLAY_MS}-0`,
  });
  events.on('error', (err) => opts.logger.error({ err: err.message, queue }, 'queue events error'));
  events.on('failed', ({ jobId, failedReason }) => {
    void (async () => {
      const job = await Job.fromId(worker, jobId);
      const hook = job && opts.onFailed?.[job.name as JobName];
      // A failure that will be retried is not the end of the job.
      if (!job || !hook || (await job.getState()) !== 'failed') return;
      await (hook as (p: unknown, id: string, r: string) => Promise<void>)(job.data, jobId, failedReason);
    })().catch((e: Error) => opts.logger.error({ queue, job_id: jobId, err: e.message }, 'failure hook failed'));
  });
  return events;
}

/** What one of the worker's queues says of each job: null for a job it no longer has. */
async function jobOutcomes(worker: Worker, ids: readonly string[]): Promise<Map<string, JobOutcome | null>> {
  const out = new Map<string, JobOutcome | null>();
  // Tens of thousands of ids after a run-all: asked in batches, which the connection pipelines,
  // instead of two round trips each in turn.
  for (let at = 0; at < ids.length; at += OUTCOME_BATCH) {
    const batch = ids.slice(at, at + OUTCOME_BATCH);
    const found = await Promise.all(
      batch.map(async (id) => {
        const job = await Job.fromId(worker, id);
        return job ? { state: await job.getState(), reason: job.failedReason || null } : null;
      }),
    );
    batch.forEach((id, i) => out.set(id, found[i]!));
  }
  return out;
}

/**
 * Schedules the worker did not make (added with repeat options through some other door) go at
 * start, before their next job is due.
 */
function removeForeignSchedulesAtStart(admin: ReadonlyMap<QueueName, Queue>, logger: Logger): void {
  for (const [queue, q] of admin) {
    void removeForeignSchedulers(q).then(
      (removed) => removed.length > 0 && logger.warn({ queue, removed }, 'removed job schedules this service did not make'),
      (err: Error) => logger.warn({ queue, err: err.message }, 'could not check the job schedules'),
    );
  }
}

export function createWorkerHost(opts: WorkerHostOptions): WorkerHost {
  checkHandlers(opts.queues, opts.handlers);
  const concurrency = Object.fromEntries(opts.queues.map((q) => [q, opts.concurrency?.[q] ?? 1])) as Partial<Record<QueueName, number>>;
  const admin = new Map(opts.queues.map((q) => [q, new Queue(q, { connection: workerRedisOptions(opts.redisUrl), prefix: opts.prefix })]));
  for (const q of admin.values()) q.on('error', (err) => opts.logger.error({ err: err.message, queue: q.name }, 'queue error'));
  const refusals: Refusals = { admin, toRemove: new Set(), logger: opts.logger };
  const byQueue = new Map<QueueName, Worker>();
  const workers = opts.queues.map((queue) => {
    const worker = startWorker(opts, refusals, queue, concurrency[queue]);
    byQueue.set(queue, worker);
    return worker;
  });
  const failureEvents = workers.flatMap((worker) => failureReader(opts, worker) ?? []);
  // Whichever process runs the job hears this; the others find no such job and ignore it.
  const cancels = listenForCancels({
    redisUrl: opts.redisUrl,
    prefix: opts.prefix,
    logger: opts.logger,
    onCancel: ({ queue, id }) => {
      if (byQueue.get(queue)?.cancelJob(id, CANCELLED)) opts.logger.info({ queue, job_id: id }, 'job cancelled');
    },
  });
  removeForeignSchedulesAtStart(admin, opts.logger);
  return {
    queues: opts.queues,
    concurrency,
    async jobOutcomes(queue, ids) {
      const worker = byQueue.get(queue);
      if (!worker) throw new Error(`this worker does not consume the ${queue} queue`);
      return jobOutcomes(worker, ids);
    },
    setPaused(queue, paused) {
      const worker = byQueue.get(queue);
      if (!worker || worker.isPaused() === paused) return;
      if (paused) void worker.pause(true);
      else worker.resume();
    },
    async close() {
      // Closing first, so that no job is taken between the abort and the close.
      await Promise.all(
        workers.map((w) => {
          const closing = w.close();
          w.cancelAllJobs(SHUTTING_DOWN);
          return closing;
        }),
      );
      await Promise.all(failureEvents.map((e) => e.close()));
      await Promise.all([...admin.values()].map((q) => q.close()));
      await cancels.close();
    },
  };
}

/** Every job scheduler of the queue but the periodic scanner pass's; returns the ids removed. */
export async function removeForeignSchedulers(queue: Queue): Promise<string[]> {
  const foreign = (await queue.getJobSchedulers(0, -1)).filter((s) => !(queue.name === JOBS['scan-pass'].queue && s.key === SCAN_SCHEDULER_ID));
  for (const s of foreign) await queue.removeJobScheduler(s.key);
  return foreign.map((s) => s.key);
}

export function parseWorkerQueues(value: string | undefined, all: readonly QueueName[]): QueueName[] {
  if (value === undefined || value.trim() === '') return [...all];
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) throw new Error(`WORKER_QUEUES names no queue: "${value}"; known: ${all.join(', ')}`);
  const unknown = names.filter((n) => !(all as readonly string[]).includes(n));
  if (unknown.length > 0) throw new Error(`WORKER_QUEUES names unknown queue(s): ${unknown.join(', ')}; known: ${all.join(', ')}`);
  return [...new Set(names)] as QueueName[];
}

/**
 * Queues whose jobs must run one at a time: two scanner passes or two library scans would fight,
 * and two track edits of one file would each replace it with a copy lacking the other's change.
 */
const SERIAL_QUEUES: readonly QueueName[] = ['scan', 'library', 'media'];
export const MAX_CONCURRENCY = 32;

/**
 * `WORKER_CONCURRENCY`: how many jobs of each queue this box runs at a time, as `queue=n` pairs
 * (`transcode=2,notify=4`); a queue left out runs one at a time.
 */
export function parseWorkerConcurrency(value: string | undefined, all: readonly QueueName[]): Partial<Record<QueueName, number>> {
  const out: Partial<Record<QueueName, number>> = {};
  if (value === undefined || value.trim() === '') return out;
  for (const pair of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([a-z]+)\s*=\s*(\d{1,3})$/.exec(pair);
    if (!m) throw new Error(`WORKER_CONCURRENCY takes queue=number pairs such as transcode=2, got "${pair}"`);
    const [, queue, n] = m as unknown as [string, string, string];
    if (!(all as readonly string[]).includes(queue)) throw new Error(`WORKER_CONCURRENCY names an unknown queue: ${queue}; known: ${all.join(', ')}`);
    const count = Number(n);
    if (count < 1 || count > MAX_CONCURRENCY) throw new Error(`WORKER_CONCURRENCY for ${queue} must be 1 to ${MAX_CONCURRENCY}, got ${n}`);
    if (count > 1 && SERIAL_QUEUES.includes(queue as QueueName)) throw new Error(`WORKER_CONCURRENCY: the ${queue} queue runs one job at a time`);
    if (Object.hasOwn(out, queue)) throw new Error(`WORKER_CONCURRENCY names ${queue} twice`);
    out[queue as QueueName] = count;
  }
  return out;
}
