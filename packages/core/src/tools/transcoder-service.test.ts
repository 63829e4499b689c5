import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '@mo/shared';
import { validateFileConfig } from '../config/load.ts';
import { createRuntimeConfig, type RuntimeConfig } from '../config/runtime-config.ts';
import { AppError } from '../errors.ts';
import { createLogger } from '../logging/logger.ts';
import type { MediaProbe } from '../media/probe.ts';
import { bullPriority, queuedEntry, type TranscodeRecord } from './transcode-entries.ts';
import { transcodeStore } from './transcode-store.ts';
import type { TranscodeEntry } from './transcoder-queue.ts';
import type { TranscoderFiles } from './transcoder-files.ts';
import { QUEUE_BATCH, runtimeTranscodeRecords, transcoderService, type TranscodeJobs } from './transcoder-service.ts';

const logger = createLogger({ name: 'transcoder-service-test', level: 'silent' });

let dir: string;
let drive: string;
let rt: RuntimeConfig;
let cfg: Config;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mo-transcoder-service-'));
  drive = join(dir, 'drive');
  await mkdir(join(dir, 'downloads'));
  const configFile = join(dir, 'config.toml');
  await writeFile(configFile, `[paths]\ndownloads = "${join(dir, 'downloads')}"\nconfig = "${dir}"\ndata = "${dir}"\n`);
  // Polled rarely: what the tests check is that the service sees its own writes without a re-read.
  rt = await createRuntimeConfig({ configFile, pollMs: 60_000 });
  cfg = validateFileConfig('test', {
    app: { dry_run: false },
    paths: { downloads: join(dir, 'downloads'), config: dir, data: dir },
    drives: [{ name: 'disk1', path: drive }],
  });
});
afterEach(async () => {
  rt.close();
  await rm(dir, { recursive: true, force: true });
});

const entry = (name: string): TranscodeEntry => ({ path: join(drive, 'Movies', name), ext: '.avi', bytes: 1, kind: 'movie', title: name });

/** The job queue in memory; every call after the first `downAfter` fails as if Redis were out of reach. */
function memoryJobs(opts: { downAfter?: number } = {}) {
  const jobs = new Map<string, { state: 'waiting' | 'active' | 'completed' | 'failed'; priority: number }>();
  let calls = 0;
  let paused = false;
  const reach = () => {
    calls += 1;
    if (opts.downAfter !== undefined && calls > opts.downAfter) throw new AppError('unavailable', 'the job queue cannot be reached (down)');
  };
  const port: TranscodeJobs = {
    async queue(batch) {
      reach();
      for (const j of batch) jobs.set(j.jobId, { state: 'waiting', priority: j.priority });
      return batch.map((j) => ({ id: j.jobId, queue: 'transcode' as const, state: 'waiting' as const }));
    },
    async removeWaiting(ids) {
      reach();
      return ids.filter((id) => jobs.get(id)?.state === 'waiting' && jobs.delete(id));
    },
    async setPaused(p) {
      reach();
      paused = p;
    },
    async progressOf() {
      return new Map();
    },
    async stateOf(id) {
      return jobs.get(id)?.state ?? null;
    },
    async reprioritize(id, priority) {
      reach();
      const job = jobs.get(id);
      if (job) job.priority = priority;
      return job !== undefined;
    },
    async cancel(id) {
      reach();
      jobs.delete(id);
    },
  };
  return { port, jobs, paused: () => paused, fail: () => (opts.downAfter = calls) };
}

/** Media files by name, each its identity: what the service may learn of the filesystem, and all it may change. */
function memoryFiles(names: Record<string, number> = {}) {
  const files = new Map(Object.entries(names).map(([name, ino]) => [name, { dev: 1, ino }]));
  const port: TranscoderFiles = {
    async guard(path, _cfg, extensions) {
      if (!files.has(path)) throw new AppError('not_found', `path: no such file: ${path}`, { key: 'path' });
      if (!extensions.includes(extname(path))) throw new AppError('bad_request', 'path: not a media file', { key: 'path' });
      return { requested: path, real: path };
    },
    async identity(real) {
      return files.get(real)!;
    },
    async remove(real, ino) {
      if (files.get(real)?.ino !== ino) return { removed: false, reason: `${real} changed since it was checked` };
      files.delete(real);
      return { removed: true, recycled_to: null };
    },
  };
  return { port, files };
}

function service(
  queue: TranscodeEntry[],
  jobs: TranscodeJobs,
  probe: (file: string) => Promise<MediaProbe> = () => Promise.reject(new Error('no probe')),
  files: TranscoderFiles = memoryFiles().port,
) {
  // Wired as the API's route wires it: the records as the runtime config holds them.
  return {
    svc: transcoderService({
      config: () => cfg,
      queue: async () => queue,
      records: runtimeTranscodeRecords(rt),
      store: transcodeStore(rt.transcodes),
      jobs,
      probe,
      files,
      logger,
    }),
  };
}

