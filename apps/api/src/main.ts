import { serve } from '@hono/node-server';
import {
  ConfigError,
  createAuthService,
  createJobClient,
  createJobEvents,
  createLibraryCache,
  createLogger,
  createRuntimeConfig,
  readProcessEnv,
} from '@mo/core';
import { applyUmask, NO_OWNERSHIP, ownershipFromEnv, type Ownership } from '@mo/core/fs';
import { useProbeConcurrency } from '@mo/core/media';
import { createApp } from './app.ts';
import { findWebRoot } from './routes/web.ts';
import { createLiveEvents } from './http/live-events.ts';
import { serverWithoutUrlBase } from './http/url-base.ts';

/** Under the 10 s after which `docker stop` (and scripts/start) kill: requests in flight get this long. */
const SHUTDOWN_GRACE_MS = 8000;

async function main() {
  const env = readProcessEnv(process.env);
  const config = await createRuntimeConfig({ configFile: env.configFile });
  const logger = createLogger({ name: 'api', level: config.current().app.log_level });
  // An undo makes download folders again: they follow PUID, PGID and UMASK as the worker's imports do.
  applyUmask(process.env);
  let owner: Ownership = NO_OWNERSHIP;
  try {
    owner = ownershipFromEnv(process.env);
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'PUID/PGID cannot be applied by the API: folders an undo makes again keep its own ids');
  }
  useProbeConcurrency(() => config.current().app.probe_concurrency);
  config.onChange((next, prev) => {
    if (next.app.log_level !== prev.app.log_level) logger.level = next.app.log_level;
  });
  const jobs = createJobClient({ redisUrl: env.redisUrl, prefix: env.queuePrefix, logger });
  const library = await createLibraryCache({ index: config.data.index(), logger });
  const auth = createAuthService({ store: config.data.auth(), configuredKey: () => config.current().app.api_key });
  // Made before the first request, so the owner can read it from the data folder right away.
  await auth.apiKey();
  if (!auth.keyFromConfig()) logger.info({ file: config.data.auth().apiKey.file }, 'API key kept in the data folder');
  const jobEvents = createJobEvents({ redisUrl: env.redisUrl, prefix: env.queuePrefix, logger });
  const live = createLiveEvents({ jobEvents, config, library, logger });
  const webRoot = findWebRoot(process.env.WEB_ROOT);
  if (webRoot === null) logger.warn('the web UI is not built (pnpm build); / answers 404 until it is');
  const app = createApp({ config, jobs, logger, library, auth, live, urlBase: env.urlBase, webRoot, owner });
  const server = serve({ fetch: app.fetch, port: env.port, hostname: env.host, createServer: serverWithoutUrlBase(env.urlBase) }, async (info) => {
    logger.info({ port: info.port, host: env.host, url_base: env.urlBase, config: env.configFile }, 'api listening');
    const token = await auth.setupToken();
    if (token !== null) {
      const host = env.host === '0.0.0.0' || env.host === '::' ? 'localhost' : env.host.includes(':') ? `[${env.host}]` : env.host;
      const setup_url = `http://${host}:${info.port}${env.urlBase}/setup?token=${token}`;
      logger.info({ setup_url }, 'no owner account yet: open the set-up link to create it (the link works once)');
    }
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    const force = setTimeout(() => {
      logger.warn('requests still open after the grace period; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    server.close(async () => {
      await jobEvents.close();
      await jobs.close();
      library.close();
      config.close();
      logger.info('stopped');
      process.exit(0);
    });
    // Event streams never end on their own; ended, their connections go idle and close too.
    live.close();
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
