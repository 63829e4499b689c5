import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import type { MediaStream } from './probe.ts';
import { applyTrackAction, type TrackJob } from './remux.ts';
import { probeFile, ToolError } from './run.ts';
import { fullClip } from './test-fixtures/clips.ts';
import { ffmpegWrapper, SHORT_OUTPUT, slowStart } from './test-fixtures/ffmpeg-wrapper.ts';
import { workJournal } from './work-journal.ts';
import { dataDir } from '../data-dir/data-dir.ts';
import { keepInBin, listRecycle, restoreRecycled, type Drive } from '../recycle/recycle-bin.ts';

let root: string;
let templates: string;
let dir: string;
let data: string;
const PATH = process.env.PATH;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mo-remux-'));
  templates = join(root, 'templates');
  await mkdir(templates);
  await Promise.all([fullClip(join(templates, 'clip.mkv')), fullClip(join(templates, 'clip.mp4'))]);
});
afterAll(() => rm(root, { recursive: true, force: true }));

let n = 0;
beforeEach(async () => {
  dir = join(root, `case-${++n}`);
  data = join(dir, 'data');
  await mkdir(join(dir, 'media'), { recursive: true });
});
afterEach(() => {
  process.env.PATH = PATH;
});

async function clip(ext: 'mkv' | 'mp4'): Promise<{ file: string; before: MediaStream[] }> {
  const file = join(dir, 'media', `Movie.${ext}`);
  await copyFile(join(templates, `clip.${ext}`), file);
  return { file, before: (await probeFile(file)).streams };
}

function act(job: TrackJob, signal?: AbortSignal, bin?: Drive[]) {
  return applyTrackAction(job, { journal: workJournal(dataDir(data)), jobId: '1', ...(signal ? { signal } : {}), ...(bin ? { bin } : {}) });
}

const summary = (streams: MediaStream[]) => streams.map((s) => `${s.index}:${s.type}:${s.language}:${s.title}:${s.default ? 'D' : ''}${s.forced ? 'F' : ''}`);
const leftovers = async () => [...(await readdir(join(dir, 'media'))), ...(await readdir(join(data, 'media-work')).catch(() => []))];

describe('applyTrackAction on real media', () => {
  it('set_default: moves the default flag within the type; tags, other flags, chapters and attachments stay', async () => {
    const { file, before } = await clip('mkv');
    expect(summary(before)).toEqual([
      '0:video:null:null:D',
      '1:audio:eng:English Stereo:D',
      '2:audio:fra:Français:',
      '3:subtitle:eng:English:D',
      '4:subtitle:spa:Español:F',
    ]);
    const out = await act({ file, action: 'set_default', stream: 2, before });
    expect(out.changed).toBe(true);
    expect(out.command).toContain('-disposition:a:1');
    expect(summary(out.streams)).toEqual([
      '0:video:null:null:D',
      '1:audio:eng:English Stereo:',
      '2:audio:fra:Français:D',
      '3:subtitle:eng:English:D',
      '4:subtitle:spa:Español:F',
    ]);
    const after = await probeFile(file);
    expect(after.chapters).toBe(2);
    expect(after.others.map((o) => o.type)).toEqual(['attachment']);
    expect(await leftovers()).toEqual(['Movie.mkv']);
  });

  it('remove: drops one subtitle track and keeps every other stream', async () => {
    const { file, before } = await clip('mkv');
    const out = await act({ file, action: 'remove', stream: 3, before });
    expect(summary(out.streams)).toEqual(['0:video:null:null:D', '1:audio:eng:English Stereo:D', '2:audio:fra:Français:', '3:subtitle:spa:Español:F']);
    const after = await probeFile(file);
    expect([after.chapters, after.others.length]).toEqual([2, 1]);
  });

  it('MP4: removes the default audio track (the next one becomes default: MP4 enables one) and keeps the chapters once', async () => {
    const { file, before } = await clip('mp4');
    const out = await act({ file, action: 'remove', stream: 1, before });
    expect(summary(out.streams)).toEqual(['0:video:null:null:D', '1:audio:fra:null:D', '2:subtitle:eng:null:D', '3:subtitle:spa:null:F']);
    const after = await probeFile(file);
    expect(after.chapters).toBe(2);
    expect(after.others.filter((o) => o.type === 'data')).toHaveLength(1);
  });

  it('a job delivered twice removes one stream, not two', async () => {
    const { file, before } = await clip('mkv');
    const job = { file, action: 'remove' as const, stream: 1, before };
    const first = await act(job);
    const bytes = await readFile(file);
    const second = await act(job);
    expect(second).toEqual({ command: [], streams: first.streams, changed: false, recycled_to: null });
    expect((await readFile(file)).equals(bytes)).toBe(true);
  });

  it('refuses a file whose streams changed since the request, and leaves it alone', async () => {
    const { file, before } = await clip('mkv');
    const bytes = await readFile(file);
    const stale = before.map((s) => (s.index === 2 ? { ...s, title: 'Something else' } : s));
    const err = await act({ file, action: 'remove', stream: 2, before: stale }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('conflict');
    expect((await readFile(file)).equals(bytes)).toBe(true);
  });

  it('keeps the original byte for byte when the output fails verification', async () => {
    const { file, before } = await clip('mkv');
    const bytes = await readFile(file);
    process.env.PATH = await ffmpegWrapper(join(dir, 'bin'), SHORT_OUTPUT);
    await expect(act({ file, action: 'remove', stream: 2, before })).rejects.toThrow(/failed verification: .*duration is 1\.\d+ s/);
    expect((await readFile(file)).equals(bytes)).toBe(true);
    expect(await leftovers()).toEqual(['Movie.mkv']);
  });

  it('keeps the original and no temp when cancelled midway', async () => {
    const { file, before } = await clip('mkv');
    const bytes = await readFile(file);
    process.env.PATH = await ffmpegWrapper(join(dir, 'bin'), slowStart(10));
    const ac = new AbortController();
    setTimeout(() => ac.abort('cancelled'), 300);
    const err = await act({ file, action: 'remove', stream: 2, before }, ac.signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).reason).toBe('cancelled');
    expect((await readFile(file)).equals(bytes)).toBe(true);
    expect(await leftovers()).toEqual(['Movie.mkv']);
  });
});

