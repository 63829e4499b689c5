import { UnrecoverableError } from 'bullmq';
import { AppError, isFinalError, jobFailureReason } from '@mo/core';
import type { Config } from '@mo/shared';
import { guardMediaPath, mediaRoots, type GuardedPath } from '@mo/core/fs';
import { mappedRoots, mapPath } from '@mo/core/media';

// What every handler checks again when its job runs, against the config of that moment: the job
// may have waited in the queue while the settings changed, or been put there by hand.

/** Bad input and conflicts will not fix themselves on a retry. */
export function retryable(err: unknown): unknown {
  if (isFinalError(err)) return new UnrecoverableError(jobFailureReason(err));
  return err;
}

/** A job that would change files does not run while dry_run is on, whenever it was queued. */
export function refuseInDryRun(cfg: Config, what: string): void {
  if (cfg.app.dry_run) throw new AppError('conflict', `dry_run is on: ${what} was not run; nothing changed`);
}

function guardMapped(path: string, cfg: Config, roots: string[]): Promise<GuardedPath> {
  const map = cfg.transcoder.path_map ?? [];
  return guardMediaPath(mapPath(path, map), { roots: mappedRoots(roots, map), extensions: cfg.library.video_extensions });
}

/** A job's path as this box mounts it (transcoder.path_map), checked like the API checks it: downloads or a drive. */
export function localMediaFile(path: string, cfg: Config): Promise<GuardedPath> {
  return guardMapped(path, cfg, mediaRoots(cfg));
}

/** The same for a transcode, whose files come from the library index: a drive only, never the downloads. */
export function libraryMediaFile(path: string, cfg: Config): Promise<GuardedPath> {
  return guardMapped(
    path,
    cfg,
    cfg.drives.map((d) => d.path),
  );
}
