import type { Logger, ProcessEnv, RuntimeConfig } from '@mo/core';

/** What every job handler may use; handlers are built from this once at start. */
export interface WorkerDeps {
  config: RuntimeConfig;
  logger: Logger;
  env: ProcessEnv;
}
