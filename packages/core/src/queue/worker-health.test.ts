import { describe, expect, it } from 'vitest';
import type { WorkerRecord } from '@mo/shared';
import { heartbeatAgeMs, isAlive, liveWorkersPerQueue, MISSED_BEATS, workersReport, workerView } from './worker-health.ts';

const NOW = Date.parse('2025-01-02T03:04:05.000Z');

function record(fields: Partial<WorkerRecord> = {}): WorkerRecord {
  return {
    id: 'box:7:aa',
    host: 'box',
    pid: 7,
    queues: ['transcode'],
    concurrency: { transcode: 1 },
    encoders: ['libx264'],
    encoder_errors: { h264_nvenc: 'Cannot load libcuda.so.1' },
    encoders_tested_at: '2025-01-02T03:00:00.000Z',
    started_at: '2025-01-02T02:59:58.000Z',
    heartbeat_ms: 10_000,
    ttl_ms: 300_000,
    ...fields,
  };
}

describe('heartbeatAgeMs', () => {
  it('is the part of its lifetime the record has used', () => {
    expect(heartbeatAgeMs(300_000, 300_000)).toBe(0);
    expect(heartbeatAgeMs(300_000, 299_001)).toBe(999);
    expect(heartbeatAgeMs(300_000, 1)).toBe(299_999);
    expect(heartbeatAgeMs(300_000, 0)).toBe(300_000);
  });

  it('is never negative, even for a lifetime longer than the reader expects', () => {
    expect(heartbeatAgeMs(1000, 5000)).toBe(0);
  });

  it('has no answer for a key without a lifetime (-1) or one that is gone (-2)', () => {
    expect(heartbeatAgeMs(300_000, -1)).toBeNull();
    expect(heartbeatAgeMs(300_000, -2)).toBeNull();
  });
});

describe('isAlive', () => {
  it(`allows ${MISSED_BEATS} missed beats and no more`, () => {
    expect(MISSED_BEATS).toBe(3);
    expect(isAlive(0, 10_000)).toBe(true);
    expect(isAlive(10_001, 10_000)).toBe(true);
    expect(isAlive(29_999, 10_000)).toBe(true);
    expect(isAlive(30_000, 10_000)).toBe(true);
    expect(isAlive(30_001, 10_000)).toBe(false);
    expect(isAlive(299_999, 10_000)).toBe(false);
  });

  it("follows each writer's own beat", () => {
    expect(isAlive(301, 100)).toBe(false);
    expect(isAlive(300, 100)).toBe(true);
    expect(isAlive(50_000, 20_000)).toBe(true);
  });
});

describe('workerView', () => {
  it('gives the record without its beat and lifetime, seen when it was last written, and alive', () => {
    expect(workerView({ record: record(), pttlMs: 295_000 }, NOW)).toEqual({
      id: 'box:7:aa',
      host: 'box',
      pid: 7,
      queues: ['transcode'],
      concurrency: { transcode: 1 },
      encoders: ['libx264'],
      encoder_errors: { h264_nvenc: 'Cannot load libcuda.so.1' },
      encoders_tested_at: '2025-01-02T03:00:00.000Z',
      started_at: '2025-01-02T02:59:58.000Z',
      last_seen: '2025-01-02T03:04:00.000Z',
      alive: true,
    });
  });

  it('marks a worker three beats late as not alive, and still lists it', () => {
    const view = workerView({ record: record(), pttlMs: 300_000 - 30_001 }, NOW)!;
    expect(view.alive).toBe(false);
    expect(view.last_seen).toBe(new Date(NOW - 30_001).toISOString());
  });

  it('leaves out a key that has no lifetime', () => {
    expect(workerView({ record: record(), pttlMs: -1 }, NOW)).toBeNull();
  });
});

describe('liveWorkersPerQueue', () => {
  it('names every queue, with 0 where no worker consumes it', () => {
    expect(liveWorkersPerQueue([])).toEqual({
      scan: { workers: 0 },
      library: { workers: 0 },
      media: { workers: 0 },
      transcode: { workers: 0 },
      notify: { workers: 0 },
    });
  });

  it('counts each live worker once per queue it consumes', () => {
    const counts = liveWorkersPerQueue([
      { queues: ['scan', 'library', 'media'], alive: true },
      { queues: ['transcode'], alive: true },
      { queues: ['transcode', 'media'], alive: true },
    ]);
    expect(counts).toEqual({ scan: { workers: 1 }, library: { workers: 1 }, media: { workers: 2 }, transcode: { workers: 2 }, notify: { workers: 0 } });
  });

  it('leaves out workers that are not alive: their queues would wait for ever', () => {
    expect(liveWorkersPerQueue([{ queues: ['transcode'], alive: false }]).transcode).toEqual({ workers: 0 });
  });

  it('counts a queue named twice once, and ignores queues this service does not know', () => {
    const counts = liveWorkersPerQueue([{ queues: ['scan', 'scan', 'thumbnails', 'constructor', '__proto__'], alive: true }]);
    expect(counts).toEqual({ scan: { workers: 1 }, library: { workers: 0 }, media: { workers: 0 }, transcode: { workers: 0 }, notify: { workers: 0 } });
  });
});

describe('workersReport', () => {
  it('lists workers by host, then start, then id, and counts only the live ones per queue', () => {
    const report = workersReport(
      [
        { record: record({ id: 'nas:2:bb', host: 'nas', queues: ['scan', 'library', 'media'], started_at: '2025-01-02T03:00:00.000Z' }), pttlMs: 299_000 },
        { record: record({ id: 'gpu:9:cc', host: 'gpu' }), pttlMs: 100_000 },
        { record: record({ id: 'nas:1:aa', host: 'nas', queues: ['media'], started_at: '2025-01-02T03:00:00.000Z' }), pttlMs: 299_000 },
        { record: record({ id: 'nas:3:dd', host: 'nas', queues: ['scan'], started_at: '2025-01-01T00:00:00.000Z' }), pttlMs: -1 },
        { record: record({ id: 'nas:4:ee', host: 'nas', queues: ['scan'], started_at: '2025-01-01T00:00:00.000Z' }), pttlMs: 299_000 },
      ],
      NOW,
    );
    expect(report.workers.map((w) => [w.id, w.alive])).toEqual([
      ['gpu:9:cc', false],
      ['nas:4:ee', true],
      ['nas:1:aa', true],
      ['nas:2:bb', true],
    ]);
    expect(report.queues).toEqual({ scan: { workers: 2 }, library: { workers: 1 }, media: { workers: 2 }, transcode: { workers: 0 }, notify: { workers: 0 } });
  });

  it('with no worker at all, every queue reports 0', () => {
    expect(workersReport([], NOW)).toEqual({
      workers: [],
      queues: { scan: { workers: 0 }, library: { workers: 0 }, media: { workers: 0 }, transcode: { workers: 0 }, notify: { workers: 0 } },
    });
  });
});
