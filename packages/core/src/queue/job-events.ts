import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { QUEUE_NAMES, type ActiveJob, type JobEvent, type JobProgress, type QueueName } from '@mo/shared';
import { readJobFailure } from '../errors.ts';
import type { Logger } from '../logging/logger.ts';
import { withDeadline } from './deadline.ts';
import { REDIS_DEADLINE_MS } from './job-client.ts';
import { apiRedisOptions, workerRedisOptions } from './redis-options.ts';

export type JobEventListener = (event: JobEvent) => void;

/**
 * Job starts, progress and ends of every queue, read from BullMQ's event streams: one QueueEvents
 * (a blocking Redis connection) per queue, open only while something listens, and shared by all
 * listeners.
 */
export interface JobEvents {
  /** The first listener opens the readers and the last one's unsubscribe closes them. */
  subscribe(listener: JobEventListener): () => void;
  /** Every active job with its progress; null when Redis does not answer in time. */
  active(): Promise<ActiveJob[] | null>;
  /** Open QueueEvents readers: one per queue while anything listens, else none. */
  readers(): number;
  listeners(): number;
  close(): Promise<void>;
}

/**
 * The readers start from a little before they were asked for, not from when their connection is
 * up: a job that ends between a client's snapshot and the first XREAD would otherwise never reach
 * it. Replaying a few seconds (also covering some clock skew with the Redis host) is harmless:
 * the events arrive in their order, so the last word on each job is still right.
 */
const REPLAY_MS = 5000;
/** Job names kept for the events that do not carry one; far more than are ever in flight. */
const NAME_CACHE = 10_000;

function progressOf(value: unknown): JobProgress {
  if (typeof value === 'number') return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  return 0;
}

/** One warning a minute at most: every reader repeats the same error on each reconnect attempt. */
function throttledErrorLog(logger: Logger): (err: Error, queue?: QueueName) => void {
  let lastErrorLog = 0;
  return (err, queue) => {
    if (Date.now() - lastErrorLog < 60_000) return;
    lastErrorLog = Date.now();
    logger.warn({ err: err.message, queue }, 'job event stream: redis error');
  };
}

/** Resolves once the client is connected; rejects at once when it will not connect on its own. */
function ready(client: Redis): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  if (client.status !== 'wait' && client.status !== 'connecting' && client.status !== 'connect') {
    return Promise.reject(new Error(`redis is ${client.status}`));
  }
  return new Promise((resolve) => client.once('ready', () => resolve()));
}

/** The names of jobs in flight, which most events do not carry: kept as `added` tells them, else read from the job. */
interface JobNames {
  remember(queue: QueueName, id: string, name: string): void;
  /** null when the job is gone or Redis does not answer in time. */
  nameOf(queue: QueueName, id: string): Promise<string | null>;
  forget(queue: QueueName, id: string): void;
  clear(): void;
}

function jobNames(client: Redis, queues: ReadonlyMap<QueueName, Queue>): JobNames {
  const names = new Map<string, string>();
  const keep = (key: string, name: string) => {
    names.delete(key);
    names.set(key, name);
    if (names.size > NAME_CACHE) names.delete(names.keys().next().value!);
  };
  return {
    remember: (queue, id, name) => keep(`${queue}:${id}`, name),
    async nameOf(queue, id) {
      const key = `${queue}:${id}`;
      const known = names.get(key);
      if (known !== undefined) return known;
      try {
        const name = await withDeadline(
          ready(client).then(() => client.hget(queues.get(queue)!.toKey(id), 'name')),
          REDIS_DEADLINE_MS,
          () => new Error('timed out'),
        );
        if (name !== null) keep(key, name);
        return name;
      } catch {
        return null;
      }
    },
    forget: (queue, id) => names.delete(`${queue}:${id}`),
    clear: () => names.clear(),
  };
}

interface ReaderOptions {
  redisUrl: string;
  prefix: string;
  /** The stream id to read from. */
  from: string;
  names: JobNames;
  logError(err: Error, queue?: QueueName): void;
  /** Whether the reader still serves the listeners: the events of one being closed are dropped. */
  live(reader: QueueEvents): boolean;
  emit(event: JobEvent): void;
}

