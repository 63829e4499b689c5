import type { JobHandler } from '@mo/core';
import type { WorkerDeps } from '../deps.ts';

export function scanPassHandler({ config }: WorkerDeps): JobHandler<'scan-pass'> {
  return async () => {
    const started_at = new Date().toISOString();
    const { dry_run } = config.current().app;
    await config.state.update((s) => ({ ...s, last_scan_at: started_at }));
    return { dry_run, started_at, finished_at: new Date().toISOString(), plans: [], moves: [], skipped: [] };
  };
}
