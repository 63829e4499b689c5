import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { openMedia, pinFolder, withMediaInFolder } from './open-media.ts';
import { bindDescriptors, probeFile, probeOpened, runWith } from './run.ts';
import { makeClip } from './test-fixtures/clips.ts';
import { muxerFor } from './containers.ts';
import { trackCommand } from './track-command.ts';

let dir: string;
/** A 2 s clip and a 4 s one: which of the two was read shows in the duration. */
let inside: string;
let outsideClip: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mo-open-'));
  await mkdir(join(dir, 'clips'));
  inside = join(dir, 'clips', 'inside.mkv');
  outsideClip = join(dir, 'clips', 'outside.mkv');
  await makeClip(inside, { seconds: 2 });
  await makeClip(outsideClip, { seconds: 4 });
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

let root: string; // a library folder
let away: string; // a folder outside it
beforeEach(async () => {
  const n = (await readdir(dir)).length;
  root = join(dir, `root${n}`);
  away = join(dir, `away${n}`);
  await mkdir(join(root, 'show'), { recursive: true });
  await mkdir(join(away, 'show'), { recursive: true });
  execFileSync('cp', [inside, join(root, 'show', 'clip.mkv')]);
  execFileSync('cp', [outsideClip, join(away, 'show', 'clip.mkv')]);
});

/** Replaces the folder `root/show` with a link to `away/show`, as a crafted download can. */
async function swapFolder() {
  await rename(join(root, 'show'), join(root, 'show.real'));
  await symlink(join(away, 'show'), join(root, 'show'));
}

