import { describe, expect, it } from 'vitest';
import { QUEUE_NAMES } from '@mo/shared';
import { parseUrlBase, readProcessEnv, readWorkerMetricsEnv } from './env.ts';

describe('readProcessEnv', () => {
  it('gives the defaults of CONTRACT.md for an empty environment', () => {
    expect(readProcessEnv({})).toEqual({
      configFile: '/config/config.toml',
      redisUrl: 'redis://127.0.0.1:6379',
      queuePrefix: 'mo',
      port: 8080,
      host: '0.0.0.0',
      workerQueues: ['scan', 'library', 'media', 'transcode', 'notify'],
      workerConcurrency: {},
      urlBase: '',
    });
  });

  it('treats empty strings as unset', () => {
    expect(
      readProcessEnv({
        MEDIA_ORGANIZER_CONFIG: '',
        REDIS_URL: '',
        QUEUE_PREFIX: '',
        PORT: '',
        HOST: '',
        WORKER_QUEUES: '',
        WORKER_CONCURRENCY: '',
        URL_BASE: '',
      }),
    ).toEqual(readProcessEnv({}));
  });

  it('reads every variable', () => {
    expect(
      readProcessEnv({
        MEDIA_ORGANIZER_CONFIG: '/etc/mo/config.toml',
        REDIS_URL: 'redis://redis:6379/1',
        QUEUE_PREFIX: 'test-{run_1}.x',
        PORT: '3000',
        HOST: '127.0.0.1',
        WORKER_QUEUES: 'media,transcode',
        WORKER_CONCURRENCY: 'transcode=2, notify = 3',
        URL_BASE: '/media-organizer',
      }),
    ).toEqual({
      configFile: '/etc/mo/config.toml',
      redisUrl: 'redis://redis:6379/1',
      queuePrefix: 'test-{run_1}.x',
      port: 3000,
      host: '127.0.0.1',
      workerQueues: ['media', 'transcode'],
      workerConcurrency: { transcode: 2, notify: 3 },
      urlBase: '/media-organizer',
    });
  });

  it('accepts port 0 and 65535', () => {
    expect(readProcessEnv({ PORT: '0' }).port).toBe(0);
    expect(readProcessEnv({ PORT: '65535' }).port).toBe(65535);
  });

  it.each(['http', '80.5', '-1', '65536', '99999', 'NaN', '0x50', '1e3', ' 81 '])('refuses PORT=%s, naming PORT and the value', (port) => {
    expect(() => readProcessEnv({ PORT: port })).toThrow(/PORT/);
    expect(() => readProcessEnv({ PORT: port })).toThrow(port);
  });

  it.each(['mo:prod', 'a b', 'a/b', 'ü', 'pre*fix'])('refuses QUEUE_PREFIX=%j, naming it', (prefix) => {
    expect(() => readProcessEnv({ QUEUE_PREFIX: prefix })).toThrow(/QUEUE_PREFIX/);
    expect(() => readProcessEnv({ QUEUE_PREFIX: prefix })).toThrow(prefix);
  });

  it('refuses an unknown queue in WORKER_QUEUES, naming it', () => {
    expect(() => readProcessEnv({ WORKER_QUEUES: 'scan,thumbnails' })).toThrow(/thumbnails/);
  });

  it.each([
    ['transcode', /queue=number pairs/],
    ['transcode=two', /queue=number pairs/],
    ['transcode=2;media=2', /queue=number pairs/],
    ['thumbnails=2', /unknown queue: thumbnails/],
    ['transcode=0', /1 to 32/],
    ['transcode=33', /1 to 32/],
    ['scan=2', /scan queue runs one job at a time/],
    ['library=4', /library queue runs one job at a time/],
    ['media=2', /media queue runs one job at a time/],
    ['transcode=1,transcode=2', /twice/],
  ])('refuses WORKER_CONCURRENCY=%j, naming the problem', (value, message) => {
    expect(() => readProcessEnv({ WORKER_CONCURRENCY: value })).toThrow(message);
    expect(() => readProcessEnv({ WORKER_CONCURRENCY: value })).toThrow(/WORKER_CONCURRENCY/);
  });

  it('lets the serial queues say 1 out loud', () => {
    expect(readProcessEnv({ WORKER_CONCURRENCY: 'scan=1,library=1,media=1,notify=4' }).workerConcurrency).toEqual({ scan: 1, library: 1, media: 1, notify: 4 });
  });

  it('lists the queues in the order QUEUE_NAMES has by default', () => {
    expect(readProcessEnv({}).workerQueues).toEqual([...QUEUE_NAMES]);
  });

  it.each([
    ['/', ''],
    ['/mo', '/mo'],
    ['/mo/', '/mo'],
    ['mo', '/mo'],
    ['//mo//', '/mo'],
    ['/apps/media-organizer', '/apps/media-organizer'],
    ['/apis', '/apis'],
  ])('reads URL_BASE %j as %j', (raw, base) => {
    expect(parseUrlBase(raw)).toBe(base);
  });

  it.each(['/a b', '/a?x=1', '/a#b', '/a//b', '/a/../b', '/%2e%2e', 'http://host/mo', '/api', '/api/v1', '/assets', '/setup/'])(
    'refuses URL_BASE %j, naming it',
    (raw) => {
      expect(() => parseUrlBase(raw)).toThrow(/URL_BASE/);
    },
  );
});

describe('readWorkerMetricsEnv', () => {
  it('serves no metrics while WORKER_METRICS_PORT is unset or empty, whatever the host says', () => {
    expect(readWorkerMetricsEnv({})).toBeNull();
    expect(readWorkerMetricsEnv({ WORKER_METRICS_PORT: '', WORKER_METRICS_HOST: '0.0.0.0' })).toBeNull();
    expect(readWorkerMetricsEnv({ WORKER_METRICS_PORT: '  ' })).toBeNull();
  });

  it('listens on 127.0.0.1 unless WORKER_METRICS_HOST names another address', () => {
    expect(readWorkerMetricsEnv({ WORKER_METRICS_PORT: '9464' })).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(readWorkerMetricsEnv({ WORKER_METRICS_PORT: '1', WORKER_METRICS_HOST: '0.0.0.0' })).toEqual({ port: 1, host: '0.0.0.0' });
    expect(readWorkerMetricsEnv({ WORKER_METRICS_PORT: '65535', WORKER_METRICS_HOST: '::' })).toEqual({ port: 65535, host: '::' });
  });

  it.each(['0', '65536', '99999', '-1', '9464x', '9464.0', '0x10', 'metrics', '1e3'])('refuses WORKER_METRICS_PORT=%s, naming it', (value) => {
    expect(() => readWorkerMetricsEnv({ WORKER_METRICS_PORT: value })).toThrow(`WORKER_METRICS_PORT must be a port number from 1 to 65535, got "${value}"`);
  });
});