/** One queue's reader, relaying its job events with their job's name. */
function openReader(queue: QueueName, o: ReaderOptions): QueueEvents {
  const events = new QueueEvents(queue, { connection: workerRedisOptions(o.redisUrl), prefix: o.prefix, lastEventId: o.from });
  events.on('error', (err) => o.logError(err, queue));
  // One chain per queue: a look-up for one event must not let the next overtake it.
  let chain = Promise.resolve();
  const relay = (id: string, build: (name: string | null) => JobEvent, end = false) => {
    chain = chain.then(async () => {
      const event = build(await o.names.nameOf(queue, id));
      if (end) o.names.forget(queue, id);
      if (o.live(events)) o.emit(event);
    });
  };
  events.on('added', ({ jobId, name }) => o.names.remember(queue, jobId, name));
  events.on('active', ({ jobId }) => relay(jobId, (name) => ({ queue, id: jobId, name, state: 'active' })));
  events.on('progress', ({ jobId, data }) => relay(jobId, (name) => ({ queue, id: jobId, name, state: 'progress', progress: progressOf(data) })));
  events.on('completed', ({ jobId }) => relay(jobId, (name) => ({ queue, id: jobId, name, state: 'completed' }), true));
  events.on('failed', ({ jobId, failedReason }) => {
    const failure = readJobFailure(failedReason || 'job failed');
    relay(jobId, (name) => ({ queue, id: jobId, name, state: 'failed', error: failure.message, error_code: failure.code }), true);
  });
  return events;
}

async function activeJobs(client: Redis, queues: ReadonlyMap<QueueName, Queue>): Promise<ActiveJob[] | null> {
  try {
    const perQueue = await withDeadline(
      ready(client).then(() => Promise.all(QUEUE_NAMES.map(async (queue) => ({ queue, jobs: await queues.get(queue)!.getActive() })))),
      REDIS_DEADLINE_MS,
      () => new Error('timed out'),
    );
    return perQueue.flatMap(({ queue, jobs }) =>
      jobs.map((job) => ({ queue, id: job.id!, name: job.name, state: 'active' as const, progress: progressOf(job.progress) })),
    );
  } catch {
    return null;
  }
}

function shut(which: QueueEvents[]): Promise<void> {
  return Promise.allSettled(which.map((e) => e.close())).then(() => {});
}

export function createJobEvents(opts: { redisUrl: string; prefix: string; logger: Logger }): JobEvents {
  // Name look-ups and the snapshot: short commands that must fail fast while Redis is away.
  const client = new Redis(apiRedisOptions(opts.redisUrl));
  const logError = throttledErrorLog(opts.logger);
  client.on('error', (err) => logError(err));
  const queues = new Map(
    QUEUE_NAMES.map((name) => {
      const q = new Queue(name, { connection: client, prefix: opts.prefix });
      q.on('error', () => {});
      return [name, q] as const;
    }),
  );
  const listeners = new Set<JobEventListener>();
  const names = jobNames(client, queues);
  let readers: QueueEvents[] = [];

  function emit(event: JobEvent) {
    for (const l of listeners) {
      try {
        l(event);
      } catch (err) {
        opts.logger.error({ err }, 'job event listener failed');
      }
    }
  }

  function open(): QueueEvents[] {
    const from = `${Date.now() - REPLAY_MS}-0`;
    const o: ReaderOptions = { redisUrl: opts.redisUrl, prefix: opts.prefix, from, names, logError, live: (r) => readers.includes(r), emit };
    return QUEUE_NAMES.map((queue) => openReader(queue, o));
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (readers.length === 0) readers = open();
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        listeners.delete(listener);
        if (listeners.size === 0) {
          void shut(readers);
          readers = [];
          names.clear();
        }
      };
    },
    active: () => activeJobs(client, queues),
    readers: () => readers.length,
    listeners: () => listeners.size,
    async close() {
      listeners.clear();
      await shut(readers);
      readers = [];
      await Promise.allSettled([...queues.values()].map((q) => q.close()));
      client.disconnect();
    },
  };
}
