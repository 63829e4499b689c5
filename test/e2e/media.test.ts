import { copyFile, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullClip, makeClip, ffmpegWrapper, slowFinish } from '@mo/core/test-fixtures';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { startProcess, tempInstall, waitFor, type RunningProcess, type TempInstall, withTestKey } from '@mo/test-support/service';

// The media tools as deployed: the API, a worker for scans and remuxes, and a "GPU box" worker that
// serves only transcodes, mounts the media under another path and is configured for NVENC (which
// this machine lacks, so it falls back to libx264). Their ffmpeg can be made to hang on purpose.
let install: TempInstall;
let api: RunningProcess;
let mediaWorker: RunningProcess;
let gpuWorker: RunningProcess;
let base: string;
let workerEnv: Record<string, string>;
const prefix = uniquePrefix('media');
const redisUrl = testRedisUrl();
const templates: Record<string, string> = {};

async function http(path: string, init?: RequestInit) {
  const res = await fetch(base + path, withTestKey(init));
  return { status: res.status, body: (await res.json()) as any };
}
const post = (path: string, body?: unknown) =>
  http(path, { method: 'POST', headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const slowMark = () => join(install.root, 'slow');
const wrapperPid = () => join(install.root, 'ffmpeg.pid');

async function jobDone(queue: string, id: string) {
  return waitFor(
    async () => {
      const { body } = await http(`/api/jobs/${queue}/${id}`);
      return body.state === 'completed' || body.state === 'failed' ? body : undefined;
    },
    60_000,
    `job ${queue}/${id}`,
  );
}

beforeAll(async () => {
  install = await tempInstall('[app]\nscan_interval_seconds = 0\nwatch = false\n');
  const tpl = join(install.root, 'templates');
  await mkdir(tpl);
  templates.mkv = join(tpl, 'clip.mkv');
  templates.avi = join(tpl, 'clip.avi');
  await Promise.all([fullClip(templates.mkv), makeClip(templates.avi, { video: 'mpeg4', audio: 'mp3', seconds: 2 })]);

  // The GPU box sees the drive at its own mount point, and says so in its own config file.
  const mount = join(install.root, 'gpu-mnt');
  await mkdir(mount);
  await symlink(install.paths.drive, join(mount, 'disk1'));
  const gpuConfig = join(install.root, 'gpu-config.toml');
  await writeFile(
    gpuConfig,
    `[paths]\ndownloads = "${install.paths.downloads}"\nconfig = "${install.paths.config}"\ndata = "${install.paths.data}"\n\n` +
      `[[drives]]\nname = "disk1"\npath = "${join(mount, 'disk1')}"\n\n` +
      `[transcoder]\nvideo_encoder = "h264_nvenc"\nkeep_original = false\npath_map = [{ from = "${install.paths.drive}", to = "${join(mount, 'disk1')}" }]\n`,
  );

  const PATH = await ffmpegWrapper(
    join(install.root, 'bin'),
    `if [ -f ${JSON.stringify(slowMark())} ]; then\n${slowFinish(60, wrapperPid())}\nelse\nexec "$REAL" "$@"\nfi`,
  );
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env = { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: '127.0.0.1', PATH };
  workerEnv = { ...env, WORKER_QUEUES: 'scan,library,media' };
  api = startProcess('api', env);
  mediaWorker = startProcess('worker', workerEnv);
  gpuWorker = startProcess('worker', { ...env, MEDIA_ORGANIZER_CONFIG: gpuConfig, WORKER_QUEUES: 'transcode' });
  await waitFor(async () => (await fetch(`${base}/api/ready`)).ok, 30_000, 'the api');
  await waitFor(async () => mediaWorker.output().includes('worker started') && gpuWorker.output().includes('worker started'), 30_000, 'the workers');
});

afterAll(async () => {
  await api?.stop('SIGKILL');
  await mediaWorker?.stop('SIGKILL');
  await gpuWorker?.stop('SIGKILL');
  await dropPrefix(redisUrl, prefix);
  await install?.cleanup();
});

describe('media tracks end to end', () => {
  it('probes, answers a dry run with the command only, then remuxes for real through the worker', async () => {
    const file = join(install.paths.downloads, 'Tracks.mkv');
    await copyFile(templates.mkv!, file);
    const probe = await http(`/api/media/probe?path=${encodeURIComponent(file)}`);
    expect(probe.status).toBe(200);
    expect(probe.body.streams).toHaveLength(5);

    const bytes = await readFile(file);
    const dry = await post('/api/media/tracks', { path: file, action: 'remove', stream: 3 });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dry_run: true, path: file });
    expect(dry.body.command).toContain('-0:3');
    expect((await readFile(file)).equals(bytes)).toBe(true);

    expect((await post('/api/settings', { dry_run: false })).status).toBe(200);
    const real = await post('/api/media/tracks', { path: file, action: 'remove', stream: 3 });
    expect(real.status).toBe(200);
    expect(real.body).toMatchObject({ dry_run: false, path: file });
    expect(real.body.streams.map((s: any) => `${s.type}:${s.language}`)).toEqual(['video:null', 'audio:eng', 'audio:fra', 'subtitle:spa']);
    expect((await http(`/api/media/probe?path=${encodeURIComponent(file)}`)).body.streams).toEqual(real.body.streams);
  });

  it('a worker killed mid-remux leaves the original byte for byte, and its temp is gone once a worker starts again', async () => {
    const file = join(install.paths.downloads, 'Kill.mkv');
    await copyFile(templates.mkv!, file);
    const bytes = await readFile(file);
    await writeFile(slowMark(), '');
    const res = await post('/api/media/tracks?wait=0', { path: file, action: 'remove', stream: 2 });
    expect(res.status).toBe(202);
    // ffmpeg has written the whole temp and is still "running" when the worker dies.
    const pid = await waitFor(async () => Number(await readFile(wrapperPid(), 'utf8').catch(() => '')) || undefined, 30_000, 'the remux to run');
    const temps = async () => (await readdir(install.paths.downloads)).filter((n) => n.startsWith('.mo-remux-'));
    expect(await temps()).toHaveLength(1);
    await mediaWorker.stop('SIGKILL');
    process.kill(pid, 'SIGTERM');
    await rm(slowMark());
    await rm(wrapperPid());
    expect((await readFile(file)).equals(bytes)).toBe(true);
    expect(await temps()).toHaveLength(1);

    mediaWorker = startProcess('worker', workerEnv);
    // The sweep removes the temp, then its journal note: wait for both.
    const notes = async () => readdir(join(install.paths.data, 'media-work'));
    await waitFor(async () => (await temps()).length === 0 && (await notes()).length === 0, 30_000, 'the leftover temp and its note to be removed');
    expect((await readFile(file)).equals(bytes)).toBe(true);
  });
});

