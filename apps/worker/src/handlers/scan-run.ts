import { UnrecoverableError } from 'bullmq';
import { ownershipFromEnv } from '@mo/core/fs';
import { scanRunService, type ScanRunService } from '@mo/core/scanner';
import type { WorkerDeps } from '../deps.ts';
import { retryable } from './guards.ts';

/** The scanner's run service over this worker's config, state.json, notify queue and BullMQ's idea of a final error. */
export function scanRun({ config, notify }: WorkerDeps, env: NodeJS.ProcessEnv = process.env): ScanRunService {
  // PUID/PGID are read once, at start: a bad value stops the worker with its name.
  const owner = ownershipFromEnv(env);
  return scanRunService({
    config: () => config.current(),
    state: config.state,
    owner,
    data: config.data,
    passes: config.data.passes(),
    identifyCache: config.data.identifyCache(),
    updateSettings: (patch) => config.updateSettings(patch),
    ...(notify ? { notify } : {}),
    unrecoverable: (message) => new UnrecoverableError(message),
    final: retryable,
  });
}