describe('applyTrackAction with the recycle bin on', () => {
  const drive = (): Drive => ({ name: 'disk1', path: join(dir, 'media') });
  const binned = () => join(dir, 'media', '.recycle', new Date().toISOString().slice(0, 10), 'Movie.mkv');

  it('keeps the file as it was in its drive’s bin, same inode and bytes; a restore puts it back', async () => {
    const { file, before } = await clip('mkv');
    const bytes = await readFile(file);
    const { ino } = await stat(file);
    const out = await act({ file, action: 'remove', stream: 2, before }, undefined, [drive()]);
    expect(out).toMatchObject({ changed: true, recycled_to: binned() });
    expect((await readFile(binned())).equals(bytes)).toBe(true);
    expect((await stat(binned())).ino).toBe(ino);
    expect((await readFile(file)).equals(bytes)).toBe(false);
    expect(await listRecycle([drive()])).toMatchObject([{ path: binned(), original: file, bytes: bytes.length }]);
    // The new file holds the name: a restore must not write over it, and does once it is moved away.
    await expect(restoreRecycled({ drives: [drive()], path: binned() })).rejects.toMatchObject({ code: 'conflict' });
    await rm(file);
    await restoreRecycled({ drives: [drive()], path: binned() });
    expect((await readFile(file)).equals(bytes)).toBe(true);
  });

  it('after a try killed between the bin link and the rename, the next one finishes, taking the same bin entry', async () => {
    const { file, before } = await clip('mkv');
    const bytes = await readFile(file);
    // What the killed try left: the old file at its name and in the bin.
    await keepInBin({ drives: [drive()], file, ino: (await stat(file)).ino });
    const out = await act({ file, action: 'remove', stream: 2, before }, undefined, [drive()]);
    expect(out).toMatchObject({ changed: true, recycled_to: binned() });
    expect((await listRecycle([drive()])).map((i) => i.path)).toEqual([binned()]);
    expect((await readFile(binned())).equals(bytes)).toBe(true);
  });

  it('another file at that bin path that day is left alone: the old file goes to the next day folder', async () => {
    const { file, before } = await clip('mkv');
    await mkdir(join(binned(), '..'), { recursive: true });
    await writeFile(binned(), 'an earlier Movie.mkv');
    const out = await act({ file, action: 'remove', stream: 2, before }, undefined, [drive()]);
    expect(out.recycled_to).toBe(binned().replace(/(\d{4}-\d{2}-\d{2})/, '$1.2'));
    expect(await readFile(binned(), 'utf8')).toBe('an earlier Movie.mkv');
  });

  it('a file on none of the drives (a download) is replaced as with the bin off; without the bin nothing is kept', async () => {
    const { file, before } = await clip('mkv');
    const other = { name: 'disk2', path: join(dir, 'elsewhere') };
    await mkdir(other.path);
    expect(await act({ file, action: 'remove', stream: 2, before }, undefined, [other])).toMatchObject({ changed: true, recycled_to: null });
    const again = await act({ file, action: 'remove', stream: 1, before: (await probeFile(file)).streams });
    expect(again).toMatchObject({ changed: true, recycled_to: null });
    expect(await leftovers()).toEqual(['Movie.mkv']);
    expect(await readdir(other.path)).toEqual([]);
  });

  it('a bin that is no folder refuses the remux: the file stays as it was, nothing replaced', async () => {
    const { file, before } = await clip('mkv');
    const bytes = await readFile(file);
    await writeFile(join(dir, 'media', '.recycle'), 'not a folder');
    await expect(act({ file, action: 'remove', stream: 2, before }, undefined, [drive()])).rejects.toMatchObject({ code: 'conflict' });
    expect((await readFile(file)).equals(bytes)).toBe(true);
    expect((await leftovers()).sort()).toEqual(['.recycle', 'Movie.mkv']);
  });
});
