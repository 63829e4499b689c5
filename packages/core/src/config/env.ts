import { QUEUE_NAMES, type QueueName } from '@mo/shared';
import { DEFAULT_CONFIG_FILE } from './load.ts';
import { DEFAULT_REDIS_URL } from '../queue/redis-options.ts';
import { parseWorkerQueues } from '../queue/worker-host.ts';

export interface ProcessEnv {
  configFile: string;
  redisUrl: string;
  queuePrefix: string;
  port: number;
  host: string;
  workerQueues: QueueName[];
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
  };
}
