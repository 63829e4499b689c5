import { describe, expect, it } from 'vitest';
import { healthWarnings, type DriveHealth, type HealthInputs } from './health-warnings.ts';

const GIB = 1024 ** 3;
const healthy: HealthInputs = {
  drives: [{ name: 'disk1', path: '/mnt/disk1', state: 'mounted', free_bytes: 500 * GIB, total_bytes: 1000 * GIB }],
  queues: [
    { queue: 'scan', workers: 1, waiting: 3 },
    { queue: 'transcode', workers: 0, waiting: 0 },
  ],
  redis: { used_bytes: 10_000_000, max_bytes: 100_000_000 },
  provider: null,
  lastPass: { failed: false, finished_at: '2026-11-28T06:00:00.000Z', error: null },
};
const drive = (d: Partial<DriveHealth>): HealthInputs => ({ ...healthy, drives: [{ ...healthy.drives[0]!, ...d }] });

describe('healthWarnings', () => {
  it('has nothing to say of a healthy service, nor of a queue without worker and without jobs', () => {
    expect(healthWarnings(healthy)).toEqual([]);
  });

  it.each<[string, HealthInputs, string, string, RegExp]>([
    [
      'a drive whose path is missing',
      drive({ state: 'missing', free_bytes: null, total_bytes: null }),
      'drive-missing',
      'disk1',
      /disk1 is not mounted: \/mnt\/disk1 does not exist.*Mount the disk/,
    ],
    ['a drive that is an empty folder', drive({ state: 'empty' }), 'drive-empty', 'disk1', /\/mnt\/disk1 is an empty folder.*mount it/],
    [
      'a drive under its margin (2 %, 1 GiB at most)',
      drive({ free_bytes: GIB - 1 }),
      'drive-low-space',
      'disk1',
      /1\.1 GB free, under the 1\.1 GB kept free.*Free some space/,
    ],
    [
      'a small drive under 2 % of its size',
      drive({ free_bytes: 1_000_000, total_bytes: 100_000_000 }),
      'drive-low-space',
      'disk1',
      /1 MB free, under the 2 MB kept free/,
    ],
    [
      'a queue with jobs and no worker',
      { ...healthy, queues: [{ queue: 'transcode', workers: 0, waiting: 4 }] },
      'queue-without-worker',
      'transcode',
      /4 transcode jobs wait and no worker takes them\. Start a worker with transcode in its WORKER_QUEUES/,
    ],
    ['one job and no worker', { ...healthy, queues: [{ queue: 'notify', workers: 0, waiting: 1 }] }, 'queue-without-worker', 'notify', /^1 notify job waits/],
    [
      'Redis at 90 % of maxmemory',
      { ...healthy, redis: { used_bytes: 90_000_000, max_bytes: 100_000_000 } },
      'redis-memory',
      'redis',
      /uses 90 MB of its 100 MB maxmemory \(90 %\).*Raise maxmemory/,
    ],
    [
      'the provider failing',
      { ...healthy, provider: { name: 'tvmaze', since: '2026-11-28T05:00:00.000Z', error: 'tvmaze answered 503' } },
      'provider-failing',
      'tvmaze',
      /tvmaze have failed since 2026-11-28T05:00:00.000Z \(tvmaze answered 503\)/,
    ],
    [
      'the last pass failed',
      { ...healthy, lastPass: { failed: true, finished_at: '2026-11-28T06:00:00.000Z', error: 'EACCES' } },
      'pass-failed',
      'scan-pass',
      /last scanner pass failed at 2026-11-28T06:00:00.000Z: EACCES\. Fix the cause/,
    ],
  ])('warns of %s', (_name, inputs, code, subject, message) => {
    const warnings = healthWarnings(inputs);
    expect(warnings.map((w) => [w.code, w.subject])).toEqual([[code, subject]]);
    expect(warnings[0]!.message).toMatch(message);
  });

  it.each<[string, HealthInputs]>([
    ['Redis just under 90 %', { ...healthy, redis: { used_bytes: 89_999_999, max_bytes: 100_000_000 } }],
    ['Redis without maxmemory', { ...healthy, redis: { used_bytes: 10 * GIB, max_bytes: 0 } }],
    ['Redis that cannot be asked', { ...healthy, redis: null }],
    ['a drive at its margin exactly', drive({ free_bytes: GIB, total_bytes: 1000 * GIB })],
    ['a drive whose size statfs did not give', drive({ free_bytes: null, total_bytes: null })],
    ['no pass yet', { ...healthy, lastPass: null }],
  ])('says nothing of %s', (_name, inputs) => {
    expect(healthWarnings(inputs)).toEqual([]);
  });

  it('lists every problem at once: drives first, then queues, Redis, the provider and the pass', () => {
    const warnings = healthWarnings({
      drives: [
        { name: 'a', path: '/a', state: 'missing', free_bytes: null, total_bytes: null },
        { name: 'b', path: '/b', state: 'mounted', free_bytes: 0, total_bytes: 10 * GIB },
      ],
      queues: [{ queue: 'media', workers: 0, waiting: 2 }],
      redis: { used_bytes: 95, max_bytes: 100 },
      provider: { name: 'tvmaze', since: 'x', error: 'y' },
      lastPass: { failed: true, finished_at: null, error: null },
    });
    expect(warnings.map((w) => w.code)).toEqual([
      'drive-missing',
      'drive-low-space',
      'queue-without-worker',
      'redis-memory',
      'provider-failing',
      'pass-failed',
    ]);
    expect(warnings.at(-1)!.message).toMatch(/^The last scanner pass failed\. Fix/);
  });
});
