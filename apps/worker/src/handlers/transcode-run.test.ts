import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { UnrecoverableError } from 'bullmq';
import { createLogger, createRuntimeConfig, readProcessEnv, type JobContext, type RuntimeConfig } from '@mo/core';
import { probeFile } from '@mo/core/media';
import { ffmpegWrapper, makeClip, slowStart } from '@mo/core/test-fixtures';
import { CANCELLED } from '@mo/core/queue';
import type { JobPayload, TranscodeStatus } from '@mo/shared';
import { listRecycle, restoreRecycled } from '@mo/core/recycle';
import { queuedEntry, transcodeStore } from '@mo/core/tools';
import { tempInstall, type TempInstall } from '@mo/test-support/service';
import { settleStrandedTranscodes, transcodeRunHandler } from './transcode-run.ts';

const logger = createLogger({ name: 'handler-test', level: 'silent' });
const PATH = process.env.PATH;
let template: string;
let install: TempInstall;
let config: RuntimeConfig;

beforeAll(async () => {
  template = join(await mkdtemp(join(tmpdir(), 'mo-transcode-tpl-')), 'clip.avi');
  await makeClip(template, { video: 'mpeg4', audio: 'mp3', seconds: 2 });
});
afterAll(() => rm(join(template, '..'), { recursive: true, force: true }));
afterEach(async () => {
  process.env.PATH = PATH;
  config?.close();
  await install?.cleanup();
});

/** dry_run off: these jobs only run when it is (dry runs are refused; see the dry_run test). */
async function setup(toml = '') {
  install = await tempInstall(`[app]\ndry_run = false\n\n${toml}`);
  config = await createRuntimeConfig({ configFile: install.configFile, pollMs: 50 });
  const movies = join(install.paths.drive, 'Movies');
  const file = join(movies, 'Movie (2001).avi');
  await copyFile(template, file);
  const item: JobPayload<'transcode-run'>['item'] = { path: file, ext: '.avi', bytes: 1, kind: 'movie', title: 'Movie', status: 'queued' };
  await claim(file);
  return { movies, file, item, handler: transcodeRunHandler({ config, logger, env: readProcessEnv({}) }) };
}

/** A record as the transitions write them. */
const rec = (status: TranscodeStatus['status'], extra: Partial<TranscodeStatus> = {}): TranscodeStatus => ({
  ...queuedEntry(new Date().toISOString()),
  status,
  ...extra,
});

/** What run-next does before it queues the job: the entry claimed with the job's id. */
async function claim(path: string, jobId = '5') {
  await config.state.update((s) => ({ ...s, transcodes: { ...s.transcodes, [path]: rec('queued', { job_id: jobId }) } }));
}

function ctx(opts: { jobId?: string; signal?: AbortSignal; progress?: unknown[]; deferred?: number[] } = {}): JobContext {
  return {
    jobId: opts.jobId ?? '5',
    attempt: 1,
    signal: opts.signal ?? new AbortController().signal,
    progress: async (v) => void opts.progress?.push(v),
    defer: async (ms) => {
      opts.deferred?.push(ms);
      throw new Error('deferred');
    },
    log: logger,
  };
}

const status = async (path: string) => (await config.state.read()).transcodes[path];

