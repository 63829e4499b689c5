import { link, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '@mo/shared';
import { validateFileConfig } from '../config/load.ts';
import { listRecycle, restoreRecycled } from '../recycle/recycle-bin.ts';
import { transcoderFiles } from './transcoder-files.ts';

let dir: string;
let drive: string;
let cfg: Config;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mo-transcoder-files-'));
  drive = join(dir, 'drive');
  await mkdir(join(drive, 'Movies'), { recursive: true });
  await mkdir(join(dir, 'downloads'));
  cfg = validateFileConfig('test', { paths: { downloads: join(dir, 'downloads'), config: dir, data: dir }, drives: [{ name: 'disk1', path: drive }] });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('transcoderFiles: the real files behind the transcoder service', () => {
  it('guards paths as every endpoint does: the roots, the extensions, a file that is there', async () => {
    const files = transcoderFiles();
    const avi = join(drive, 'Movies', 'a.avi');
    await writeFile(avi, 'original');
    await writeFile(join(dir, 'outside.avi'), 'x');
    await symlink(join(dir, 'outside.avi'), join(drive, 'Movies', 'link.avi'));
    expect(await files.guard(avi, cfg, ['.avi'])).toEqual({ requested: avi, real: avi });
    await expect(files.guard(avi, cfg, ['.mp4'])).rejects.toMatchObject({ code: 'bad_request' });
    await expect(files.guard(join(drive, 'Movies', 'gone.avi'), cfg, ['.avi'])).rejects.toMatchObject({ code: 'not_found' });
    await expect(files.guard(join(drive, 'Movies', 'link.avi'), cfg, ['.avi'])).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('tells two names of one file apart from two files, and removes a name only while it is the file checked', async () => {
    const files = transcoderFiles();
    const avi = join(drive, 'Movies', 'a.avi');
    const mp4 = join(drive, 'Movies', 'a.mp4');
    const same = join(drive, 'Movies', 'same.avi');
    await writeFile(avi, 'original');
    await writeFile(mp4, 'mp4');
    await link(mp4, same);
    const [a, m, s] = await Promise.all([files.identity(avi), files.identity(mp4), files.identity(same)]);
    expect(a).not.toEqual(m);
    expect(s).toEqual(m);
    const off = { ...cfg, library: { ...cfg.library, recycle_bin: false } };
    expect(await files.remove(avi, m.ino, off)).toMatchObject({ removed: false });
    expect((await stat(avi)).isFile()).toBe(true);
    expect(await files.remove(avi, a.ino, off)).toEqual({ removed: true, recycled_to: null });
    await expect(stat(avi)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await stat(mp4)).isFile()).toBe(true);
    expect(await listRecycle(cfg.drives)).toEqual([]);
  });

  it('with recycle_bin on, moves the original into its drive’s bin, from where a restore puts it back', async () => {
    const files = transcoderFiles();
    const avi = join(drive, 'Movies', 'a.avi');
    await writeFile(avi, 'original');
    const { ino } = await files.identity(avi);
    await writeFile(join(drive, 'Movies', 'b.avi'), 'other');
    // Another file at the name is not the one checked: it stays, and nothing goes to the bin.
    expect(await files.remove(join(drive, 'Movies', 'b.avi'), ino, cfg)).toMatchObject({ removed: false, reason: expect.stringContaining('recycle_bin') });
    const out = await files.remove(avi, ino, cfg);
    const day = new Date().toISOString().slice(0, 10);
    expect(out).toEqual({ removed: true, recycled_to: join(drive, '.recycle', day, 'Movies', 'a.avi') });
    await expect(stat(avi)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await listRecycle(cfg.drives)).toMatchObject([{ path: join(drive, '.recycle', day, 'Movies', 'a.avi'), original: avi, bytes: 8 }]);
    await restoreRecycled({ drives: cfg.drives, path: join(drive, '.recycle', day, 'Movies', 'a.avi') });
    expect(await readFile(avi, 'utf8')).toBe('original');
    expect((await stat(avi)).ino).toBe(ino);
  });

  it('with recycle_bin on, a file on no drive is kept, never deleted, and says why', async () => {
    const files = transcoderFiles();
    const avi = join(dir, 'downloads', 'a.avi');
    await writeFile(avi, 'download');
    const out = await files.remove(avi, (await files.identity(avi)).ino, cfg);
    expect(out).toMatchObject({ removed: false, reason: expect.stringMatching(/recycle_bin is on.*no drive/) });
    expect(await readFile(avi, 'utf8')).toBe('download');
  });
});