async function appError(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('openMedia', () => {
  it('opens the file once, with its demuxer, its own status and the descriptor ffprobe reads', async () => {
    const media = await openMedia(join(root, 'show', 'clip.mkv'));
    try {
      expect(media.path).toBe(join(root, 'show', 'clip.mkv'));
      expect(media.demuxer.format).toBe('matroska');
      expect(media.stat.isFile()).toBe(true);
      expect((await probeOpened(media)).duration_seconds).toBeCloseTo(2, 0);
    } finally {
      await media.close();
    }
  });

  it('reads the file it opened after its folder is swapped for a link elsewhere', async () => {
    const media = await openMedia(join(root, 'show', 'clip.mkv'));
    try {
      await swapFolder();
      // By path the file is now the 4 s clip outside; the descriptor still reads the 2 s one.
      expect((await probeFile(join(away, 'show', 'clip.mkv'))).duration_seconds).toBeCloseTo(4, 0);
      expect((await probeOpened(media)).duration_seconds).toBeCloseTo(2, 0);
    } finally {
      await media.close();
    }
  });

  it('refuses, reading nothing, when a folder on the way became a link between the check and the open', async () => {
    const checked = join(root, 'show', 'clip.mkv'); // what the path guard resolved and allowed
    await swapFolder();
    const err = await appError(openMedia(checked));
    expect(err.code).toBe('forbidden');
    expect(err.message).toContain(`it leads to ${join(away, 'show', 'clip.mkv')} now`);
  });

  it('refuses a last component that became a symbolic link', async () => {
    await rm(join(root, 'show', 'clip.mkv'));
    await symlink(join(away, 'show', 'clip.mkv'), join(root, 'show', 'clip.mkv'));
    expect((await appError(openMedia(join(root, 'show', 'clip.mkv')))).code).toBe('forbidden');
  });

  it('refuses what is not a regular media file, without hanging on a FIFO', async () => {
    const fifo = join(root, 'show', 'pipe.mkv');
    execFileSync('mkfifo', [fifo]);
    expect((await appError(openMedia(fifo))).message).toMatch(/is not a regular file/);
    await mkdir(join(root, 'show', 'folder.mkv'));
    expect((await appError(openMedia(join(root, 'show', 'folder.mkv')))).code).toBe('bad_request');
    expect((await appError(openMedia(join(root, 'show', 'none.mkv')))).code).toBe('not_found');
    await writeFile(join(root, 'show', 'list.mkv'), "ffconcat version 1.0\nfile '/etc/passwd'\n");
    expect((await appError(openMedia(join(root, 'show', 'list.mkv')))).message).toMatch(
      /cannot read .* as media: it is an ffconcat list, refused before ffmpeg runs/,
    );
    await writeFile(join(root, 'show', 'hls.mkv'), '#EXTM3U\n#EXTINF:1,\n/etc/passwd\n');
    expect((await appError(openMedia(join(root, 'show', 'hls.mkv')))).message).toMatch(/it is an HLS playlist/);
    await writeFile(join(root, 'show', 'url.strm'), 'http://127.0.0.1/\n');
    expect((await appError(openMedia(join(root, 'show', 'url.strm')))).message).toMatch(/\.strm is not a container this service reads/);
  });
});

describe('pinFolder', () => {
  it('reaches names through the folder it opened, whatever its path leads to later', async () => {
    const folder = await pinFolder(join(root, 'show'));
    try {
      await swapFolder();
      await writeFile(folder.at('note.txt'), 'written through the descriptor');
      expect(await readFile(join(root, 'show.real', 'note.txt'), 'utf8')).toBe('written through the descriptor');
      expect(await readdir(join(away, 'show'))).toEqual(['clip.mkv']);
      expect(() => folder.at('../x')).toThrow(/not a plain file name/);
    } finally {
      await folder.close();
    }
  });

  it('refuses a folder that is a link elsewhere by the time it is opened', async () => {
    const checked = join(root, 'show');
    await swapFolder();
    expect((await appError(pinFolder(checked))).code).toBe('forbidden');
  });
});

describe('bindDescriptors', () => {
  const argv = ['ffmpeg', '-f', 'matroska', '-i', '/m/a.mkv', '-map', '0', '-f', 'matroska', '/m/.t.part'];
  it('reads the input through descriptor 3 and writes the output through the folder at descriptor 4', () => {
    expect(bindDescriptors(argv, { path: '/m/a.mkv' }, { path: '/m/.t.part', folder: { path: '/m' } })).toEqual([
      'ffmpeg',
      '-f',
      'matroska',
      '-i',
      'file:/dev/fd/3',
      '-map',
      '0',
      '-f',
      'matroska',
      'file:/dev/fd/4/.t.part',
    ]);
    expect(bindDescriptors(argv.slice(0, 5), { path: '/m/a.mkv' })).toEqual(['ffmpeg', '-f', 'matroska', '-i', 'file:/dev/fd/3']);
  });

  it('refuses a command with another input, another file, or an output outside the folder', () => {
    expect(() => bindDescriptors([...argv.slice(0, 5), '-i', '/etc/passwd', ...argv.slice(5)], { path: '/m/a.mkv' })).toThrow(/exactly one input/);
    expect(() => bindDescriptors(argv, { path: '/m/b.mkv' })).toThrow(/exactly one input/);
    expect(() => bindDescriptors(argv, { path: '/m/a.mkv' }, { path: '/m/.t.part', folder: { path: '/n' } })).toThrow(/output in \/n/);
    expect(() => bindDescriptors(argv, { path: '/m/a.mkv' }, { path: '/m/other.part', folder: { path: '/m' } })).toThrow(/output in \/m/);
  });
});

describe('runWith', () => {
  it('remuxes the opened file into its pinned folder even once the folder path leads elsewhere', async () => {
    const file = join(root, 'show', 'clip.mkv');
    const muxer = muxerFor(file)!;
    const written = await withMediaInFolder(file, async (source, folder) => {
      await swapFolder();
      const temp = join(root, 'show', '.t.part');
      const argv = trackCommand(await probeOpened(source), { action: 'remove', stream: 2 }, file, temp, muxer);
      await runWith(argv, { input: source, output: { path: temp, folder } }, { timeoutMs: 60_000 });
      return probeFile(temp, { folder, as: file });
    });
    expect(written.streams.map((s) => s.type)).toEqual(['video', 'audio']);
    expect(written.duration_seconds).toBeCloseTo(2, 0);
    expect((await readdir(join(root, 'show.real'))).sort()).toEqual(['.t.part', 'clip.mkv']);
    expect(await readdir(join(away, 'show'))).toEqual(['clip.mkv']);
  }, 60_000);
});
