import { chmod, lstat, mkdir, mkdtemp, readFile, readdir, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
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
    await replaceVerified(temp, target, await fileStamp(target), await stat(temp));
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
    await expect(replaceVerified(temp, target, before, await stat(temp))).rejects.toMatchObject({ code: 'conflict' });
    expect(await readFile(target, 'utf8')).toBe('changed by another job');
  });
});

describe('replaceVerified with the temp swapped for a link after it was verified', () => {
  it("gives the target's mode and owner to nothing the link leads to, and puts no link in its place", async () => {
    // Whoever may write the folder (a downloads folder) puts a link where the temp was: chmod and
    // chown by name would follow it and hand a root worker's target owner the file it names.
    const target = join(dir, 'A.mkv');
    const temp = join(dir, '.mo-remux-1.A.mkv.part');
    const victim = join(dir, 'shadow');
    await writeFile(target, 'old');
    await chmod(target, 0o666);
    await writeFile(victim, 'secret');
    await chmod(victim, 0o600);
    await writeFile(temp, 'new');
    const verified = await stat(temp);
    await rm(temp);
    await symlink(victim, temp);
    await expect(replaceVerified(temp, target, await fileStamp(target), verified)).rejects.toThrow('not the file that was verified');
    expect((await stat(victim)).mode & 0o777).toBe(0o600);
    expect((await lstat(target)).isFile()).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('old');
  });
});

describe('replaceVerified and placeVerified with the temp replaced by another file after it was verified', () => {
  it('put nothing in place but the file that was verified', async () => {
    const target = join(dir, 'A.mkv');
    const temp = join(dir, '.mo-remux-1.A.mkv.part');
    await writeFile(target, 'old');
    await writeFile(temp, 'verified');
    const verified = await stat(temp);
    await writeFile(join(dir, 'other'), 'not verified');
    await rename(join(dir, 'other'), temp);
    await expect(replaceVerified(temp, target, await fileStamp(target), verified)).rejects.toThrow('not the file that was verified');
    expect(await readFile(target, 'utf8')).toBe('old');
    await expect(placeVerified(temp, join(dir, 'A.mp4'), verified)).rejects.toThrow('not the file that was verified');
    expect(await readdir(dir)).not.toContain('A.mp4');
  });
});

describe('placeVerified', () => {
  it('puts the temp at a free name', async () => {
    const temp = join(dir, '.mo-transcode-1.A.mp4.part');
    await writeFile(temp, 'mp4');
    await placeVerified(temp, join(dir, 'A.mp4'), await stat(temp));
    expect(await readdir(dir)).toEqual(['A.mp4']);
  });

  it('puts no link at the free name when the temp was swapped for one after it was verified', async () => {
    const temp = join(dir, '.mo-transcode-1.A.mp4.part');
    await writeFile(join(dir, 'elsewhere'), 'not the verified MP4');
    await writeFile(temp, 'mp4');
    const verified = await stat(temp);
    await rename(temp, join(dir, 'verified'));
    await symlink(join(dir, 'elsewhere'), temp);
    await expect(placeVerified(temp, join(dir, 'A.mp4'), verified)).rejects.toThrow('not the file that was verified');
    expect((await readdir(dir)).sort()).toEqual(['.mo-transcode-1.A.mp4.part', 'elsewhere', 'verified']);
  });

  it('never overwrites a file that is already there', async () => {
    const temp = join(dir, '.mo-transcode-1.A.mp4.part');
    await writeFile(temp, 'mp4');
    await writeFile(join(dir, 'A.mp4'), 'theirs');
    await expect(placeVerified(temp, join(dir, 'A.mp4'), await stat(temp))).rejects.toMatchObject({ code: 'conflict' });
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
