import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JobClient } from '@mo/core';
import { fullClip, makeClip } from '@mo/core/test-fixtures';
import { probeResponse, tracksDryRunResponse } from '@mo/shared';
import { stubJobs, testApp, type TestApp } from '../test-support/app.ts';

let templates: string;
let t: TestApp;

beforeAll(async () => {
  templates = await mkdtemp(join(tmpdir(), 'mo-media-route-'));
  await Promise.all([fullClip(join(templates, 'clip.mkv')), makeClip(join(templates, 'clip.avi'), { video: 'mpeg4', audio: 'mp3', seconds: 1 })]);
});
afterAll(() => rm(templates, { recursive: true, force: true }));
afterEach(async () => t?.close());

/** A job client that records what was queued and answers "still running". */
function recordingJobs(calls: { name: string; payload: unknown }[]): JobClient {
  return {
    ...stubJobs(),
    submit: async (name, payload) => {
      calls.push({ name, payload });
      return { kind: 'pending', job: { id: '42', queue: 'media', state: 'waiting' } };
    },
  };
}

async function setup(jobs?: JobClient) {
  t = await testApp(jobs ? { jobs } : {});
  const file = join(t.install.paths.drive, 'Movies', 'Movie (2001).mkv');
  await copyFile(join(templates, 'clip.mkv'), file);
  return file;
}

const probe = (path: string) => t.app.request(`/api/media/probe?path=${encodeURIComponent(path)}`);
const tracks = (body: unknown) =>
  t.app.request('/api/media/tracks?wait=0', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const errorOf = async (res: Response) => [res.status, ((await res.json()) as { error: { code: string } }).error.code];

describe('GET /api/media/probe', () => {
  it('answers the file’s streams from ffprobe', async () => {
    const file = await setup();
    const res = await probe(file);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, any>;
    expect(probeResponse.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ path: file, container: 'matroska,webm' });
    expect(body.size_bytes).toBeGreaterThan(1000);
    expect(body.duration_seconds).toBeCloseTo(3, 0);
    expect(body.streams).toEqual([
      { index: 0, type: 'video', codec: 'h264', language: null, title: null, default: true, forced: false, channels: null, width: 160, height: 120 },
      { index: 1, type: 'audio', codec: 'aac', language: 'eng', title: 'English Stereo', default: true, forced: false, channels: 1, width: null, height: null },
      { index: 2, type: 'audio', codec: 'aac', language: 'fra', title: 'Français', default: false, forced: false, channels: 1, width: null, height: null },
      {
        index: 3,
        type: 'subtitle',
        codec: 'subrip',
        language: 'eng',
        title: 'English',
        default: true,
        forced: false,
        channels: null,
        width: null,
        height: null,
      },
      {
        index: 4,
        type: 'subtitle',
        codec: 'subrip',
        language: 'spa',
        title: 'Español',
        default: false,
        forced: true,
        channels: null,
        width: null,
        height: null,
      },
    ]);
  });

  it('guards the path: 400, 403, 404', async () => {
    const file = await setup();
    const outside = join(t.install.root, 'outside.mkv');
    await copyFile(file, outside);
    const fake = join(t.install.paths.downloads, 'fake.mkv');
    await writeFile(fake, 'not video');
    await writeFile(join(t.install.paths.downloads, 'notes.txt'), 'x');
    expect(await errorOf(await t.app.request('/api/media/probe'))).toEqual([400, 'bad_request']);
    expect(await errorOf(await probe('Movies/Movie (2001).mkv'))).toEqual([400, 'bad_request']);
    expect(await errorOf(await probe(`${file}\0`))).toEqual([400, 'bad_request']);
    expect(await errorOf(await probe(join(t.install.paths.downloads, 'notes.txt')))).toEqual([400, 'bad_request']);
    expect(await errorOf(await probe(fake))).toEqual([400, 'bad_request']);
    expect(await errorOf(await probe(outside))).toEqual([403, 'forbidden']);
    expect(await errorOf(await probe(join(t.install.paths.drive, '../../../outside.mkv')))).toEqual([403, 'forbidden']);
    expect(await errorOf(await probe(join(t.install.paths.drive, 'Movies', 'Absent.mkv')))).toEqual([404, 'not_found']);
  });
});

