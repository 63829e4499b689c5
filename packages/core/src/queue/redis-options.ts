import type { RedisOptions } from 'ioredis';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** ioredis options from a `redis://` or `rediss://` URL (BullMQ takes options, not a URL). */
export function redisOptionsFromUrl(url: string): RedisOptions {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`REDIS_URL is not a URL: ${url}`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new Error(`REDIS_URL must start with redis:// or rediss://, got ${u.protocol}//`);
  }
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new Error(`REDIS_URL has a bad database number: ${u.pathname}`);
  return {
    host: u.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    db,
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/**
 * The API answers 503 instead of hanging while Redis is away: commands fail at once when the
 * connection is down, and reconnection keeps trying in the background.
 */
export function apiRedisOptions(url: string): RedisOptions {
  return {
    ...redisOptionsFromUrl(url),
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  };
}

/** Workers block on Redis and must wait through an outage rather than fail their jobs. */
export function workerRedisOptions(url: string): RedisOptions {
  return {
    ...redisOptionsFromUrl(url),
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  };
}
