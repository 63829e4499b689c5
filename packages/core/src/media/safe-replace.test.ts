import { chmod, mkdir, mkdtemp, readFile, readdir, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileStamp, placeVerified, removeSource, replaceVerified } from './safe-replace.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mo-replace-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('replaceVerified', () => {
  it('renames the temp over the target, which keeps its permissions', async () => {
    const target = join(dir, 'A.mkv');
    const temp = join(dir, '.mo-remux-1.A.mkv.part');
    await writeFile(target, 'old');
    await chmod(target, 0o640);
    await writeFile(temp, 'new');
    await replaceVerified(temp, target, await fileStamp(target));
    expect(await readFile(target, 'utf8')).toBe('new');
    expect((await stat(target)).mode & 0o777).toBe(0o640);
    expect(await readdir(dir)).toEqual(['A.mkv']);
  });

  it('refuses when the target changed since it was read, and leaves it as it now is', async () => {
    const target = join(dir, 'A.mkv');
    const temp = join(dir, '.mo-remux-1.A.mkv.part');
    await writeFile(target, 'old');
    const before = await fileStamp(target);
    await writeFile(target, 'changed by another job');
    await utimes(target, new Date(), new Date(Date.now() + 5000));
    await writeFile(temp, 'new');
    await expect(replaceVerified(temp, target, before)).rejects.toMatchObject({ code: 'conflict' });
    expect(await readFile(target, 'utf8')).toBe('changed by another job');
  });
});

describe('placeVerified', () => {
  it('puts the temp at a free name', async () => {
    const temp = join(dir, '.mo-transcode-1.A.mp4.part');
    await writeFile(temp, 'mp4');
    await placeVerified(temp, join(dir, 'A.mp4'));
    expect(await readdir(dir)).toEqual(['A.mp4']);
  });

  it('never overwrites a file that is already there', async () => {
    const temp = join(dir, '.mo-transcode-1.A.mp4.part');
    await writeFile(temp, 'mp4');
    await writeFile(join(dir, 'A.mp4'), 'theirs');
    await expect(placeVerified(temp, join(dir, 'A.mp4'))).rejects.toMatchObject({ code: 'conflict' });
    expect(await readFile(join(dir, 'A.mp4'), 'utf8')).toBe('theirs');
  });
});

describe('removeSource', () => {
  it('deletes the file that was read, and counts a file already gone as removed', async () => {
    const file = join(dir, 'A.avi');
    await writeFile(file, 'source');
    const { ino } = await stat(file);
    expect(await removeSource(file, ino)).toBe(true);
    expect(await readdir(dir)).toEqual([]);
    expect(await removeSource(file, ino)).toBe(true);
  });

  it('leaves another file put in its place, and a folder swapped for a link elsewhere', async () => {
    const file = join(dir, 'A.avi');
    await writeFile(file, 'source');
    const { ino } = await stat(file);
    await writeFile(join(dir, 'other'), 'not the source');
    await rename(join(dir, 'other'), file);
    expect(await removeSource(file, ino)).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('not the source');

    await mkdir(join(dir, 'show'));
    await mkdir(join(dir, 'away'));
    const inShow = join(dir, 'show', 'B.avi');
    await writeFile(inShow, 'source');
    const shown = await stat(inShow);
    await rename(join(dir, 'show'), join(dir, 'show.real'));
    await symlink(join(dir, 'away'), join(dir, 'show'));
    await writeFile(join(dir, 'away', 'B.avi'), 'someone else');
    expect(await removeSource(inShow, shown.ino)).toBe(false);
    expect(await readFile(join(dir, 'away', 'B.avi'), 'utf8')).toBe('someone else');
  });
});