describe('transcode-run handler', () => {
  it('makes the MP4, records it done, removes the original and reports progress', async () => {
    const { movies, file, item, handler } = await setup();
    const progress: unknown[] = [];
    const out = await handler({ item }, ctx({ progress }));
    const mp4 = join(movies, 'Movie (2001).mp4');
    expect(out).toMatchObject({ item: { ...item, status: 'done' }, output: mp4, encoder: 'libx264', dropped: [], original_removed: true });
    expect(out.command[0]).toBe('ffmpeg');
    expect(await readdir(movies)).toEqual(['Movie (2001).mp4']);
    expect(await status(file)).toMatchObject({ status: 'done', job_id: '5', output: mp4, error: null, original: 'removed' });
    expect(progress.at(-1)).toMatchObject({ percent: 100, encoder: 'libx264', eta_seconds: 0 });
  });

  it('records the streams and sizes before and after, and the time taken, in its result and its entry', async () => {
    const { file, item, handler } = await setup();
    const out = await handler({ item }, ctx());
    const codecs = (snap: typeof out.before) => snap!.streams.map((s) => `${s.type}:${s.codec}`);
    expect(codecs(out.before)[0]).toBe('video:mpeg4');
    expect(codecs(out.after)).toEqual(codecs(out.before).map((c) => (c === 'video:mpeg4' ? 'video:h264' : c)));
    expect(out.before!.bytes).toBeGreaterThan(0);
    expect(out.after!.bytes).toBeGreaterThan(0);
    expect(out.seconds).toBeGreaterThan(0);
    expect(await status(file)).toMatchObject({ before: out.before, after: out.after, seconds: out.seconds });
  });

  it('while the queue is paused, puts the job back to wait and touches nothing', async () => {
    const { movies, file, item } = await setup();
    const handler = transcodeRunHandler({ config, logger, env: readProcessEnv({}) }, { pausedRetryMs: 1234 });
    await config.state.update((s) => ({ ...s, transcoder_paused: true }));
    const entry = await status(file);
    const deferred: number[] = [];
    await expect(handler({ item }, ctx({ deferred }))).rejects.toThrow('deferred');
    expect(deferred).toEqual([1234]);
    expect(await status(file)).toEqual(entry);
    expect(await readdir(movies)).toEqual(['Movie (2001).avi']);
  });

  it('keeps the original with keep_original', async () => {
    const { movies, item, handler } = await setup('[transcoder]\nvideo_encoder = "libx264"\nkeep_original = true\n');
    expect((await handler({ item }, ctx())).original_removed).toBe(false);
    expect((await readdir(movies)).sort()).toEqual(['Movie (2001).avi', 'Movie (2001).mp4']);
    expect(await status(join(movies, 'Movie (2001).avi'))).toMatchObject({ status: 'done', original: 'kept' });
  });

  it('records a failure and does not retry bad input', async () => {
    const { file, item, handler } = await setup();
    await writeFile(file, 'not a video at all');
    await expect(handler({ item }, ctx())).rejects.toBeInstanceOf(UnrecoverableError);
    expect(await status(file)).toMatchObject({ status: 'failed', job_id: '5' });
    expect((await status(file))?.error).toMatch(/ffprobe cannot read/);
  });

  it('records a cancelled run as failed: cancelled, leaving only the original', async () => {
    const { movies, file, item, handler } = await setup();
    process.env.PATH = await ffmpegWrapper(join(install.root, 'bin'), slowStart(10));
    const ac = new AbortController();
    setTimeout(() => ac.abort(CANCELLED), 500);
    await expect(handler({ item }, ctx({ signal: ac.signal }))).rejects.toThrow();
    expect(await status(file)).toMatchObject({ status: 'failed', error: CANCELLED });
    expect(await readdir(movies)).toEqual(['Movie (2001).avi']);
  });

  it('delivered again after it finished, does not transcode again', async () => {
    const { movies, item, handler } = await setup('[transcoder]\nvideo_encoder = "libx264"\nkeep_original = true\n');
    const first = await handler({ item }, ctx());
    const bytes = await readFile(first.output);
    const again = await handler({ item }, ctx());
    expect(again).toMatchObject({ item: { status: 'done' }, output: first.output, command: [] });
    expect((await readFile(first.output)).equals(bytes)).toBe(true);
    expect((await readdir(movies)).sort()).toEqual(['Movie (2001).avi', 'Movie (2001).mp4']);
  });

  it('delivered again after it finished, leaves the original as its entry recorded it, whatever keep_original says now', async () => {
    const { movies, file, item, handler } = await setup('[transcoder]\nvideo_encoder = "libx264"\nkeep_original = true\n');
    await handler({ item }, ctx());
    await writeFile(install.configFile, (await readFile(install.configFile, 'utf8')).replace('keep_original = true', 'keep_original = false'));
    config.close();
    config = await createRuntimeConfig({ configFile: install.configFile, pollMs: 50 });
    const later = transcodeRunHandler({ config, logger, env: readProcessEnv({}) });
    expect((await later({ item }, ctx())).original_removed).toBe(false);
    expect((await readdir(movies)).sort()).toEqual(['Movie (2001).avi', 'Movie (2001).mp4']);
    expect(await status(file)).toMatchObject({ status: 'done', original: 'kept' });
  });

  it('records the original removed only once it is gone, so a worker killed in between leaves an entry that says kept', async () => {
    const { movies, file, item } = await setup();
    const handler = transcodeRunHandler({ config, logger, env: readProcessEnv({}) });
    const seen: string[] = [];
    const update = config.transcodes.update.bind(config.transcodes);
    vi.spyOn(config.transcodes, 'update').mockImplementation(async (fn) => {
      const next = await update(fn);
      const entry = next.transcodes[file];
      if (entry?.status === 'done') {
        seen.push(`${entry.original} ${(await readdir(movies)).sort().join(',')}`);
      }
      return next;
    });
    await handler({ item }, ctx());
    // Recorded done with the original still there first, and removed only once it was gone.
    expect(seen).toEqual(['kept Movie (2001).avi,Movie (2001).mp4', 'removed Movie (2001).mp4']);
    expect(await status(file)).toMatchObject({ status: 'done', original: 'removed' });
  });

  it('delivered again after a kill between removing the original and recording it, records it removed and touches no file', async () => {
    const { movies, file, item, handler } = await setup('[transcoder]\nvideo_encoder = "libx264"\nkeep_original = true\n');
    const first = await handler({ item }, ctx());
    const bytes = await readFile(first.output);
    await rm(file);
    const again = await handler({ item }, ctx());
    expect(again).toMatchObject({ output: first.output, command: [] });
    expect(await status(file)).toMatchObject({ status: 'done', original: 'removed' });
    expect(await readdir(movies)).toEqual(['Movie (2001).mp4']);
    expect((await readFile(first.output)).equals(bytes)).toBe(true);
  });

  it('delivered again with its original and its MP4 both gone (a drive not mounted), leaves the entry saying kept', async () => {
    const { file, item, handler } = await setup('[transcoder]\nvideo_encoder = "libx264"\nkeep_original = true\n');
    const first = await handler({ item }, ctx());
    await rm(file);
    await rm(first.output);
    await handler({ item }, ctx());
    expect(await status(file)).toMatchObject({ status: 'done', original: 'kept' });
  });

  it('a retried entry takes up the verified MP4 its killed attempt placed before recording it', async () => {
    const { movies, file, item } = await setup('[transcoder]\nvideo_encoder = "libx264"\nkeep_original = true\n');
    const entries = transcodeStore(config.transcodes);
    const handler = transcodeRunHandler({ config, logger, env: readProcessEnv({}) });
    const first = await handler({ item }, ctx());
    const bytes = await readFile(first.output);
    // As the worker left it when killed after placing the MP4: running, then failed for stalling.
    await config.state.update((s) => ({ ...s, transcodes: { [file]: rec('running', { job_id: '5', output: first.output }) } }));
    await entries.apply(file, { type: 'settle', job_id: '5', error: 'job stalled more than allowable limit' });
    await entries.apply(file, { type: 'retry', job_id: '5', job_state: 'failed' });
    await entries.apply(file, { type: 'claim', job_id: 'tr-0000000000000001' });
    const again = await handler({ item }, ctx({ jobId: 'tr-0000000000000001' }));
    expect(again).toMatchObject({ output: first.output, command: [] });
    expect((await readFile(first.output)).equals(bytes)).toBe(true);
    expect(await status(file)).toMatchObject({ status: 'done', job_id: 'tr-0000000000000001', output: first.output, original: 'kept' });
    expect((await readdir(movies)).sort()).toEqual(['Movie (2001).avi', 'Movie (2001).mp4']);
  });

  it('leaves alone a file another job is transcoding: the file, the entry and no temp', async () => {
    const { movies, file, item, handler } = await setup();
    const theirs = rec('running', { job_id: '99' });
    await config.state.update((s) => ({ ...s, transcodes: { [file]: theirs } }));
    const err = await handler({ item }, ctx()).catch((e: Error) => e);
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect((err as Error).message).toMatch(/^\[conflict\] .*transcode\/99/);
    expect(await status(file)).toEqual(theirs);
    expect(await readdir(movies)).toEqual(['Movie (2001).avi']);
  });

  it('an old attempt that ends after another job took the file over does not overwrite that job’s entry', async () => {
    const { file, item, handler } = await setup();
    await writeFile(file, 'not a video at all');
    const theirs = rec('done', { job_id: '99', output: file.replace(/\.avi$/, '.mp4') });
    await config.state.update((s) => ({ ...s, transcodes: { [file]: theirs } }));
    await expect(handler({ item }, ctx())).rejects.toBeInstanceOf(UnrecoverableError);
    expect(await status(file)).toEqual(theirs);
  });

  it('records paths as the queue knows them on a box with a path map', async () => {
    const { movies, item } = await setup();
    await writeFile(
      install.configFile,
      `${await readFile(install.configFile, 'utf8')}\n[transcoder]\nvideo_encoder = "libx264"\nkeep_original = false\npath_map = [{ from = "/srv/library", to = "${install.paths.drive}" }]\n`,
    );
    config.close();
    config = await createRuntimeConfig({ configFile: install.configFile, pollMs: 50 });
    const handler = transcodeRunHandler({ config, logger, env: readProcessEnv({}) });
    const queued = { ...item, path: '/srv/library/Movies/Movie (2001).avi' };
    await claim(queued.path);
    const out = await handler({ item: queued }, ctx());
    expect(out.output).toBe('/srv/library/Movies/Movie (2001).mp4');
    expect(await status(queued.path)).toMatchObject({ status: 'done', output: '/srv/library/Movies/Movie (2001).mp4' });
    expect((await probeFile(join(movies, 'Movie (2001).mp4'))).streams[0]!.codec).toBe('h264');
    expect(out.original_recycled_to).toBe(`/srv/library/.recycle/${new Date().toISOString().slice(0, 10)}/Movies/Movie (2001).avi`);
  });
});

