import type { Config } from '@mo/shared';
import type { WorkerDeps } from '../deps.ts';

/**
 * Queues one notify job for what a pass or a manual import placed, where a media server target is
 * on; the job's failures are its own, never the import's.
 */
export async function tellServers(
  notify: WorkerDeps['notify'],
  cfg: Config,
  jobId: string,
  moves: readonly { source: string; destination: string; status: string }[],
): Promise<void> {
  const imports = moves.filter((m) => m.status === 'moved').map((m) => ({ source: m.source, destination: m.destination }));
  if (notify && imports.length > 0 && cfg.notifications.targets.some((t) => t.enabled)) await notify({ pass: jobId, imports });
}
