import { ConfigError, createLogger, createRuntimeConfig, createWorkerHost, readProcessEnv, readWorkerMetricsEnv, type JobHandlers } from '@mo/core';
import { applyUmask } from '@mo/core/fs';
import { useProbeConcurrency } from '@mo/core/media';
import { keepRecyclePurgeSchedule, keepScanSchedule } from './schedules.ts';
import { reportWorker } from './heartbeat.ts';
import { watchDownloads } from './watch-downloads.ts';
import { keepDownloadsListing } from './keep-listing.ts';
import { watchPassQueue } from './watch-pass.ts';
import type { WorkerDeps } from './deps.ts';
import { scanPassHandler } from './handlers/scan-pass.ts';
import { manualImportHandler } from './handlers/manual-import.ts';
import { libraryScanHandler } from './handlers/library-scan.ts';
import { mediaTracksHandler } from './handlers/media-tracks.ts';
import { transcodeRun, transcodeRunHandler } from './handlers/transcode-run.ts';
import { notifyHandler } from './handlers/notify.ts';
import { recyclePurgeHandler } from './handlers/recycle-purge.ts';
import { libraryOrganizeHandler, recoverOrganizeAtStart } from './handlers/library-organize.ts';
import { withFreshConfig } from './fresh-config.ts';
import { warnUnlinkableDrives } from './hardlink-warning.ts';
import { notifyQueue } from './notify-queue.ts';
import { keepTranscodePauseInLine, transcodeQueuePause } from './transcode-queue-pause.ts';
import { createWorkerMetrics, serveMetrics } from './metrics.ts';

const SETTLE_TRANSCODES_EVERY_MS = 5 * 60_000;
/** One cheap Redis read: a queue whose pause a flushed Redis lost is set right within a minute. */
const SYNC_TRANSCODE_PAUSE_EVERY_MS = 60_000;
/**
 * The longest a shutdown waits for its handlers to return once their jobs are aborted (a pass
 * finishing the copy under way): under the 10 s after which `docker stop` kills. A job still running
 * then is left to BullMQ's stalled check, which hands it to the next worker.
 */
const SHUTDOWN_GRACE_MS = 8000;

async function main() {
  applyUmask(process.env);
  const env = readProcessEnv(process.env);
  const metricsEnv = readWorkerMetricsEnv(process.env);
  const config = await createRuntimeConfig({ configFile: env.configFile });
  const logger = createLogger({ name: 'worker', level: config.current().app.log_level });
  useProbeConcurrency(() => config.current().app.probe_concurrency);
  config.onChange((next, prev) => {
    if (next.app.log_level !== prev.app.log_level) logger.level = next.app.log_level;
  });
  const notices = env.workerQueues.includes('scan') ? notifyQueue({ redisUrl: env.redisUrl, prefix: env.queuePrefix, logger }) : undefined;
  const deps: WorkerDeps = { config, logger, env, ...(notices ? { notify: notices.add } : {}) };
  const handlers: JobHandlers = withFreshConfig(config, {
    'scan-pass': scanPassHandler(deps),
    'manual-import': manualImportHandler(deps),
    'library-scan': libraryScanHandler(deps),
    'recycle-purge': recyclePurgeHandler(deps),
    'library-organize': libraryOrganizeHandler(deps),
    'media-tracks': mediaTracksHandler(deps),
    'transcode-run': transcodeRunHandler(deps),
    notify: notifyHandler(deps),
  });
  const metrics = metricsEnv ? createWorkerMetrics({ queues: env.workerQueues, concurrency: env.workerConcurrency }) : undefined;
  // Before the first job is taken: a port it cannot have stops the start, with nothing begun.
  const metricsServer = metricsEnv && metrics ? await serveMetrics({ ...metricsEnv, metrics, logger }) : undefined;
  if (metricsServer) logger.info({ url: metricsServer.url }, 'serving the worker metrics (no key asked)');
  const consumesTranscodes = env.workerQueues.includes('transcode');
  const queuePause = consumesTranscodes ? transcodeQueuePause({ redisUrl: env.redisUrl, prefix: env.queuePrefix, logger }) : undefined;
  const transcodes = transcodeRun(deps, { jobOutcomes: (ids) => host.jobOutcomes('transcode', ids), ...(queuePause ? { queuePause } : {}) });
  // Before the first job is taken: a killed organize job's renames are finished or taken back.
  if (env.workerQueues.includes('library')) await recoverOrganizeAtStart(deps, logger);
  const host = createWorkerHost({
    redisUrl: env.redisUrl,
    prefix: env.queuePrefix,
    queues: env.workerQueues,
    concurrency: env.workerConcurrency,
    handlers,
    logger,
    onFailed: { 'transcode-run': (_payload, jobId) => transcodes.onFailed(jobId) },
    ...(metrics ? { observer: metrics.observer } : {}),
  });
  // The transcode queue's pause lives in its records, so that it outlasts restarts (and a Redis
  // that keeps nothing): this box takes no transcode while it is set, and the queue's own pause
  // follows it.
  host.setPaused('transcode', config.currentState().transcoder_paused);
  config.onStateChange((next) => host.setPaused('transcode', next.transcoder_paused));
  const stopSettling = consumesTranscodes ? transcodes.keepSettled(SETTLE_TRANSCODES_EVERY_MS) : undefined;
  const stopSyncingPause = queuePause ? keepTranscodePauseInLine(config, transcodes, SYNC_TRANSCODE_PAUSE_EVERY_MS) : undefined;
  const schedule = env.workerQueues.includes('scan') ? keepScanSchedule({ redisUrl: env.redisUrl, prefix: env.queuePrefix, config, logger }) : undefined;
  const purgeSchedule = env.workerQueues.includes('library')
    ? await keepRecyclePurgeSchedule({ redisUrl: env.redisUrl, prefix: env.queuePrefix, logger })
    : undefined;
  const report = reportWorker(deps, host);
  const passQueue = env.workerQueues.includes('scan') ? watchPassQueue({ redisUrl: env.redisUrl, prefix: env.queuePrefix, logger }) : undefined;
  // Late-bound both ways: the listing asks the watch whether it sees changes, the watch tells the listing of them.
  const onChange = () => listing?.changed();
  const watching = passQueue ? watchDownloads({ config, logger, requestPass: passQueue.request, onChange, onWatching: onChange }) : undefined;
  const listing = passQueue ? keepDownloadsListing({ config, logger, watched: () => watching?.watching() ?? false }) : undefined;
  logger.info({ queues: env.workerQueues, config: env.configFile }, 'worker started');
  if (env.workerQueues.includes('scan')) {
    warnUnlinkableDrives(config.current(), logger).catch((err: Error) =>
      logger.warn({ err: err.message }, 'could not tell whether the drives take hard links'),
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: handing active jobs back to the queue');
    setTimeout(() => {
      logger.warn('jobs still running after the grace period; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    stopSettling?.();
    stopSyncingPause?.();
    // Gone from the list first: while its active jobs are handed back, it takes no new ones.
    await report.close();
    await metricsServer?.close();
    await schedule?.close();
    await purgeSchedule?.close();
    await watching?.close();
    await listing?.close();
    await passQueue?.close();
    await host.close();
    await queuePause?.close();
    await notices?.close();
    config.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
