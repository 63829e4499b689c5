import type { JobHandler } from '@mo/core';
import type { WorkerDeps } from '../deps.ts';
import { scanRun } from './scan-run.ts';

/** A library scan (see ScanRunService.libraryScan). */
export function libraryScanHandler(deps: WorkerDeps, env: NodeJS.ProcessEnv = process.env): JobHandler<'library-scan'> {
  const service = scanRun(deps, env);
  return (_payload, ctx) => service.libraryScan(ctx);
}
