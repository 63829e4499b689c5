import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import type { QueueName, WorkerRecord } from '@mo/shared';
import type { Logger } from '../logging/logger.ts';
import type { EncoderReport } from '../media/encoder-check.ts';
import { withDeadline } from './deadline.ts';
import { workerRedisOptions } from './redis-options.ts';
import { HEARTBEAT_MS, WORKER_RECORD_TTL_MS } from './worker-health.ts';
import { deleteWorkerRecord, saveWorkerRecord } from './worker-registry.ts';

/** A stopping worker does not wait longer than this for Redis to take its record away. */
const CLOSE_DEADLINE_MS = 2000;

export interface WorkerHeartbeat {
  readonly id: string;
  /** Records what the encoder test found and publishes it at once. */
  setEncoders(report: EncoderReport): void;
  /** Stops the beat and removes the record: a worker stopped on purpose is not one gone missing. */
  close(): Promise<void>;
}

/**
 * Publishes this worker's record at once and renews it every beat, with a lifetime, so that the
 * record of a worker that died goes away by itself.
 */
export function startWorkerHeartbeat(opts: {
  redisUrl: string;
  prefix: string;
  logger: Logger;
  queues: readonly QueueName[];
  concurrency: Readonly<Partial<Record<QueueName, number>>>;
  heartbeatMs?: number;
  ttlMs?: number;
}): WorkerHeartbeat {
  const host = hostname();
  const record: WorkerRecord = {
    id: `${host}:${process.pid}:${randomBytes(3).toString('hex')}`,
    host,
    pid: process.pid,
    queues: [...opts.queues],
    concurrency: { ...opts.concurrency },
    encoders: [],
    encoder_errors: {},
    encoders_tested_at: null,
    started_at: new Date().toISOString(),
    heartbeat_ms: opts.heartbeatMs ?? HEARTBEAT_MS,
    ttl_ms: opts.ttlMs ?? WORKER_RECORD_TTL_MS,
  };
  const client = new Redis(workerRedisOptions(opts.redisUrl));
  let lastErrorLog = 0;
  client.on('error', (err) => {
    // ioredis repeats the error on every reconnect attempt; the worker host logs the outage too.
    if (Date.now() - lastErrorLog > 60_000) {
      lastErrorLog = Date.now();
      opts.logger.warn({ err: err.message }, 'worker heartbeat: redis connection error');
    }
  });

  // Commands wait through a Redis outage: one beat at a time, so they do not pile up meanwhile. A
  // change made while one is on its way goes out right after it.
  let pending: Promise<void> | null = null;
  let again = false;
  let closed = false;
  function beat(): void {
    if (closed) return;
    if (pending) {
      again = true;
      return;
    }
    pending = saveWorkerRecord(client, opts.prefix, record)
      .catch((err: Error) => opts.logger.warn({ err: err.message }, 'worker heartbeat: could not write the record'))
      .finally(() => {
        pending = null;
        if (again) {
          again = false;
          beat();
        }
      });
  }
  beat();
  const timer = setInterval(beat, record.heartbeat_ms);
  timer.unref();

  return {
    id: record.id,
    setEncoders(report) {
      record.encoders = [...report.encoders];
      record.encoder_errors = { ...report.errors };
      record.encoders_tested_at = report.tested_at;
      beat();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      const gone = () => new Error('redis did not answer in time');
      try {
        // A beat still on its way would write the record back after the delete.
        if (pending) await withDeadline(pending, CLOSE_DEADLINE_MS, gone);
        await withDeadline(deleteWorkerRecord(client, opts.prefix, record.id), CLOSE_DEADLINE_MS, gone);
      } catch (err) {
        opts.logger.warn({ err: (err as Error).message }, 'worker heartbeat: could not remove the record; it expires by itself');
      }
      client.disconnect();
    },
  };
}
