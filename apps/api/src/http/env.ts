import type { JobClient, Logger, RuntimeConfig } from '@mo/core';

export interface AppDeps {
  config: RuntimeConfig;
  jobs: JobClient;
  logger: Logger;
}

export interface AppEnv {
  Variables: {
    log: Logger;
    requestId: string;
  };
}