describe('POST /api/media/tracks', () => {
  it('with dry_run on, answers the ffmpeg command and leaves the file alone', async () => {
    const file = await setup();
    const bytes = await readFile(file);
    const res = await tracks({ path: file, action: 'set_default', stream: 2 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { dry_run: boolean; path: string; command: string[] };
    expect(tracksDryRunResponse.safeParse(body).success).toBe(true);
    expect(body.path).toBe(file);
    const temp = body.command.at(-1)!;
    expect(temp).toMatch(/\/\.mo-remux-[0-9a-f]+\.Movie \(2001\)\.mkv\.part$/);
    expect(body.command).toEqual([
      'ffmpeg',
      '-nostdin',
      '-hide_banner',
      '-loglevel',
      'error',
      '-n',
      '-protocol_whitelist',
      'file',
      '-format_whitelist',
      'matroska',
      '-f',
      'matroska',
      '-i',
      file,
      '-map',
      '0',
      '-map_metadata',
      '0',
      '-map_chapters',
      '0',
      '-c',
      'copy',
      '-disposition:a:0',
      '-default',
      '-disposition:a:1',
      '+default',
      '-max_muxing_queue_size',
      '4096',
      '-f',
      'matroska',
      '-write_crc32',
      '0',
      temp,
    ]);
    expect((await readFile(file)).equals(bytes)).toBe(true);
  });

  it('with dry_run off, queues a media job that carries the streams it was asked about', async () => {
    const calls: { name: string; payload: any }[] = [];
    const file = await setup(recordingJobs(calls));
    await t.config.updateSettings({ app: { dry_run: false } });
    const res = await tracks({ path: file, action: 'remove', stream: 4 });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ job: { id: '42', queue: 'media', state: 'waiting' }, status_url: '/api/jobs/media/42' });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.name).toBe('media-tracks');
    expect(calls[0]!.payload).toMatchObject({ path: file, action: 'remove', stream: 4 });
    expect(calls[0]!.payload.before.map((s: { index: number }) => s.index)).toEqual([0, 1, 2, 3, 4]);
  });

  it.each([
    ['conflict', 409],
    ['not_found', 404],
    [null, 500],
  ] as const)('a job that fails in the worker with code %s answers %i, naming the job', async (code, status) => {
    const file = await setup({
      ...stubJobs(),
      submit: async () => ({ kind: 'failed', job: { id: '43', queue: 'media', state: 'failed' }, error: 'the file changed since it was probed', code }),
    });
    await t.config.updateSettings({ app: { dry_run: false } });
    const res = await t.app.request('/api/media/tracks?wait=30', {
      method: 'POST',
      body: JSON.stringify({ path: file, action: 'remove', stream: 4 }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({
      error: {
        code: code ?? 'internal',
        message: 'job media/43 failed: the file changed since it was probed',
        details: { job: { id: '43', queue: 'media', state: 'failed' }, status_url: '/api/jobs/media/43' },
      },
    });
  });

  it('refuses, before anything is queued, a stream that is not an audio or subtitle stream of the file', async () => {
    const calls: { name: string; payload: unknown }[] = [];
    const file = await setup(recordingJobs(calls));
    await t.config.updateSettings({ app: { dry_run: false } });
    const avi = join(t.install.paths.downloads, 'clip.avi');
    await copyFile(join(templates, 'clip.avi'), avi);
    for (const body of [
      { path: file, action: 'remove', stream: 0 },
      { path: file, action: 'remove', stream: 9 },
      { path: file, action: 'remove', stream: -1 },
      { path: file, action: 'drop', stream: 1 },
      { path: file, stream: 1 },
      { path: avi, action: 'set_default', stream: 2 },
    ]) {
      expect(await errorOf(await tracks(body)), JSON.stringify(body)).toEqual([400, 'bad_request']);
    }
    expect(await errorOf(await tracks({ path: join(t.install.root, 'x.mkv'), action: 'remove', stream: 1 }))).toEqual([403, 'forbidden']);
    expect(calls).toEqual([]);
  });
});
