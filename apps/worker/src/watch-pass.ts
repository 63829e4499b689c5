import { Queue } from 'bullmq';
import { apiJobOptions, JOBS } from '@mo/shared';
import { workerRedisOptions, type Logger } from '@mo/core';
import type { QueuedPass } from '@mo/core/scanner';

/**
 * Asks for a scanner pass as the API does, so a watch-triggered pass joins one already waiting or
 * running rather than running beside it; says whether that pass had already begun, and when.
 */
export function watchPassQueue(opts: { redisUrl: string; prefix: string; logger: Logger }) {
  const queue = new Queue(JOBS['scan-pass'].queue, { connection: workerRedisOptions(opts.redisUrl), prefix: opts.prefix });
  queue.on('error', (err) => opts.logger.warn({ err: err.message }, 'watch pass queue error'));
  return {
    async request(): Promise<QueuedPass> {
      const added = await queue.add('scan-pass', { trigger: 'watch' }, apiJobOptions('scan-pass'));
      const id = added.id!;
      // State first: a pass read as waiting has surely not begun; one read as begun has its start time read after.
      const state = await queue.getJobState(id);
      const job = await queue.getJob(id);
      return { state, startedMs: job?.processedOn ?? null };
    },
    close: () => queue.close(),
  };
}