const records = async () => (await rt.state.read()).transcodes;
const setRecord = (path: string, rec: Partial<TranscodeRecord>) =>
  rt.state.update((s) => ({ ...s, transcodes: { ...s.transcodes, [path]: { ...queuedEntry(new Date().toISOString()), ...rec } } }));

describe('transcoderService: run-next and run-all', () => {
  it('run-next claims the first entry and queues its job under the id it was claimed with', async () => {
    const jobs = memoryJobs();
    const { svc } = service([entry('a.avi'), entry('b.avi')], jobs.port);
    const next = await svc.runNext();
    expect(next).toMatchObject({ kind: 'queued', item: { path: entry('a.avi').path, status: 'queued' } });
    const id = next.kind === 'queued' ? next.job.id : '';
    expect(jobs.jobs.get(id)).toMatchObject({ state: 'waiting' });
    expect((await records())[entry('a.avi').path]).toMatchObject({ status: 'queued', job_id: id });
    expect(rt.currentState().transcodes[entry('a.avi').path]).toMatchObject({ status: 'queued', job_id: id });
  });

  it('run-next refuses while paused and claims nothing', async () => {
    const { svc } = service([entry('a.avi')], memoryJobs().port);
    await svc.setPaused(true);
    await expect(svc.runNext()).rejects.toMatchObject({ code: 'conflict' });
    expect(await records()).toEqual({});
  });

  it('run-all queues every entry a batch at a time; a batch that cannot be queued is given back with every later one', async () => {
    const queue = Array.from({ length: QUEUE_BATCH * 2 + 5 }, (_, i) => entry(`m${String(i).padStart(4, '0')}.avi`));
    const jobs = memoryJobs({ downAfter: 1 });
    const { svc } = service(queue, jobs.port);
    const all = await svc.runAll();
    expect(all).toMatchObject({ kind: 'queued', paused: false });
    expect(all.kind === 'queued' && all.jobs).toHaveLength(QUEUE_BATCH);
    const held = Object.values(await records()).filter((r) => r.job_id !== null);
    expect(held).toHaveLength(QUEUE_BATCH);
    expect(held.every((r) => jobs.jobs.has(r.job_id!))).toBe(true);
  });

  it('run-all that cannot queue a single job throws and gives every entry back', async () => {
    const { svc } = service([entry('a.avi'), entry('b.avi')], memoryJobs({ downAfter: 0 }).port);
    await expect(svc.runAll()).rejects.toMatchObject({ code: 'unavailable' });
    expect(Object.values(await records()).filter((r) => r.job_id !== null)).toEqual([]);
  });

  it('run-all while paused queues the jobs all the same and says so', async () => {
    const { svc } = service([entry('a.avi')], memoryJobs().port);
    await svc.setPaused(true);
    expect(await svc.runAll()).toMatchObject({ kind: 'queued', paused: true, jobs: [{ path: entry('a.avi').path }] });
  });
});

