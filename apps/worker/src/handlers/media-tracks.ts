import type { JobHandler, Logger } from '@mo/core';
import { applyTrackAction, unmapPath, type WorkJournal } from '@mo/core/media';
import { mountedDrives } from '@mo/core/tools';
import type { WorkerDeps } from '../deps.ts';
import { localMediaFile, refuseInDryRun, retryable } from './guards.ts';

/**
 * The temps of a worker that died mid-job go when the next worker starts (handlers are built at
 * start), not only when the next job comes.
 */
export function sweepAtStart(journal: WorkJournal, logger: Logger): void {
  journal
    .sweep()
    .then((removed) => {
      if (removed.length > 0) logger.info({ removed }, 'removed temp files left by a stopped worker');
    })
    .catch((err: Error) => logger.warn({ err: err.message }, 'could not sweep leftover temp files'));
}

export function mediaTracksHandler({ config, logger }: WorkerDeps): JobHandler<'media-tracks'> {
  const journal = config.data.mediaWork();
  sweepAtStart(journal, logger);

  return async (payload, ctx) => {
    const cfg = config.current();
    try {
      refuseInDryRun(cfg, `the track change on ${payload.path}`);
      await journal.sweep();
      const file = await localMediaFile(payload.path, cfg);
      const map = cfg.transcoder.path_map ?? [];
      const outcome = await applyTrackAction(
        { file: file.real, action: payload.action, stream: payload.stream, before: payload.before },
        { journal, jobId: ctx.jobId, signal: ctx.signal, ...(cfg.library.recycle_bin ? { bin: mountedDrives(cfg, map) } : {}) },
      );
      if (!outcome.changed) ctx.log.info({ path: payload.path }, 'the file already has the requested streams; nothing to do');
      const recycled = outcome.recycled_to === null ? null : unmapPath(outcome.recycled_to, map);
      if (recycled) ctx.log.info({ path: payload.path, recycled_to: recycled }, 'the file as it was is in the recycle bin');
      return { dry_run: false, path: payload.path, command: outcome.command, streams: outcome.streams, original_recycled_to: recycled };
    } catch (err) {
      throw retryable(err);
    }
  };
}
