import type { JobHandler } from '@mo/core';
import { recycleService } from '@mo/core/recycle';
import type { WorkerDeps } from '../deps.ts';

/** Deletes the bin files kept past `library.recycle_days` on every drive (see recycleService.purge). */
export function recyclePurgeHandler(deps: WorkerDeps, now: () => Date = () => new Date()): JobHandler<'recycle-purge'> {
  const bins = recycleService({ config: () => deps.config.current(), data: () => deps.config.data });
  return () => bins.purge(now(), deps.logger);
}