describe('transcoderService: cancel, pause, priority', () => {
  it('cancel-all removes the waiting jobs and puts their entries back in line without a job', async () => {
    const jobs = memoryJobs();
    const { svc } = service([entry('a.avi'), entry('b.avi')], jobs.port);
    await svc.runAll();
    expect(await svc.cancelAll()).toBe(2);
    expect(jobs.jobs.size).toBe(0);
    // A record without a job says no more than no record: the entries wait in line as before run-all.
    expect(await records()).toEqual({});
  });

  it('cancel answers 404 for an unknown job and 409 for one already finished; a waiting one is recorded cancelled', async () => {
    const jobs = memoryJobs();
    const { svc } = service([entry('a.avi')], jobs.port);
    await expect(svc.cancel('tr-nope')).rejects.toMatchObject({ code: 'not_found' });
    const next = await svc.runNext();
    const id = next.kind === 'queued' ? next.job.id : '';
    jobs.jobs.set('tr-done', { state: 'completed', priority: 0 });
    await expect(svc.cancel('tr-done')).rejects.toMatchObject({ code: 'conflict' });
    expect(await svc.cancel(id)).toEqual({ id, queue: 'transcode', state: 'waiting' });
    expect((await records())[entry('a.avi').path]).toMatchObject({ status: 'failed', error: 'cancelled' });
  });

  it('a resume that cannot reach the queue leaves it paused; a pause that cannot still pauses the records', async () => {
    const jobs = memoryJobs();
    const { svc } = service([], jobs.port);
    jobs.fail();
    expect(await svc.setPaused(true)).toEqual({ paused: true });
    expect((await rt.state.read()).transcoder_paused).toBe(true);
    await expect(svc.setPaused(false)).rejects.toMatchObject({ code: 'unavailable' });
    expect((await rt.state.read()).transcoder_paused).toBe(true);
  });

  it('a priority moves the waiting job first: with the queue out of reach nothing changes', async () => {
    const jobs = memoryJobs();
    const { svc } = service([entry('a.avi'), entry('b.avi')], jobs.port);
    const next = await svc.runNext();
    const id = next.kind === 'queued' ? next.job.id : '';
    expect(await svc.prioritize({ path: entry('a.avi').path, priority: 5 })).toMatchObject({ path: entry('a.avi').path, priority: 5 });
    expect(jobs.jobs.get(id)!.priority).toBe(bullPriority(5));
    jobs.fail();
    await expect(svc.prioritize({ path: entry('a.avi').path, top: true })).rejects.toMatchObject({ code: 'unavailable' });
    expect((await records())[entry('a.avi').path]).toMatchObject({ priority: 5 });
    await expect(svc.prioritize({ path: join(drive, 'nope.avi'), priority: 1 })).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('transcoderService: discard original', () => {
  const video = {
    index: 0,
    type: 'video' as const,
    codec: 'h264',
    language: null,
    title: null,
    default: true,
    forced: false,
    channels: null,
    width: 1,
    height: 1,
  };
  const probe = (container: string): MediaProbe => ({ container, duration_seconds: 2, size_bytes: 1, streams: [video], others: [], chapters: 0 });

  const a = () => entry('a.avi');
  const mp4Of = () => join(drive, 'Movies', 'a.mp4');
  const verifies = async (f: string) => probe(f.endsWith('.mp4') ? 'mov,mp4' : 'avi');

  /** A done entry whose original was kept, its MP4 `ino` 2 beside it. */
  async function kept(original: number | null = 1) {
    const mp4 = mp4Of();
    await setRecord(a().path, {
      status: 'done',
      job_id: 'tr-1',
      output: mp4,
      original: 'kept',
      after: { bytes: 3, streams: [{ index: 0, type: 'video', codec: 'h264', language: null, default: true }] } as TranscodeRecord['after'],
    });
    return memoryFiles(original === null ? { [mp4]: 2 } : { [a().path]: original, [mp4]: 2 });
  }

  it('removes the original only once the MP4 still matches what the transcode verified', async () => {
    const files = await kept();
    const { svc } = service([a()], memoryJobs().port, verifies, files.port);
    expect(await svc.discardOriginal(a().path)).toMatchObject({ dry_run: false, removed: a().path });
    expect([...files.files.keys()]).toEqual([mp4Of()]);
    expect((await records())[a().path]).toMatchObject({ original: 'removed' });
  });

  it('keeps the original when the MP4 no longer matches, or when its name leads to the MP4 itself', async () => {
    const files = await kept();
    await expect(service([a()], memoryJobs().port, async () => probe('avi'), files.port).svc.discardOriginal(a().path)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('no longer matches'),
    });
    const linked = await kept(2);
    await expect(service([a()], memoryJobs().port, verifies, linked.port).svc.discardOriginal(a().path)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('itself'),
    });
    expect([...files.files.keys()]).toEqual([a().path, mp4Of()]);
    expect([...linked.files.keys()]).toEqual([a().path, mp4Of()]);
    expect((await records())[a().path]).toMatchObject({ original: 'kept' });
  });

  it('refuses when the original is gone already, or was replaced between the check and the removal', async () => {
    const gone = await kept(null);
    await expect(service([a()], memoryJobs().port, verifies, gone.port).svc.discardOriginal(a().path)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('gone already'),
    });
    const swapped = await kept();
    const port: TranscoderFiles = { ...swapped.port, remove: async () => ({ removed: false, reason: 'it changed since it was checked' }) };
    await expect(service([a()], memoryJobs().port, verifies, port).svc.discardOriginal(a().path)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('changed since it was checked'),
    });
    expect((await records())[a().path]).toMatchObject({ original: 'kept' });
  });

  it('a dry run says what it would remove and removes nothing', async () => {
    const files = await kept();
    cfg = { ...cfg, app: { ...cfg.app, dry_run: true } };
    const { svc } = service([a()], memoryJobs().port, verifies, files.port);
    expect(await svc.discardOriginal(a().path)).toMatchObject({ dry_run: true, removed: a().path });
    expect([...files.files.keys()]).toEqual([a().path, mp4Of()]);
    expect((await records())[a().path]).toMatchObject({ original: 'kept' });
  });
});