describe('transcode-run handler and the recycle bin', () => {
  const binned = () => join(install.paths.drive, '.recycle', new Date().toISOString().slice(0, 10), 'Movies', 'Movie (2001).avi');
  const drives = () => [{ name: 'disk1', path: install.paths.drive }];

  it('with recycle_bin on, the original goes to its drive’s bin with its bytes, and a restore puts it back', async () => {
    const { movies, file, item, handler } = await setup('[transcoder]\nvideo_encoder = "libx264"\nkeep_original = false\n');
    const bytes = await readFile(file);
    const out = await handler({ item }, ctx());
    expect(out).toMatchObject({ original_removed: true, original_recycled_to: binned() });
    expect(await readdir(movies)).toEqual(['Movie (2001).mp4']);
    expect((await readFile(binned())).equals(bytes)).toBe(true);
    expect(await status(file)).toMatchObject({ status: 'done', original: 'removed', original_recycled_to: binned() });
    expect(await listRecycle(drives())).toMatchObject([{ path: binned(), original: file, bytes: bytes.length }]);
    await restoreRecycled({ drives: drives(), path: binned() });
    expect((await readFile(file)).equals(bytes)).toBe(true);
  });

  it('with recycle_bin off, the original is deleted as before and no bin is made', async () => {
    const { movies, item, handler } = await setup('[library]\nrecycle_bin = false\n\n[transcoder]\nvideo_encoder = "libx264"\nkeep_original = false\n');
    expect(await handler({ item }, ctx())).toMatchObject({ original_removed: true, original_recycled_to: null });
    expect(await readdir(movies)).toEqual(['Movie (2001).mp4']);
    expect(await readdir(install.paths.drive)).not.toContain('.recycle');
  });

  it('with recycle_bin on and a bin that cannot take it, the original is kept, never deleted, and the entry says kept', async () => {
    const { movies, file, item, handler } = await setup('[transcoder]\nvideo_encoder = "libx264"\nkeep_original = false\n');
    const bytes = await readFile(file);
    await writeFile(join(install.paths.drive, '.recycle'), 'a file where the bin would be');
    expect(await handler({ item }, ctx())).toMatchObject({ original_removed: false, original_recycled_to: null });
    expect((await readdir(movies)).sort()).toEqual(['Movie (2001).avi', 'Movie (2001).mp4']);
    expect((await readFile(file)).equals(bytes)).toBe(true);
    expect(await status(file)).toMatchObject({ status: 'done', original: 'kept' });
  });
});

