import {
  createAuthService,
  createLibraryCache,
  createLogger,
  createRuntimeConfig,
  type AuthService,
  type JobClient,
  type JobEvents,
  type LibraryCache,
  type RuntimeConfig,
} from '@mo/core';
import type { Ownership } from '@mo/core/fs';
import { createApp } from '../app.ts';
import { createLiveEvents, type LiveEvents } from '../http/live-events.ts';
import { TEST_API_KEY, tempInstall, type TempInstall } from '@mo/test-support/service';

export { TEST_API_KEY };

type App = ReturnType<typeof createApp>;

export interface TestApp {
  /** The app; its `request` sends the install's key unless the request carries credentials of its own. */
  app: App;
  /** `request` as a client without any credentials sends it. */
  anonymous: App['request'];
  config: RuntimeConfig;
  library: LibraryCache;
  auth: AuthService;
  live: LiveEvents;
  install: TempInstall;
  close(): Promise<void>;
}

/** A job client for routes that never reach the queue; `ready` decides what ping answers. */
export function stubJobs(ready = true): JobClient {
  const fail = () => Promise.reject(new Error('the queue is not part of this test'));
  return {
    submit: fail,
    queueTranscodes: fail,
    reprioritize: fail,
    removeWaiting: fail,
    setPaused: fail,
    progressOf: fail,
    get: fail,
    list: fail,
    stats: fail,
    memory: fail,
    workers: fail,
    ping: async () => ready,
    queues: () => [],
    close: async () => {},
  };
}

/** Job events for tests that do not reach the queue: none ever come, and no job is active. */
export function stubJobEvents(): JobEvents {
  const listeners = new Set<unknown>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    active: async () => [],
    readers: () => 0,
    listeners: () => listeners.size,
    close: async () => {},
  };
}

export async function testApp(
  opts: {
    toml?: string;
    jobs?: JobClient;
    jobEvents?: JobEvents;
    urlBase?: string;
    heartbeatMs?: number;
    webRoot?: string;
    owner?: Ownership;
    notifyTimeoutMs?: number;
  } = {},
): Promise<TestApp> {
  const install = await tempInstall(opts.toml);
  const config = await createRuntimeConfig({ configFile: install.configFile, pollMs: 50 });
  const logger = createLogger({ name: 'api-test', level: 'silent' });
  const library = await createLibraryCache({ index: config.data.index(), pollMs: 50 });
  const auth = createAuthService({ store: config.data.auth(), configuredKey: () => config.current().app.api_key });
  const live = createLiveEvents({ jobEvents: opts.jobEvents ?? stubJobEvents(), config, library, logger, heartbeatMs: opts.heartbeatMs });
  const app = createApp({
    config,
    jobs: opts.jobs ?? stubJobs(),
    logger,
    library,
    auth,
    live,
    urlBase: opts.urlBase,
    webRoot: opts.webRoot,
    owner: opts.owner,
    notifyTimeoutMs: opts.notifyTimeoutMs,
  });
  const anonymous = app.request;
  app.request = (input, init, ...rest) => anonymous(input, withKey(input, init), ...rest);
  return {
    app,
    anonymous,
    auth,
    config,
    library,
    live,
    install,
    async close() {
      live.close();
      library.close();
      config.close();
      await install.cleanup();
    },
  };
}

const CREDENTIALS = ['x-api-key', 'authorization', 'cookie'];

function withKey(input: RequestInfo | URL, init: RequestInit | undefined): RequestInit | undefined {
  const own = new Headers(input instanceof Request ? input.headers : undefined);
  new Headers(init?.headers).forEach((v, k) => own.set(k, v));
  const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
  if (CREDENTIALS.some((h) => own.has(h)) || url.searchParams.has('api_key')) return init;
  own.set('x-api-key', TEST_API_KEY);
  return { ...init, headers: own };
}
