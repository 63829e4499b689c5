import { Queue } from 'bullmq';
import { JOBS, RECYCLE_PURGE_SCHEDULER_ID, SCAN_SCHEDULER_ID, type Config } from '@mo/shared';
import { workerRedisOptions, type Logger, type RuntimeConfig } from '@mo/core';

/**
 * The periodic scanner pass lives in BullMQ's job scheduler, so that any number of workers agree on
 * one schedule; every worker that serves `scan` keeps it in line with scan_interval_seconds.
 */
export function keepScanSchedule(opts: { redisUrl: string; prefix: string; config: RuntimeConfig; logger: Logger }) {
  const queue = new Queue(JOBS['scan-pass'].queue, { connection: workerRedisOptions(opts.redisUrl), prefix: opts.prefix });
  queue.on('error', (err) => opts.logger.warn({ err: err.message }, 'scan schedule queue error'));
  let applied: number | undefined;
  let chain: Promise<void> = Promise.resolve();

  async function apply(config: Config) {
    const seconds = config.app.scan_interval_seconds;
    if (seconds === applied) return;
    // Two passes must never run at once, whichever box picks them up.
    await queue.setGlobalConcurrency(1);
    if (seconds === 0) {
      await queue.removeJobScheduler(SCAN_SCHEDULER_ID);
    } else {
      const { attempts, backoff, removeOnComplete, removeOnFail } = JOBS['scan-pass'].defaults;
      await queue.upsertJobScheduler(
        SCAN_SCHEDULER_ID,
        { every: seconds * 1000 },
        { name: 'scan-pass', data: { trigger: 'schedule' }, opts: { attempts, backoff, removeOnComplete, removeOnFail } },
      );
    }
    applied = seconds;
    opts.logger.info({ scan_interval_seconds: seconds }, seconds === 0 ? 'periodic scan off' : 'periodic scan scheduled');
  }

  const schedule = (config: Config) => {
    chain = chain.then(() => apply(config)).catch((err) => opts.logger.error({ err: err.message }, 'could not schedule scan passes'));
    return chain;
  };
  const off = opts.config.onChange((next) => void schedule(next));
  return {
    ready: schedule(opts.config.current()),
    async close() {
      off();
      await chain;
      await queue.close();
    },
  };
}

const DAY_MS = 86_400_000;

/**
 * The daily recycle bin purge, kept in BullMQ's job scheduler like the scanner pass: every worker
 * that serves `library` upserts the same scheduler, so that there is one purge a day however many run.
 */
export async function keepRecyclePurgeSchedule(opts: { redisUrl: string; prefix: string; logger: Logger }) {
  const queue = new Queue(JOBS['recycle-purge'].queue, { connection: workerRedisOptions(opts.redisUrl), prefix: opts.prefix });
  queue.on('error', (err) => opts.logger.warn({ err: err.message }, 'recycle purge schedule queue error'));
  const { attempts, backoff, removeOnComplete, removeOnFail } = JOBS['recycle-purge'].defaults;
  const ready = queue
    .upsertJobScheduler(
      RECYCLE_PURGE_SCHEDULER_ID,
      { every: DAY_MS },
      { name: 'recycle-purge', data: { trigger: 'schedule' }, opts: { attempts, backoff, removeOnComplete, removeOnFail } },
    )
    .then(() => opts.logger.info('daily recycle bin purge scheduled'))
    .catch((err: Error) => opts.logger.error({ err: err.message }, 'could not schedule the recycle bin purge'));
  return {
    ready,
    async close() {
      await ready;
      await queue.close();
    },
  };
}