describe('transcode-run handler, checking the job against the config of the moment', () => {
  async function refusedWith(handler: ReturnType<typeof transcodeRunHandler>, item: JobPayload<'transcode-run'>['item'], message: RegExp) {
    const err = await handler({ item }, ctx()).catch((e: Error) => e);
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect((err as Error).message).toMatch(message);
  }

  it('does nothing with dry_run on, also for a job queued while it was off, or one finished but for the original', async () => {
    const { movies, file, item, handler } = await setup('[transcoder]\nvideo_encoder = "libx264"\nkeep_original = false\n');
    await config.updateSettings({ app: { dry_run: true } });
    const entry = await status(file);
    await refusedWith(handler, item, /^\[conflict\] dry_run is on: the transcode of .* was not run; nothing changed$/);
    expect(await status(file)).toEqual(entry);
    const done = rec('done', { job_id: '5', output: join(movies, 'Movie (2001).mp4') });
    await config.state.update((s) => ({ ...s, transcodes: { [file]: done } }));
    await refusedWith(handler, item, /dry_run is on/);
    expect(await readdir(movies)).toEqual(['Movie (2001).avi']);
    expect(await status(file)).toEqual(done);
  });

  it('refuses a file run-next did not claim, writing no entry for it', async () => {
    const { movies, file, item, handler } = await setup();
    await config.state.update((s) => ({ ...s, transcodes: {} }));
    await refusedWith(handler, item, /^\[forbidden\] .*run-next did not claim it/);
    expect((await config.state.read()).transcodes).toEqual({});
    expect(await readdir(movies)).toEqual(['Movie (2001).avi']);
    const theirs = rec('failed', { job_id: '99', error: 'x' });
    await config.state.update((s) => ({ ...s, transcodes: { [file]: theirs } }));
    await refusedWith(handler, item, /^\[forbidden\] .*belongs to job transcode\/99/);
    expect(await status(file)).toEqual(theirs);
  });

  it('refuses a file outside the drives (the downloads, or outside every root), even once claimed', async () => {
    const { handler } = await setup();
    const inDownloads = join(install.paths.downloads, 'Movie.2001.avi');
    const outside = join(install.root, 'elsewhere.avi');
    for (const path of [inDownloads, outside]) {
      await copyFile(template, path);
      const bytes = await readFile(path);
      await claim(path);
      await refusedWith(handler, { path, ext: '.avi', bytes: 1, kind: 'movie', title: 'Movie', status: 'queued' }, /^\[forbidden\] path: outside/);
      expect((await readFile(path)).equals(bytes)).toBe(true);
      expect(await readdir(join(path, '..'))).not.toContain(
        path
          .replace(/\.avi$/, '.mp4')
          .split('/')
          .pop(),
      );
    }
  });
});

