import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UnrecoverableError } from 'bullmq';
import { createLogger, createRuntimeConfig, readProcessEnv, type JobContext, type RuntimeConfig } from '@mo/core';
import { probeFile, workTempPath } from '@mo/core/media';
import { fullClip } from '@mo/core/test-fixtures';
import { tempInstall, type TempInstall } from '@mo/test-support/service';
import { mediaTracksHandler } from './media-tracks.ts';

const logger = createLogger({ name: 'handler-test', level: 'silent' });
let template: string;
let install: TempInstall;
let config: RuntimeConfig;

beforeAll(async () => {
  template = join(await mkdtemp(join(tmpdir(), 'mo-tracks-tpl-')), 'clip.mkv');
  await fullClip(template);
});
afterAll(() => rm(join(template, '..'), { recursive: true, force: true }));
afterEach(async () => {
  config?.close();
  await install?.cleanup();
});

/** dry_run off: these jobs only run when it is (dry runs are refused; see the dry_run test). */
async function setup(toml = '') {
  install = await tempInstall(`[app]\ndry_run = false\n\n${toml}`);
  config = await createRuntimeConfig({ configFile: install.configFile, pollMs: 50 });
  const file = join(install.paths.drive, 'Movies', 'Movie (2001).mkv');
  await copyFile(template, file);
  const handler = mediaTracksHandler({ config, logger, env: readProcessEnv({}) });
  return { file, handler, before: (await probeFile(file)).streams };
}

function ctx(jobId = '1'): JobContext {
  return {
    jobId,
    attempt: 1,
    signal: new AbortController().signal,
    progress: async () => {},
    defer: () => Promise.reject(new Error('not deferred')),
    log: logger,
  };
}

describe('media-tracks handler', () => {
  it('removes the stream, answers with the streams after, and does it once when delivered twice', async () => {
    const { file, handler, before } = await setup();
    const payload = { path: file, action: 'remove' as const, stream: 2, before };
    const first = await handler(payload, ctx());
    expect(first.dry_run).toBe(false);
    expect(first.path).toBe(file);
    expect(first.command.slice(0, 1)).toEqual(['ffmpeg']);
    expect(first.streams.map((s) => s.language)).toEqual([null, 'eng', 'eng', 'spa']);
    const second = await handler(payload, ctx());
    expect(second.streams).toEqual(first.streams);
    expect(second.command).toEqual([]);
    expect(second.original_recycled_to).toBeNull();
  });

  it('with recycle_bin on (the default), the file as it was lies in the bin and the result says where; off, nothing is kept', async () => {
    const { file, handler, before } = await setup();
    const bytes = await readFile(file);
    const binned = join(install.paths.drive, '.recycle', new Date().toISOString().slice(0, 10), 'Movies', 'Movie (2001).mkv');
    const out = await handler({ path: file, action: 'remove', stream: 2, before }, ctx());
    expect(out.original_recycled_to).toBe(binned);
    expect((await readFile(binned)).equals(bytes)).toBe(true);
    await config.updateSettings({ library: { recycle_bin: false } });
    const again = await handler({ path: file, action: 'remove', stream: 1, before: (await probeFile(file)).streams }, ctx('2'));
    expect(again.original_recycled_to).toBeNull();
    expect(await readdir(join(binned, '..'))).toEqual(['Movie (2001).mkv']);
  });

  it('fails for good, leaving the file alone, on a path outside the roots or a file that changed', async () => {
    const { file, handler, before } = await setup();
    const outside = join(install.root, 'elsewhere.mkv');
    await copyFile(template, outside);
    await expect(handler({ path: outside, action: 'remove', stream: 2, before }, ctx())).rejects.toBeInstanceOf(UnrecoverableError);
    const bytes = await readFile(file);
    const stale = before.map((s) => ({ ...s, default: false }));
    await expect(handler({ path: file, action: 'remove', stream: 2, before: stale }, ctx())).rejects.toThrow(/changed since the request/);
    expect((await readFile(file)).equals(bytes)).toBe(true);
  });

  it('does nothing with dry_run on, also for a job queued while it was off', async () => {
    const { file, handler, before } = await setup();
    await config.updateSettings({ app: { dry_run: true } });
    const bytes = await readFile(file);
    const err = await handler({ path: file, action: 'remove', stream: 2, before }, ctx()).catch((e: Error) => e);
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect((err as Error).message).toMatch(/^\[conflict\] dry_run is on: the track change on .* was not run; nothing changed$/);
    expect((await readFile(file)).equals(bytes)).toBe(true);
    expect(await readdir(join(file, '..'))).toEqual(['Movie (2001).mkv']);
  });

  it('reads the job’s path through transcoder.path_map on a box that mounts the media elsewhere', async () => {
    // The queue says /srv/library/…; this box has the drive at its own path.
    const { file, before } = await setup();
    await writeFile(
      install.configFile,
      `${await readFile(install.configFile, 'utf8')}\n[transcoder]\npath_map = [{ from = "/srv/library", to = "${install.paths.drive}" }]\n`,
    );
    config.close();
    config = await createRuntimeConfig({ configFile: install.configFile, pollMs: 50 });
    const mapped = mediaTracksHandler({ config, logger, env: readProcessEnv({}) });
    const asQueued = '/srv/library/Movies/Movie (2001).mkv';
    const out = await mapped({ path: asQueued, action: 'set_default', stream: 2, before }, ctx());
    expect(out.path).toBe(asQueued);
    expect((await probeFile(file)).streams.find((s) => s.index === 2)?.default).toBe(true);
  });

  it('deletes, when built at worker start, the temp a killed worker left behind', async () => {
    install = await tempInstall();
    config = await createRuntimeConfig({ configFile: install.configFile, pollMs: 50 });
    const movies = join(install.paths.drive, 'Movies');
    const temp = workTempPath(join(movies, 'A.mkv'), 'remux', 'dead01');
    await writeFile(temp, 'half a remux');
    await mkdir(join(install.paths.data, 'media-work'), { recursive: true });
    await writeFile(
      join(install.paths.data, 'media-work', 'dead01.json'),
      JSON.stringify({ temp, host: hostname(), pid: process.pid, instance: 'the killed one', job_id: '9', created_at: '' }),
    );
    mediaTracksHandler({ config, logger, env: readProcessEnv({}) });
    await expect.poll(() => readdir(movies), { timeout: 5000 }).toEqual([]);
  });

  it('follows a symlink inside the roots to the real file', async () => {
    const { file, handler, before } = await setup();
    const link = join(install.paths.downloads, 'link.mkv');
    await symlink(file, link);
    const out = await handler({ path: link, action: 'remove', stream: 4, before }, ctx());
    expect(out.path).toBe(link);
    expect((await probeFile(file)).streams).toHaveLength(4);
  });
});
