import { z } from 'zod';
import type { QueueName } from '../jobs/queues.ts';

const iso = z.string().describe('ISO-8601 UTC time');

// Queue names are plain strings here: a worker of a newer version may consume a queue this API does
// not know yet, and its record must still be listed rather than dropped.
const workerFields = {
  id: z.string().min(1).describe('Stable for the life of one worker process'),
  host: z.string(),
  pid: z.number().int(),
  queues: z.array(z.string()),
  concurrency: z.record(z.string(), z.number().int().positive()).describe('Jobs the worker runs at a time, per queue it consumes'),
  encoders: z
    .array(z.string())
    .describe('The video encoders a one-second test encode succeeded with on this worker; empty without the transcode queue or while the test runs'),
  encoder_errors: z.record(z.string(), z.string()).describe('Each tested encoder that failed, with the first line ffmpeg gave'),
  encoders_tested_at: iso.nullable().describe('When the encoders were tested; null while the test runs and for a worker without the transcode queue'),
  started_at: iso,
};

/**
 * What a worker keeps in Redis, renewed by its heartbeat. It carries its own beat and lifetime so
 * that a reader judges each record by the rules its writer followed.
 */
export const workerRecordSchema = z.object({
  ...workerFields,
  heartbeat_ms: z.number().int().positive(),
  ttl_ms: z.number().int().positive(),
});
export type WorkerRecord = z.infer<typeof workerRecordSchema>;

export const workerSchema = z.object({
  ...workerFields,
  last_seen: iso,
  alive: z.boolean().describe('false once the heartbeat is three beats late; the record is listed until it expires'),
});
export type WorkerView = z.infer<typeof workerSchema>;

const liveWorkers = z.object({ workers: z.number().int().describe('Live workers consuming the queue: 0 means its jobs wait until one starts') });

export const workersResponse = z.object({
  workers: z.array(workerSchema),
  queues: z.object({
    scan: liveWorkers,
    library: liveWorkers,
    media: liveWorkers,
    transcode: liveWorkers,
    notify: liveWorkers,
  } satisfies Record<QueueName, typeof liveWorkers>),
});
export type WorkersReport = z.infer<typeof workersResponse>;
