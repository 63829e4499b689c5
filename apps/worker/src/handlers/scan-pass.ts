import type { JobHandler } from '@mo/core';
import type { WorkerDeps } from '../deps.ts';
import { scanRun } from './scan-run.ts';

/** A scanner pass (see ScanRunService.pass): dry_run is read from the config of the moment it runs, unless the payload asks for a preview. */
export function scanPassHandler(deps: WorkerDeps, env: NodeJS.ProcessEnv = process.env): JobHandler<'scan-pass'> {
  const service = scanRun(deps, env);
  return (payload, ctx) => service.pass(ctx, payload);
}
