import type { JobHandler } from '@mo/core';
import type { WorkerDeps } from '../deps.ts';
import { scanRun } from './scan-run.ts';

/**
 * POST /api/imports/manual's job (see ScanRunService.manualImport). Its result stays in Redis whole:
 * it names only the files it chose.
 */
export function manualImportHandler(deps: WorkerDeps, env: NodeJS.ProcessEnv = process.env): JobHandler<'manual-import'> {
  const service = scanRun(deps, env);
  return (payload, ctx) => service.manualImport(payload, ctx);
}
