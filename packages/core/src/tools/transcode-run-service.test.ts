import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialState, type Config, type State, type TranscodeStatus } from '@mo/shared';
import { validateFileConfig } from '../config/load.ts';
import { AppError } from '../errors.ts';
import { createLogger } from '../logging/logger.ts';
import { workJournal } from '../media/work-journal.ts';
import type { JobContext } from '../queue/worker-host.ts';
import type { StateStore } from '../state/state-store.ts';
import type { TranscodeRecords } from '../state/transcode-records.ts';
import { dataDir } from '../data-dir/data-dir.ts';
import { openStateStores } from '../data-dir/state-stores.ts';
import type { JobOutcome } from '../queue/job-view.ts';
import { queuedEntry } from './transcode-entries.ts';
import { queuePauseChange, transcodeRunService, type QueuePause } from './transcode-run-service.ts';
import { transcodeStore } from './transcode-store.ts';

const logger = createLogger({ name: 'transcode-run-service-test', level: 'silent' });

let dir: string;
let state: StateStore<State>;
let transcodeLog: TranscodeRecords;
let cfg: Config;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mo-transcode-run-service-'));
  ({ state, transcodes: transcodeLog } = await openStateStores(dataDir(dir)));
  cfg = validateFileConfig('test', { app: { dry_run: false }, paths: { downloads: dir, config: dir, data: dir }, drives: [{ name: 'disk1', path: dir }] });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

class Final extends Error {}

function service(jobOutcomes?: (ids: string[]) => Promise<Map<string, JobOutcome | null>>, queuePause?: QueuePause) {
  const located: string[] = [];
  const svc = transcodeRunService({
    config: () => cfg,
    records: { read: () => state.read(), current: () => initialState() },
    store: transcodeStore(transcodeLog),
    journal: () => workJournal(dataDir(dir)),
    locate: async (path) => {
      located.push(path);
      throw new AppError('not_found', `${path} is gone`);
    },
    final: (err) => new Final((err as Error).message),
    refuseInDryRun: (c, what) => {
      if (c.app.dry_run) throw new AppError('conflict', `dry_run is on: ${what} was not run`);
    },
    pausedRetryMs: 1234,
    logger,
    ...(jobOutcomes ? { jobOutcomes } : {}),
    ...(queuePause ? { queuePause } : {}),
  });
  return { svc, located };
}

function ctx(jobId: string, deferred: number[] = []): JobContext {
  return {
    jobId,
    attempt: 1,
    signal: new AbortController().signal,
    progress: async () => {},
    defer: async (ms) => {
      deferred.push(ms);
      throw new Error('deferred');
    },
    log: logger,
  };
}

const item = { path: '/m/a.avi', ext: '.avi', bytes: 1, kind: 'movie' as const, title: 'A', status: 'queued' as const };
const rec = (status: TranscodeStatus['status'], extra: Partial<TranscodeStatus> = {}): TranscodeStatus => ({
  ...queuedEntry(new Date().toISOString()),
  status,
  ...extra,
});
const put = (transcodes: Record<string, TranscodeStatus>, paused = false) => state.update((s) => ({ ...s, transcodes, transcoder_paused: paused }));

describe('transcodeRunService.run: what the record says decides', () => {
  it('refuses for good in dry_run, and a job whose entry another job holds', async () => {
    const { svc } = service();
    await put({ [item.path]: rec('queued', { job_id: 'tr-other' }) });
    await expect(svc.run(item, ctx('tr-mine'))).rejects.toBeInstanceOf(Final);
    cfg = { ...cfg, app: { ...cfg.app, dry_run: true } };
    await expect(svc.run(item, ctx('tr-other'))).rejects.toThrow(/dry_run is on/);
    await expect(svc.run(item, ctx('tr-other'))).rejects.toBeInstanceOf(Final);
  });

  it('while paused puts the job back to wait, touching nothing', async () => {
    const { svc, located } = service();
    await put({ [item.path]: rec('queued', { job_id: 'tr-1' }) }, true);
    const deferred: number[] = [];
    await expect(svc.run(item, ctx('tr-1', deferred))).rejects.toThrow('deferred');
    expect(deferred).toEqual([1234]);
    expect(located).toEqual([]);
    expect((await state.read()).transcodes[item.path]).toMatchObject({ status: 'queued', job_id: 'tr-1' });
  });

  it('delivered again after it finished, answers done without transcoding', async () => {
    const { svc } = service();
    await put({ [item.path]: rec('done', { job_id: 'tr-1', output: '/m/a.mp4', original: 'removed' }) });
    expect(await svc.run(item, ctx('tr-1'))).toMatchObject({ item: { status: 'done' }, output: '/m/a.mp4', command: [], original_removed: false });
  });

  it('a file that has gone fails the entry with the reason, for good', async () => {
    const { svc } = service();
    await put({ [item.path]: rec('queued', { job_id: 'tr-1' }) });
    await expect(svc.run(item, ctx('tr-1'))).rejects.toBeInstanceOf(Final);
    expect((await state.read()).transcodes[item.path]).toMatchObject({ status: 'failed', error: '/m/a.avi is gone' });
  });
});

