import type { Logger, ProcessEnv, RuntimeConfig } from '@mo/core';
import type { JobPayload } from '@mo/shared';

/** What every job handler may use; handlers are built from this once at start. */
export interface WorkerDeps {
  config: RuntimeConfig;
  logger: Logger;
  env: ProcessEnv;
  /** Queues a notify job; absent where this process cannot reach the notify queue (tests). */
  notify?: (payload: JobPayload<'notify'>) => Promise<void>;
}
