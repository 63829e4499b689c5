import type { JobHandler, Logger } from '@mo/core';
import { applyOrganize, recoverOrganizeLocked } from '@mo/core/scanner';
import type { WorkerDeps } from '../deps.ts';
import { refuseInDryRun, retryable } from './guards.ts';

/** Carries out the renames GET /api/library/organize lists (see applyOrganize), reporting `{done, total}`. */
export function libraryOrganizeHandler(deps: WorkerDeps): JobHandler<'library-organize'> {
  return async (payload, ctx) => {
    const cfg = deps.config.current();
    try {
      refuseInDryRun(cfg, 'the renames');
      return await applyOrganize({
        config: cfg,
        data: deps.config.data,
        ...(payload.paths ? { paths: payload.paths } : {}),
        jobId: ctx.jobId,
        log: ctx.log,
        signal: ctx.signal,
        progress: (p) => void ctx.progress(p).catch(() => {}),
      });
    } catch (err) {
      throw retryable(err);
    }
  };
}

/**
 * At start, what a killed organize job left is settled (finished or taken back, the index patched),
 * so that no note waits for the next organize job. A lock held elsewhere (a pass, another worker's
 * job) leaves it to that next job, which settles first.
 */
export async function recoverOrganizeAtStart(deps: Pick<WorkerDeps, 'config'>, log: Logger): Promise<void> {
  const data = deps.config.data;
  try {
    const { groups } = await data.journals().locked(() => recoverOrganizeLocked(data, log), { waitMs: 0 });
    if (groups > 0) log.info({ groups }, 'organize: what a killed job left is settled');
  } catch (err) {
    if ((err as Error).name === 'PassBusyError') return;
    log.warn({ err: (err as Error).message }, 'organize: could not settle what a killed job left; the next organize job will');
  }
}
