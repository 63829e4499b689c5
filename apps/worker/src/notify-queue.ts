import { Queue } from 'bullmq';
import { apiJobOptions, type JobPayload } from '@mo/shared';
import { withDeadline, type Logger } from '@mo/core';
import { workerRedisOptions } from '@mo/core/queue';

const ADD_DEADLINE_MS = 5000;

export interface NotifyQueue {
  /** Queues one notify job; never throws: a pass that moved files has succeeded whatever happens here. */
  add(payload: JobPayload<'notify'>): Promise<void>;
  close(): Promise<void>;
}

export function notifyQueue(opts: { redisUrl: string; prefix: string; logger: Logger }): NotifyQueue {
  const queue = new Queue('notify', { connection: workerRedisOptions(opts.redisUrl), prefix: opts.prefix });
  queue.on('error', (err) => opts.logger.error({ err: err.message, queue: 'notify' }, 'queue error'));
  return {
    async add(payload) {
      try {
        const job = await withDeadline(queue.add('notify', payload, apiJobOptions('notify')), ADD_DEADLINE_MS, () => new Error('Redis did not answer'));
        opts.logger.info({ job_id: job.id, pass: payload.pass, files: payload.imports.length }, 'media servers to be told');
      } catch (err) {
        opts.logger.warn({ pass: payload.pass, err: (err as Error).message }, 'could not queue the media server notice');
      }
    },
    close: () => queue.close(),
  };
}
