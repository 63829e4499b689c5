import { startWorkerHeartbeat, type WorkerHost } from '@mo/core';
import { checkEncoders, encodersToCheck } from '@mo/core/media';
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
        // Cut short by the shutdown: the failures say nothing about the encoders.
        if (stopping.signal.aborted) return;
        deps.logger.info({ encoders: report.encoders, failed: report.errors }, 'video encoders tested');
        for (const [encoder, err] of Object.entries(report.errors)) {
          const outcome = encoder === 'libx264' ? 'transcodes that encode video fail' : 'transcodes fall back to libx264';
          deps.logger.warn({ encoder, err }, `a video encoder does not work here: ${outcome}`);
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
