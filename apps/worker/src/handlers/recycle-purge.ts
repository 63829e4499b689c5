import type { JobHandler } from '@mo/core';
import { listRecycle, purgeRecycle, totalsOf, writeRecycleTotals } from '@mo/core/recycle';
import type { WorkerDeps } from '../deps.ts';

/** Deletes the bin files kept past `library.recycle_days` on every drive, and writes the bin's size down for the dashboard. */
export function recyclePurgeHandler(deps: WorkerDeps, now: () => Date = () => new Date()): JobHandler<'recycle-purge'> {
  return async () => {
    const cfg = deps.config.current();
    const days = cfg.library.recycle_days;
    const out = await purgeRecycle({ drives: cfg.drives, days, now: now() });
    const left = totalsOf(await listRecycle(cfg.drives));
    await writeRecycleTotals(deps.config.data, left, now());
    for (const path of out.removed) deps.logger.info({ path, recycle_days: days }, 'recycle bin: purged');
    return { removed: out.removed.length, bytes: out.bytes, left };
  };
}
