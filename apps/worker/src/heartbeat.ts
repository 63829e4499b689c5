import { startWorkerHeartbeat, type WorkerHost } from '@mo/core';
import { checkEncoders } from '@mo/core/media/encoder-check.ts';
import { encodersToCheck } from '@mo/core/media/encoder-check-command.ts';
import type { WorkerDeps } from './deps.ts';

/**
 * Announces this worker in Redis for GET /api/workers. A transcode worker tests its encoders in the
 * background: jobs start meanwhile, and the record gains the encoders once the test is done.
 * `transcoder.video_encoder` is read from the config file at start only, so one test is enough.
 */
export function reportWorker(deps: WorkerDeps, host: WorkerHost): { close(): Promise<void> } {
  const heartbeat = startWorkerHeartbeat({
    redisUrl: deps.env.redisUrl,
    prefix: deps.env.queuePrefix,
    logger: deps.logger,
    queues: host.queues,
    concurrency: host.concurrency,
  });
  const stopping = new AbortController();
  if (host.queues.includes('transcode')) {
    const configured = deps.config.current().transcoder.video_encoder;
    void checkEncoders(encodersToCheck(configured), { signal: stopping.signal }).then(
      (report) => {
        deps.logger.info({ encoders: report.encoders, failed: report.errors }, 'video encoders tested');
        if (!report.encoders.includes(configured)) {
          deps.logger.warn({ encoder: configured, err: report.errors[configured] }, 'the configured video encoder does not work here; transcodes fall back to libx264');
        }
        heartbeat.setEncoders(report);
      },
      (err: Error) => deps.logger.error({ err: err.message }, 'could not test the video encoders'),
    );
  }
  return {
    async close() {
      stopping.abort();
      await heartbeat.close();
    },
  };
}