describe('transcodes on a transcode-only worker box', () => {
  let first: string;
  let second: string;

  beforeAll(async () => {
    first = join(install.paths.drive, 'Movies', 'A (2001)', 'A (2001).avi');
    second = join(install.paths.drive, 'Movies', 'B (2002)', 'B (2002).avi');
    for (const f of [first, second]) {
      await mkdir(join(f, '..'), { recursive: true });
      await copyFile(templates.avi!, f);
    }
    expect((await post('/api/library/scan')).status).toBe(200);
    await waitFor(async () => (await http('/api/tools/transcoder')).body.queue.length === 2, 10_000, 'the index');
  });

  it('runs the next queued file there, with progress, falling back from NVENC, and marks it done', async () => {
    const run = await post('/api/tools/transcoder/run-next');
    expect(run.status).toBe(202);
    expect(run.body.item).toMatchObject({ path: first, status: 'queued' });
    const job = await jobDone('transcode', run.body.job.id);
    expect(job.state).toBe('completed');
    const mp4 = join(install.paths.drive, 'Movies', 'A (2001)', 'A (2001).mp4');
    // Paths are the API's, not the GPU box's mount.
    expect(job.result).toMatchObject({ output: mp4, encoder: 'libx264', original_removed: true });
    expect(job.progress).toMatchObject({ percent: 100, eta_seconds: 0 });
    // What a person checks: the streams before and after, the sizes and the time it took.
    expect(job.result.before.streams.map((x: any) => x.codec)[0]).toBe('mpeg4');
    expect(job.result.after.streams.map((x: any) => x.codec)[0]).toBe('h264');
    expect(job.result.after.bytes).toBe((await stat(mp4)).size);
    expect(job.result.seconds).toBeGreaterThan(0);
    const entry = (await http('/api/tools/transcoder')).body.queue[0];
    expect(entry).toMatchObject({ status: 'done', output: mp4, original: 'removed', result: { before: job.result.before, after: job.result.after } });
    expect(gpuWorker.output()).toContain('hardware encoder failed');
    expect((await stat(mp4)).size).toBeGreaterThan(0);
    await expect(stat(first)).rejects.toThrow();
    expect((await http('/api/tools/transcoder')).body.queue.map((e: any) => e.status)).toEqual(['done', 'queued']);
  });

  it('cancels a running transcode on that box: the job fails, the entry says failed, nothing is left behind', async () => {
    await writeFile(slowMark(), '');
    const run = await post('/api/tools/transcoder/run-next');
    expect(run.body.item.path).toBe(second);
    const id = run.body.job.id as string;
    await waitFor(async () => (await readFile(wrapperPid(), 'utf8').catch(() => '')) !== '', 30_000, 'the transcode to run');
    const active = await http(`/api/jobs/transcode/${id}`);
    expect(active.body.state).toBe('active');
    expect(active.body.progress).toMatchObject({ encoder: 'libx264' });
    // The queue shows the running entry's progress, read from its job.
    await waitFor(async () => (await http('/api/tools/transcoder')).body.queue[1].progress?.encoder === 'libx264', 10_000, 'the progress in the queue');
    expect((await http('/api/tools/transcoder')).body.queue[1]).toMatchObject({ status: 'running', position: null, job_id: id });

    const cancel = await post(`/api/jobs/transcode/${id}/cancel`);
    expect(cancel.status).toBe(202);
    const job = await jobDone('transcode', id);
    expect(job).toMatchObject({ state: 'failed', error: 'cancelled' });
    expect((await http('/api/tools/transcoder')).body.queue.map((e: any) => e.status)).toEqual(['done', 'failed']);
    expect(await readdir(join(second, '..'))).toEqual(['B (2002).avi']);
    await rm(slowMark());
  });
});
