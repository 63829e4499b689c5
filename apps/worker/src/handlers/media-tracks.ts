import { UnrecoverableError } from 'bullmq';
import { isFinalError, jobFailureReason, type JobHandler, type Logger } from '@mo/core';
import type { Config } from '@mo/shared';
import { guardMediaPath, mediaRoots, type GuardedPath } from '@mo/core/fs/path-guard.ts';
import { mappedRoots, mapPath } from '@mo/core/media/path-map.ts';
import { applyTrackAction } from '@mo/core/media/remux.ts';
import { workJournal, type WorkJournal } from '@mo/core/media/work-journal.ts';
import type { WorkerDeps } from '../deps.ts';

/** Bad input and conflicts will not fix themselves on a retry. */
export function retryable(err: unknown): unknown {
  if (isFinalError(err)) return new UnrecoverableError(jobFailureReason(err));
  return err;
}

/** A job's path as this box mounts it (transcoder.path_map), checked like the API checks it. */
export function localMediaFile(path: string, cfg: Config): Promise<GuardedPath> {
  const map = cfg.transcoder.path_map ?? [];
  return guardMediaPath(mapPath(path, map), { roots: mappedRoots(mediaRoots(cfg), map), extensions: cfg.library.video_extensions });
}

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
  const journal = () => workJournal(config.current().paths.data);
  sweepAtStart(journal(), logger);

  return async (payload, ctx) => {
    const cfg = config.current();
    try {
      await journal().sweep();
      const file = await localMediaFile(payload.path, cfg);
      const outcome = await applyTrackAction(
        { file: file.real, action: payload.action, stream: payload.stream, before: payload.before },
        { journal: journal(), jobId: ctx.jobId, signal: ctx.signal },
      );
      if (!outcome.changed) ctx.log.info({ path: payload.path }, 'the file already has the requested streams; nothing to do');
      return { dry_run: false, path: payload.path, command: outcome.command, streams: outcome.streams };
    } catch (err) {
      throw retryable(err);
    }
  };
}