describe('settleStrandedTranscodes', () => {
  it('marks failed the running entries whose job failed unseen or is gone, puts back in line the waiting ones whose job was lost, and leaves the others alone', async () => {
    await setup();
    const running = (jobId: string) => rec('running', { job_id: jobId });
    const transcodes = {
      '/m/stalled.avi': running('7'),
      '/m/gone.avi': running('8'),
      '/m/active.avi': running('9'),
      '/m/claimed-now.avi': rec('queued', { job_id: '11' }),
      '/m/lost-long-ago.avi': rec('queued', { job_id: '12', priority: 2, updated_at: new Date(Date.now() - 3600_000).toISOString() }),
      '/m/done.avi': rec('done', { job_id: '10', output: '/m/done.mp4' }),
    };
    await config.state.update((s) => ({ ...s, transcodes }));
    const asked: string[][] = [];
    const settle = settleStrandedTranscodes({ config, logger, env: readProcessEnv({}) }, async (ids) => {
      asked.push(ids);
      return new Map([
        ['7', { state: 'failed', reason: 'job stalled more than allowable limit' }],
        ['8', null],
        ['9', { state: 'active', reason: null }],
        ['11', null],
        ['12', null],
      ]);
    });
    const writes = vi.spyOn(config.transcodes, 'update');
    await settle();
    // One write however many: a Redis that kept nothing strands every job of a run-all at once.
    expect(writes).toHaveBeenCalledTimes(1);
    expect(asked).toEqual([['7', '8', '9', '11', '12']]);
    const after = (await config.state.read()).transcodes;
    expect(Object.fromEntries(Object.entries(after).map(([p, e]) => [p, [e.status, e.job_id, e.error]]))).toEqual({
      '/m/stalled.avi': ['failed', '7', 'job stalled more than allowable limit'],
      '/m/gone.avi': ['failed', '8', 'job transcode/8 is no longer in the queue'],
      '/m/active.avi': ['running', '9', null],
      '/m/claimed-now.avi': ['queued', '11', null],
      '/m/lost-long-ago.avi': ['queued', null, null],
      '/m/done.avi': ['done', '10', null],
    });
  });

  it('told of one failed job, asks the queue of that job only: a run-all of 50,000 fails one job at a time', async () => {
    await setup();
    await config.state.update((s) => ({
      ...s,
      transcodes: { '/m/stalled.avi': rec('running', { job_id: '7' }), '/m/waiting.avi': rec('queued', { job_id: '8' }) },
    }));
    const asked: string[][] = [];
    const settle = settleStrandedTranscodes({ config, logger, env: readProcessEnv({}) }, async (ids) => {
      asked.push(ids);
      return new Map(ids.map((id) => [id, { state: 'failed', reason: 'stalled' }]));
    });
    await settle(['7']);
    expect(asked).toEqual([['7']]);
    expect((await config.state.read()).transcodes['/m/waiting.avi']).toMatchObject({ status: 'queued', job_id: '8' });
    expect((await config.state.read()).transcodes['/m/stalled.avi']).toMatchObject({ status: 'failed', error: 'stalled' });
  });

  it('records removed the originals finished entries say are kept but are gone beside their MP4, and only those', async () => {
    const { movies } = await setup();
    const files = ['Gone (2001)', 'Here (2002)', 'Unmounted (2003)', 'Other job (2004)'].map((n) => ({
      avi: join(movies, `${n}.avi`),
      mp4: join(movies, `${n}.mp4`),
    }));
    const [gone, here, unmounted, other] = files as [(typeof files)[0], (typeof files)[0], (typeof files)[0], (typeof files)[0]];
    for (const f of [gone, here, other]) await copyFile(template, f.mp4);
    for (const f of [here]) await copyFile(template, f.avi);
    const done = (f: { mp4: string }, jobId: string) => rec('done', { job_id: jobId, output: f.mp4, original: 'kept' });
    await config.state.update((s) => ({
      ...s,
      transcodes: { [gone.avi]: done(gone, '7'), [here.avi]: done(here, '7'), [unmounted.avi]: done(unmounted, '7'), [other.avi]: done(other, '8') },
    }));
    const settle = settleStrandedTranscodes({ config, logger, env: readProcessEnv({}) }, async () => new Map());
    await settle(['7']);
    const original = async () => Object.fromEntries(Object.entries((await config.state.read()).transcodes).map(([p, e]) => [p, e.original]));
    expect(await original()).toEqual({ [gone.avi]: 'removed', [here.avi]: 'kept', [unmounted.avi]: 'kept', [other.avi]: 'kept' });
    await settle();
    expect(await original()).toEqual({ [gone.avi]: 'removed', [here.avi]: 'kept', [unmounted.avi]: 'kept', [other.avi]: 'removed' });
    expect((await readdir(movies)).sort()).toEqual(['Gone (2001).mp4', 'Here (2002).avi', 'Here (2002).mp4', 'Movie (2001).avi', 'Other job (2004).mp4']);
  });

  it('asks the queue nothing when no entry holds a job', async () => {
    await setup();
    await config.state.update((s) => ({ ...s, transcodes: { '/m/prioritized.avi': rec('queued', { priority: 3 }) } }));
    let asked = 0;
    await settleStrandedTranscodes({ config, logger, env: readProcessEnv({}) }, async () => {
      asked++;
      return new Map();
    })();
    expect(asked).toBe(0);
  });
});
