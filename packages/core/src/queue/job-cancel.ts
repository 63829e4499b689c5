import type { Queue, RedisClient } from 'bullmq';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { QUEUE_NAMES, type QueueName } from '@mo/shared';
import type { Logger } from '../logging/logger.ts';
import { workerRedisOptions } from './redis-options.ts';

/** The abort reason a cancelled job's signal carries, and the failure it ends with. */
export const CANCELLED = 'cancelled';

/** Long enough for a job that waits behind a day of transcodes, then gone. */
const MARK_TTL_SECONDS = 7 * 24 * 3600;

export interface CancelRequest {
  queue: QueueName;
  id: string;
}

const cancelMessage = z.object({ queue: z.enum(QUEUE_NAMES), id: z.string().min(1) });

export function cancelChannel(prefix: string): string {
  return `${prefix}:cancel`;
}

// BullMQ types its connections as a minimal interface; they are ioredis clients.
function ioredis(client: RedisClient): Redis {
  return client as unknown as Redis;
}

function markKey(prefix: string, req: CancelRequest): string {
  return `${prefix}:cancel:${req.queue}:${req.id}`;
}

/**
 * Cancels a job wherever it is. Workers on any box hear the message and abort it if it is theirs
 * and running; the mark stays behind for a job still waiting (or retrying), which a worker checks
 * before it starts one, and for a worker that was reconnecting when the message went out.
 */
export async function requestCancel(queue: Queue, id: string): Promise<void> {
  const req: CancelRequest = { queue: queue.name as QueueName, id };
  const prefix = queue.opts.prefix ?? 'bull';
  const client = ioredis(await queue.client);
  const replies = await client.multi().set(markKey(prefix, req), '1', 'EX', MARK_TTL_SECONDS).publish(cancelChannel(prefix), JSON.stringify(req)).exec();
  const failed = replies?.find(([err]) => err);
  if (!replies || failed) throw failed?.[0] ?? new Error('the cancel request was not applied');
}

export async function isCancelRequested(client: RedisClient, prefix: string, req: CancelRequest): Promise<boolean> {
  return (await ioredis(client).exists(markKey(prefix, req))) === 1;
}

export interface CancelListener {
  close(): Promise<void>;
}

/** Subscribes to cancel requests; a subscribed connection can do nothing else, so it is its own. */
export function listenForCancels(opts: { redisUrl: string; prefix: string; logger: Logger; onCancel: (req: CancelRequest) => void }): CancelListener {
  const sub = new Redis(workerRedisOptions(opts.redisUrl));
  const channel = cancelChannel(opts.prefix);
  let lastErrorLog = 0;
  sub.on('error', (err) => {
    // ioredis repeats the error on every reconnect attempt; the worker host logs the outage too.
    if (Date.now() - lastErrorLog > 60_000) {
      lastErrorLog = Date.now();
      opts.logger.warn({ err: err.message }, 'cancel listener: redis connection error');
    }
  });
  // ioredis subscribes again by itself after a reconnect.
  sub.subscribe(channel).catch((err: Error) => opts.logger.error({ err: err.message }, 'cancel listener: subscribe failed'));
  sub.on('message', (ch: string, text: string) => {
    if (ch !== channel) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    const req = cancelMessage.safeParse(parsed);
    if (req.success) opts.onCancel(req.data);
    else opts.logger.warn({ message: text }, 'cancel listener: ignored a malformed message');
  });
  return {
    async close() {
      sub.disconnect();
    },
  };
}
