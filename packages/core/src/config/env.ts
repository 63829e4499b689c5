import { QUEUE_NAMES, type QueueName } from '@mo/shared';
import { DEFAULT_CONFIG_FILE } from './load.ts';
import { DEFAULT_REDIS_URL } from '../queue/redis-options.ts';
import { parseWorkerConcurrency, parseWorkerQueues } from '../queue/worker-host.ts';

export interface ProcessEnv {
  configFile: string;
  redisUrl: string;
  queuePrefix: string;
  port: number;
  host: string;
  workerQueues: QueueName[];
  /** Jobs run at a time per queue on this box (WORKER_CONCURRENCY); a queue left out runs one at a time. */
  workerConcurrency: Partial<Record<QueueName, number>>;
  /** The path prefix a reverse proxy publishes the service under (`/media-organizer`), or ''. */
  urlBase: string;
}

/** `/media-organizer/` and `media-organizer` both mean `/media-organizer`; `/` means none. */
export function parseUrlBase(value: string | undefined): string {
  const trimmed = (value ?? '').trim().replace(/^\/*/, '/').replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (!/^(?:\/[A-Za-z0-9._~-]+)+$/.test(trimmed) || trimmed.split('/').some((seg) => seg === '.' || seg === '..'))
    throw new Error(`URL_BASE must be a path such as /media-organizer, got "${value}"`);
  // The API answers under URL_BASE as well as at its root: a prefix that is one of its own paths
  // would take /api/…, /assets/… or /setup away from them.
  if (/^\/(?:api|assets|setup)(?:\/|$)/.test(trimmed))
    throw new Error(`URL_BASE may not begin with /api, /assets or /setup (the API's own paths), got "${value}"`);
  return trimmed;
}

/** The environment variables of CONTRACT.md, checked so that a typo stops start-up with its name. */
export function readProcessEnv(env: NodeJS.ProcessEnv): ProcessEnv {
  const port = env.PORT === undefined || env.PORT === '' ? 8080 : /^\d{1,5}$/.test(env.PORT) ? Number(env.PORT) : NaN;
  if (!Number.isInteger(port) || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const prefix = env.QUEUE_PREFIX || 'mo';
  if (!/^[A-Za-z0-9_.{}-]+$/.test(prefix)) throw new Error(`QUEUE_PREFIX may hold letters, digits and _ . - { } only, got "${prefix}"`);
  return {
    configFile: env.MEDIA_ORGANIZER_CONFIG || DEFAULT_CONFIG_FILE,
    redisUrl: env.REDIS_URL || DEFAULT_REDIS_URL,
    queuePrefix: prefix,
    port,
    host: env.HOST || '0.0.0.0',
    workerQueues: parseWorkerQueues(env.WORKER_QUEUES, QUEUE_NAMES),
    workerConcurrency: parseWorkerConcurrency(env.WORKER_CONCURRENCY, QUEUE_NAMES),
    urlBase: parseUrlBase(env.URL_BASE),
  };
}

export interface WorkerMetricsEnv {
  port: number;
  host: string;
}

/**
 * `WORKER_METRICS_PORT`: the port a worker serves its own `/metrics` on (unset or empty: none);
 * `WORKER_METRICS_HOST`: the address it listens on. The endpoint asks for no key, so it listens on
 * 127.0.0.1 unless told otherwise (a container names 0.0.0.0 and publishes no port).
 */
export function readWorkerMetricsEnv(env: NodeJS.ProcessEnv): WorkerMetricsEnv | null {
  const value = env.WORKER_METRICS_PORT?.trim();
  if (!value) return null;
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= 1 && port <= 65535)) throw new Error(`WORKER_METRICS_PORT must be a port number from 1 to 65535, got "${env.WORKER_METRICS_PORT}"`);
  return { port, host: env.WORKER_METRICS_HOST?.trim() || '127.0.0.1' };
}
