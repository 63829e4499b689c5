import { UnrecoverableError } from 'bullmq';
import type { JobHandler } from '@mo/core';
import { ownershipFromEnv } from '@mo/core/fs';
import { runManualImport, TemplateError } from '@mo/core/scanner';
import type { WorkerDeps } from '../deps.ts';
import { retryable } from './guards.ts';
import { tellServers } from './tell-servers.ts';

/**
 * POST /api/imports/manual's job: what the owner said a download is, imported like a pass's import
 * (and so undone like one). Its result stays in Redis whole: it names only the files it chose.
 */
export function manualImportHandler({ config, notify }: WorkerDeps, env: NodeJS.ProcessEnv = process.env): JobHandler<'manual-import'> {
  const owner = ownershipFromEnv(env);
  return async (payload, ctx) => {
    const cfg = config.current();
    let result;
    try {
      result = await runManualImport({
        config: cfg,
        state: config.state,
        owner,
        log: ctx.log,
        signal: ctx.signal,
        payload,
        jobId: ctx.jobId,
        updateSettings: (patch) => config.updateSettings(patch),
      });
    } catch (err) {
      if (err instanceof TemplateError) throw new UnrecoverableError(err.message);
      throw retryable(err);
    }
    await tellServers(notify, cfg, ctx.jobId, result.moves);
    return result;
  };
}
