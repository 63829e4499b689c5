import { UnrecoverableError } from 'bullmq';
import type { JobHandler } from '@mo/core';
import { ownershipFromEnv } from '@mo/core/fs/ownership.ts';
import { runScanPass } from '@mo/core/scanner/run-pass.ts';
import { TemplateError } from '@mo/core/scanner/template.ts';
import type { WorkerDeps } from '../deps.ts';

/** PUID/PGID are read once, at start: a bad value stops the worker with its name. */
export function scanPassHandler({ config }: WorkerDeps, env: NodeJS.ProcessEnv = process.env): JobHandler<'scan-pass'> {
  const owner = ownershipFromEnv(env);
  return async (_payload, ctx) => {
    try {
      return await runScanPass({
        config: config.current(),
        state: config.state,
        owner,
        log: ctx.log,
        signal: ctx.signal,
        progress: (value) => void ctx.progress(value).catch(() => {}),
      });
    } catch (err) {
      // A template that cannot name files fails the same way on every retry.
      if (err instanceof TemplateError) throw new UnrecoverableError(err.message);
      throw err;
    }
  };
}
