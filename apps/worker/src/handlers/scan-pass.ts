import { UnrecoverableError } from 'bullmq';
import type { JobHandler } from '@mo/core';
import { ownershipFromEnv } from '@mo/core/fs';
import { passFileName, runScanPass, TemplateError } from '@mo/core/scanner';
import { createTvmazeIdentifier, type TvmazeIdentifier } from '@mo/core/identify';
import type { WorkerDeps } from '../deps.ts';
import { retryable } from './guards.ts';
import { tellServers } from './tell-servers.ts';

/**
 * PUID/PGID are read once, at start: a bad value stops the worker with its name. The pass reads
 * dry_run from the config of the moment it runs; its full result goes to a pass file, and the job
 * keeps only the summary. A pass that moved files queues one notify job for the media servers,
 * whose failures are its own.
 */
export function scanPassHandler({ config, notify }: WorkerDeps, env: NodeJS.ProcessEnv = process.env): JobHandler<'scan-pass'> {
  const owner = ownershipFromEnv(env);
  // One per data folder for the process: its cache file and its pace with the provider outlive a pass.
  const identifiers = new Map<string, TvmazeIdentifier>();
  const identifierFor = (dataDir: string) => {
    let tvmaze = identifiers.get(dataDir);
    if (!tvmaze) identifiers.set(dataDir, (tvmaze = createTvmazeIdentifier({ dataDir })));
    return tvmaze;
  };
  return async (_payload, ctx) => {
    try {
      // Before the pass, so that an id that cannot name a file fails with nothing moved.
      passFileName(ctx.jobId);
    } catch (err) {
      throw new UnrecoverableError((err as Error).message);
    }
    const cfg = config.current();
    let result;
    try {
      result = await runScanPass({
        config: cfg,
        state: config.state,
        owner,
        log: ctx.log,
        signal: ctx.signal,
        progress: (value) => void ctx.progress(value).catch(() => {}),
        tvmaze: identifierFor(cfg.paths.data),
      });
    } catch (err) {
      // A template that cannot name files fails the same way on every retry; so does a conflict
      // (downloads in a library), whose code the API answers with.
      if (err instanceof TemplateError) throw new UnrecoverableError(err.message);
      throw retryable(err);
    }
    const summary = await config.data.passes().write(ctx.jobId, result);
    if (!result.dry_run) await tellServers(notify, cfg, ctx.jobId, result.moves);
    return summary;
  };
}
