import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import type { MediaStream } from './probe.ts';
import type { FfmpegProgress } from './progress.ts';
import { probeFile, ToolError } from './run.ts';
import { fullClip, makeClip } from './test-fixtures/clips.ts';
import { ffmpegWrapper, slowStart } from './test-fixtures/ffmpeg-wrapper.ts';
import { mp4PathFor, transcodeToMp4, type TranscodeJob } from './transcode.ts';
import { workJournal } from './work-journal.ts';
import { dataDir } from '../data-dir/data-dir.ts';

let root: string;
let templates: string;
let dir: string;
const PATH = process.env.PATH;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mo-transcode-'));
  templates = join(root, 'templates');
  await mkdir(templates);
  await Promise.all([fullClip(join(templates, 'clip.mkv')), makeClip(join(templates, 'clip.avi'), { video: 'mpeg4', audio: 'mp3', seconds: 2 })]);
});
afterAll(() => rm(root, { recursive: true, force: true }));

let n = 0;
beforeEach(async () => {
  dir = join(root, `case-${++n}`);
  await mkdir(join(dir, 'media'), { recursive: true });
});
afterEach(() => {
  process.env.PATH = PATH;
});

async function source(ext: 'mkv' | 'avi'): Promise<string> {
  const file = join(dir, 'media', `Movie (2001).${ext}`);
  await copyFile(join(templates, `clip.${ext}`), file);
  return file;
}

function job(file: string, extra: Partial<TranscodeJob> = {}): TranscodeJob {
  return { file, encoder: 'libx264', journal: workJournal(dataDir(join(dir, 'data'))), jobId: '3', adoptExisting: false, ...extra };
}

const names = () => readdir(join(dir, 'media'));

describe('transcodeToMp4 on real media', () => {
  it('copies h264/aac into MP4 with text subtitles as mov_text and chapters, drops the font, reports progress', async () => {
    const file = await source('mkv');
    const progress: FfmpegProgress[] = [];
    const out = await transcodeToMp4(job(file, { onProgress: (p) => progress.push(p) }));
    expect(out.output).toBe(join(dir, 'media', 'Movie (2001).mp4'));
    expect(out.encoder).toBeNull();
    expect(out.command).toContain('-movflags');
    expect(out.dropped.map((d) => d.type)).toEqual(['attachment']);
    const mp4 = await probeFile(out.output);
    expect(mp4.container).toContain('mp4');
    expect(mp4.streams.map((s) => `${s.type}:${s.codec}:${s.language}`)).toEqual([
      'video:h264:null',
      'audio:aac:eng',
      'audio:aac:fra',
      'subtitle:mov_text:eng',
      'subtitle:mov_text:spa',
    ]);
    expect(mp4.chapters).toBe(2);
    expect(progress.at(-1)).toMatchObject({ done: true, percent: 100 });
    // The source stays: removing it is the caller's decision, made after the result is recorded.
    expect((await names()).sort()).toEqual(['Movie (2001).mkv', 'Movie (2001).mp4']);
  });

  it.each([
    ['one subtitle default, one forced', {}],
    ['no subtitle default (ffmpeg made the first one default)', { noDefaultSubtitle: true }],
  ])('keeps every stream’s language, title and default/forced flags: %s', async (_, flags) => {
    const file = join(dir, 'media', 'Flags (2002).mkv');
    await makeClip(file, { subtitles: true, seconds: 2, ...flags });
    const identity = (s: MediaStream) => ({ type: s.type, language: s.language, title: s.title, default: s.default, forced: s.forced });
    const before = (await probeFile(file)).streams.map(identity);
    expect(before.filter((s) => s.type === 'subtitle').map((s) => s.default)).toEqual([!('noDefaultSubtitle' in flags), false]);
    const out = await transcodeToMp4(job(file));
    expect((await probeFile(out.output)).streams.map(identity)).toEqual(before);
  });

  it('encodes MPEG-4 video with libx264 and keeps MP3 audio', async () => {
    const file = await source('avi');
    const out = await transcodeToMp4(job(file));
    expect(out.encoder).toBe('libx264');
    expect((await probeFile(out.output)).streams.map((s) => `${s.type}:${s.codec}`)).toEqual(['video:h264', 'audio:mp3', 'audio:mp3']);
  });

  it('falls back to libx264 when the hardware encoder fails (no GPU on this box)', async () => {
    const file = await source('avi');
    const fallbacks: string[] = [];
    const out = await transcodeToMp4(job(file, { encoder: 'h264_nvenc', onFallback: (from) => fallbacks.push(from) }));
    expect(fallbacks).toEqual(['h264_nvenc']);
    expect(out.encoder).toBe('libx264');
    expect(out.command).toContain('libx264');
    expect((await probeFile(out.output)).streams[0]!.codec).toBe('h264');
  });

  it('never overwrites an MP4 that is already there', async () => {
    const file = await source('mkv');
    await writeFile(mp4PathFor(file), 'someone else’s');
    const err = await transcodeToMp4(job(file)).catch((e: unknown) => e);
    expect((err as AppError).code).toBe('conflict');
    expect(await readFile(mp4PathFor(file), 'utf8')).toBe('someone else’s');
  });

  it('takes over its own earlier attempt’s verified output, but not a file that does not match', async () => {
    const file = await source('mkv');
    const first = await transcodeToMp4(job(file));
    const again = await transcodeToMp4(job(file, { adoptExisting: true }));
    expect(again).toEqual({ ...first, command: [] });
    await writeFile(mp4PathFor(file), 'half a file');
    await expect(transcodeToMp4(job(file, { adoptExisting: true }))).rejects.toMatchObject({ code: 'conflict' });
  });

  it('never takes the source itself for its earlier output (a source whose name led to an MP4)', async () => {
    const file = await source('mkv');
    const { output } = await transcodeToMp4(job(file));
    await expect(transcodeToMp4(job(output, { adoptExisting: true }))).rejects.toMatchObject({ code: 'conflict' });
  });

  it('leaves no MP4 and no temp when cancelled', async () => {
    const file = await source('avi');
    process.env.PATH = await ffmpegWrapper(join(dir, 'bin'), slowStart(10));
    const ac = new AbortController();
    setTimeout(() => ac.abort('cancelled'), 300);
    const err = await transcodeToMp4(job(file, { signal: ac.signal })).catch((e: unknown) => e);
    expect((err as ToolError).reason).toBe('cancelled');
    expect(await names()).toEqual(['Movie (2001).avi']);
    expect(await readdir(join(dir, 'data', 'media-work'))).toEqual([]);
  });
});