describe('transcodeRunService: settling', () => {
  it('onFailed asks the queue of that job only, and a queue out of reach is only logged', async () => {
    const asked: string[][] = [];
    const { svc } = service(async (ids) => {
      asked.push(ids);
      if (ids.includes('tr-2')) throw new Error('redis away');
      return new Map(ids.map((id) => [id, { state: 'failed', reason: 'stalled' }]));
    });
    await put({ '/m/a.avi': rec('running', { job_id: 'tr-1' }), '/m/b.avi': rec('running', { job_id: 'tr-2' }) });
    await svc.onFailed('tr-1');
    await expect(svc.onFailed('tr-2')).resolves.toBeUndefined();
    expect(asked).toEqual([['tr-1'], ['tr-2']]);
    const { transcodes } = await state.read();
    expect([transcodes['/m/a.avi']!.status, transcodes['/m/b.avi']!.status]).toEqual(['failed', 'running']);
  });

  it('keepSettled settles at once and on every tick, and no more once stopped', async () => {
    let asked = 0;
    const { svc } = service(async (ids) => {
      asked += 1;
      return new Map(ids.map((id) => [id, { state: 'active', reason: null }]));
    });
    await put({ '/m/a.avi': rec('running', { job_id: 'tr-1' }) });
    const stop = svc.keepSettled(20);
    await new Promise((r) => setTimeout(r, 90));
    stop();
    // A settle a tick began before the stop may still ask the queue; none begins after it.
    await new Promise((r) => setTimeout(r, 60));
    const after = asked;
    expect(after).toBeGreaterThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 60));
    expect(asked).toBe(after);
  });

  it('without the queue to ask, settling jobs is an error, not a silent nothing', async () => {
    const { svc } = service();
    await put({ '/m/a.avi': rec('running', { job_id: 'tr-1' }) });
    await expect(svc.settle()).rejects.toThrow(/jobOutcomes/);
  });
});

describe("transcodeRunService: the queue's own pause follows the records", () => {
  it('changes it only where the two disagree, always to what the records say', () => {
    expect(queuePauseChange(true, false)).toBe(true);
    expect(queuePauseChange(false, true)).toBe(false);
    expect(queuePauseChange(true, true)).toBeNull();
    expect(queuePauseChange(false, false)).toBeNull();
  });

  /** The queue's pause in memory; `down` makes every call fail as if Redis were out of reach. */
  function memoryPause(paused: boolean) {
    const calls: boolean[] = [];
    const pause = { paused, down: false, calls };
    const port: QueuePause = {
      async isPaused() {
        if (pause.down) throw new Error('redis away');
        return pause.paused;
      },
      async setPaused(p) {
        if (pause.down) throw new Error('redis away');
        calls.push(p);
        pause.paused = p;
      },
    };
    return { port, pause };
  }

  it('pauses a running queue whose records are paused, resumes a paused one whose records run, and leaves one that agrees', async () => {
    const queue = memoryPause(false);
    const { svc } = service(undefined, queue.port);
    await put({}, true);
    expect(await svc.syncQueuePause()).toBe(true);
    expect(queue.pause.paused).toBe(true);
    expect(await svc.syncQueuePause()).toBeNull();
    await put({}, false);
    expect(await svc.syncQueuePause()).toBe(false);
    expect(queue.pause.calls).toEqual([true, false]);
  });

  it('the quiet sync logs a queue out of reach, and keepQueuePauseSynced syncs at once and on every tick until stopped', async () => {
    const queue = memoryPause(false);
    const { svc } = service(undefined, queue.port);
    await put({}, true);
    queue.pause.down = true;
    await expect(svc.syncQueuePauseQuietly()).resolves.toBeNull();
    queue.pause.down = false;
    const stop = svc.keepQueuePauseSynced(20);
    await vi.waitFor(() => expect(queue.pause.paused).toBe(true));
    // As a Redis flushed meanwhile: the next tick pauses it again.
    queue.pause.paused = false;
    await vi.waitFor(() => expect(queue.pause.paused).toBe(true));
    stop();
    // A sync already under way at the stop may still end; none begins after it.
    await new Promise((r) => setTimeout(r, 60));
    queue.pause.paused = false;
    await new Promise((r) => setTimeout(r, 60));
    expect(queue.pause.paused).toBe(false);
  });

  it('without the queue to ask, syncing is an error, not a silent nothing', async () => {
    await expect(service().svc.syncQueuePause()).rejects.toThrow(/queuePause/);
  });
});
