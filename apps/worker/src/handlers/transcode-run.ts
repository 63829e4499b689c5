import type { JobHandler, JobOutcome } from '@mo/core';
import { runtimeTranscodeRecords, transcodeRunService, transcodeStore, type TranscodeRunDeps, type TranscodeRunService } from '@mo/core/tools';
import type { WorkerDeps } from '../deps.ts';
import { libraryMediaFile, refuseInDryRun, retryable } from './guards.ts';
import { sweepAtStart } from './media-tracks.ts';

/** The transcode service over this worker's config, transcode records and BullMQ's idea of a final error. */
export function transcodeRun(
  { config, logger }: WorkerDeps,
  opts: Pick<TranscodeRunDeps, 'pausedRetryMs' | 'jobOutcomes' | 'queuePause'> = {},
): TranscodeRunService {
  return transcodeRunService({
    config: () => config.current(),
    records: runtimeTranscodeRecords(config),
    store: transcodeStore(config.transcodes),
    journal: () => config.data.mediaWork(),
    locate: libraryMediaFile,
    final: retryable,
    refuseInDryRun,
    logger,
    ...opts,
  });
}

export function transcodeRunHandler(deps: WorkerDeps, opts: { pausedRetryMs?: number } = {}): JobHandler<'transcode-run'> {
  const service = transcodeRun(deps, opts);
  sweepAtStart(deps.config.data.mediaWork(), deps.logger);
  return ({ item }, ctx) => service.run(item, ctx);
}

/** See TranscodeRunService.settle; `jobOutcomes` asks the queue. */
export function settleStrandedTranscodes(deps: WorkerDeps, jobOutcomes: (ids: string[]) => Promise<Map<string, JobOutcome | null>>) {
  return transcodeRun(deps, { jobOutcomes }).settle;
}
