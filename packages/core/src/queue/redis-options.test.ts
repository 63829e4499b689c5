import { describe, expect, it } from 'vitest';
import { apiRedisOptions, DEFAULT_REDIS_URL, redisOptionsFromUrl, workerRedisOptions } from './redis-options.ts';

describe('redisOptionsFromUrl', () => {
  it('reads the default URL', () => {
    expect(DEFAULT_REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(redisOptionsFromUrl(DEFAULT_REDIS_URL)).toEqual({ host: '127.0.0.1', port: 6379, db: 0 });
  });

  it('defaults the port to 6379 and the db to 0', () => {
    expect(redisOptionsFromUrl('redis://redis')).toEqual({ host: 'redis', port: 6379, db: 0 });
    expect(redisOptionsFromUrl('redis://redis/')).toEqual({ host: 'redis', port: 6379, db: 0 });
  });

  it('reads rediss:// with user, password, port and db, turning TLS on', () => {
    expect(redisOptionsFromUrl('rediss://user:pw@host:6380/2')).toEqual({
      host: 'host',
      port: 6380,
      username: 'user',
      password: 'pw',
      db: 2,
      tls: {},
    });
  });

  it('reads a password without a user', () => {
    const opts = redisOptionsFromUrl('redis://:s3cret@cache.local:7000/5');
    expect(opts).toEqual({ host: 'cache.local', port: 7000, password: 's3cret', db: 5 });
    expect(opts).not.toHaveProperty('username');
    expect(opts).not.toHaveProperty('tls');
  });

  it('decodes percent-encoded credentials', () => {
    const opts = redisOptionsFromUrl('redis://us%40er:p%40ss%3Aword%2F@host:6379/0');
    expect(opts.username).toBe('us@er');
    expect(opts.password).toBe('p@ss:word/');
  });

  it('refuses something that is not a URL, naming REDIS_URL', () => {
    expect(() => redisOptionsFromUrl('localhost:6379')).toThrow(/REDIS_URL/);
    expect(() => redisOptionsFromUrl('not a url')).toThrow(/REDIS_URL is not a URL/);
  });

  it('refuses other schemes', () => {
    expect(() => redisOptionsFromUrl('http://host:6379')).toThrow(/redis:\/\/ or rediss:\/\//);
    expect(() => redisOptionsFromUrl('tcp://host:6379')).toThrow(/tcp:/);
  });

  it('unwraps an IPv6 host so that it can be dialled', () => {
    expect(redisOptionsFromUrl('redis://[::1]:6390')).toMatchObject({ host: '::1', port: 6390 });
  });

  it.each(['redis://host/abc', 'redis://host/-1', 'redis://host/1.5', 'redis://host/2/x'])('refuses a bad database number in %s', (url) => {
    expect(() => redisOptionsFromUrl(url)).toThrow(/database number/);
  });
});

describe('apiRedisOptions and workerRedisOptions', () => {
  it('keep the URL options; the API fails fast, the worker waits', () => {
    const api = apiRedisOptions('rediss://u:p@h:6380/3');
    expect(api).toMatchObject({ host: 'h', port: 6380, username: 'u', password: 'p', db: 3, tls: {} });
    expect(api.enableOfflineQueue).toBe(false);
    expect(api.maxRetriesPerRequest).toBe(1);
    expect(api.connectTimeout).toBeLessThanOrEqual(2000);
    const worker = workerRedisOptions('redis://h:6379/1');
    expect(worker).toMatchObject({ host: 'h', port: 6379, db: 1 });
    expect(worker.maxRetriesPerRequest).toBeNull();
    for (const opts of [api, worker]) {
      expect(opts.retryStrategy!(1)).toBeGreaterThan(0);
      expect(opts.retryStrategy!(1000)).toBeLessThanOrEqual(2000);
    }
  });
});
