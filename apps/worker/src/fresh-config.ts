import type { JobHandler, JobHandlers, RuntimeConfig } from '@mo/core';
import type { JobName } from '@mo/shared';

/**
 * Each job starts from state.json as it is now: the watcher and the poll bring a settings change
 * within a second, but a scan asked for right after "dry run off" was saved could otherwise run
 * with the value from before.
 */
export function withFreshConfig(config: Pick<RuntimeConfig, 'refresh'>, handlers: JobHandlers): JobHandlers {
  const out: JobHandlers = {};
  for (const name of Object.keys(handlers) as JobName[]) {
    const handler = handlers[name] as JobHandler<JobName> | undefined;
    if (!handler) continue;
    const fresh: JobHandler<JobName> = async (payload, ctx) => {
      await config.refresh();
      return handler(payload, ctx);
    };
    (out as Record<JobName, JobHandler<JobName>>)[name] = fresh;
  }
  return out;
}
