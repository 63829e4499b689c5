import type { Config } from '@mo/shared';
import type { DataDir } from '../data-dir/data-dir.ts';
import type { Logger } from '../logging/logger.ts';
import { emptyRecycle, listRecycle, purgeRecycle, restoreRecycled, totalsOf, type RecycledItem } from './recycle-bin.ts';
import { writeRecycleTotals } from './recycle-totals.ts';

export interface RecycleServiceDeps {
  config: () => Config;
  data: () => DataDir;
}

/**
 * What the API and the worker do with the bins. Each call that looks at or changes a bin writes
 * its size down for the dashboard. With `app.dry_run` on, restore, empty and purge say what they
 * would do and change nothing, as every other change to the library does.
 */
export function recycleService(deps: RecycleServiceDeps) {
  const drives = () => deps.config().drives;
  const recount = async (items?: RecycledItem[]) => {
    const counted = items ?? (await listRecycle(drives()));
    await writeRecycleTotals(deps.data(), totalsOf(counted));
    return counted;
  };
  return {
    async list() {
      const items = await recount();
      return { items, ...totalsOf(items) };
    },
    async restore(path: string, log: Logger) {
      const dryRun = deps.config().app.dry_run;
      // A dry run makes every check of a restore (404, 403, 409), short of the move.
      const done = await restoreRecycled({ drives: drives(), path, dryRun });
      if (dryRun) return { dry_run: true, ...done };
      log.info({ path, original: done.original }, 'recycle bin: restored');
      await recount();
      return { dry_run: false, ...done };
    },
    async empty(paths: readonly string[] | undefined, log: Logger) {
      const dryRun = deps.config().app.dry_run;
      const out = await emptyRecycle({ drives: drives(), ...(paths ? { paths } : {}), dryRun });
      if (dryRun) return { dry_run: true, ...out };
      for (const path of out.removed) log.info({ path }, 'recycle bin: emptied');
      await recount();
      return { dry_run: false, ...out };
    },
    async purge(now: Date, log: Logger) {
      const days = deps.config().library.recycle_days;
      const out = deps.config().app.dry_run ? { removed: [], bytes: 0 } : await purgeRecycle({ drives: drives(), days, now });
      for (const path of out.removed) log.info({ path, recycle_days: days }, 'recycle bin: purged');
      const left = totalsOf(await recount());
      return { removed: out.removed.length, bytes: out.bytes, left };
    },
  };
}
