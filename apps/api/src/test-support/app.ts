import { createLibraryCache, createLogger, createRuntimeConfig, type JobClient, type LibraryCache, type RuntimeConfig } from '@mo/core';
import { createApp } from '../app.ts';
import { tempInstall, type TempInstall } from '../../../../test/support/service.ts';

export interface TestApp {
  app: ReturnType<typeof createApp>;
  config: RuntimeConfig;
  library: LibraryCache;
  install: TempInstall;
  close(): Promise<void>;
}

/** A job client for routes that never reach the queue; `ready` decides what ping answers. */
export function stubJobs(ready = true): JobClient {
  const fail = () => Promise.reject(new Error('the queue is not part of this test'));
  return { submit: fail, get: fail, stats: fail, ping: async () => ready, queues: () => [], close: async () => {} };
}

export async function testApp(opts: { toml?: string; jobs?: JobClient; urlBase?: string } = {}): Promise<TestApp> {
  const install = await tempInstall(opts.toml);
  const config = await createRuntimeConfig({ configFile: install.configFile, pollMs: 50 });
  const logger = createLogger({ name: 'api-test', level: 'silent' });
  const library = await createLibraryCache({ dataDir: () => config.current().paths.data, pollMs: 50 });
  const app = createApp({ config, jobs: opts.jobs ?? stubJobs(), logger, library, urlBase: opts.urlBase });
  return {
    app,
    config,
    library,
    install,
    async close() {
      library.close();
      config.close();
      await install.cleanup();
    },
  };
}
