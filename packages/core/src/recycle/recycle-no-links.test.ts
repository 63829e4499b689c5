import { lstat, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recycleFile, type Drive } from './recycle-bin.ts';

// A filesystem that keeps no hard links (exFAT, some SMB mounts): every link fails with EPERM and
// the bin falls back to a checked rename, so a file in the bin has no other name.
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof import('node:fs/promises')>();
  const link = () => Promise.reject(Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' }));
  return { ...fs, link, default: { ...fs, link } };
});

let root: string;
let drive: Drive;
const now = new Date('2026-11-28T10:00:00Z');
const folder = () => join(drive.path, 'Movies', 'Heat (1995)');

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mo-recycle-nolinks-'));
  drive = { name: 'disk1', path: join(root, 'disk1') };
  await mkdir(folder(), { recursive: true });
  await writeFile(join(folder(), 'Heat (1995).mkv'), 'video');
  await writeFile(join(folder(), 'Heat (1995).en.srt'), 'subs');
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('recycleFile where the filesystem keeps no hard links', () => {
  it('moves a set whose later file finds its bin path taken to the next day folder whole, the earlier file renamed back first, not deleted', async () => {
    // An earlier recycle today left another subtitle of that name in the day folder.
    const day = join(drive.path, '.recycle', '2026-11-28', 'Movies', 'Heat (1995)');
    await mkdir(day, { recursive: true });
    await writeFile(join(day, 'Heat (1995).en.srt'), 'older subs');
    const items = await recycleFile({ drives: [drive], file: join(folder(), 'Heat (1995).mkv'), sidecars: [join(folder(), 'Heat (1995).en.srt')], now });
    const next = join(drive.path, '.recycle', '2026-11-28.2', 'Movies', 'Heat (1995)');
    expect(items.map((i) => i.path)).toEqual([join(next, 'Heat (1995).mkv'), join(next, 'Heat (1995).en.srt')]);
    expect(await readFile(join(next, 'Heat (1995).mkv'), 'utf8')).toBe('video');
    expect(await readFile(join(day, 'Heat (1995).en.srt'), 'utf8')).toBe('older subs');
    expect(await lstat(join(day, 'Heat (1995).mkv')).catch(() => null)).toBeNull();
  });

  it('puts the earlier file back at its name when a later one cannot go', async () => {
    // A file where the sidecar's bin folder must be: the sidecar is refused after the video was renamed in.
    const subs = join(folder(), 'Subs', 'Heat.en.srt');
    await mkdir(join(folder(), 'Subs'));
    await writeFile(subs, 'subs');
    const day = join(drive.path, '.recycle', '2026-11-28', 'Movies', 'Heat (1995)');
    await mkdir(day, { recursive: true });
    await writeFile(join(day, 'Subs'), 'a file, not a folder');
    await expect(recycleFile({ drives: [drive], file: join(folder(), 'Heat (1995).mkv'), sidecars: [subs], now })).rejects.toThrow(/needs a folder/);
    expect(await readFile(join(folder(), 'Heat (1995).mkv'), 'utf8')).toBe('video');
    expect(await readFile(subs, 'utf8')).toBe('subs');
    expect(await lstat(join(day, 'Heat (1995).mkv')).catch(() => null)).toBeNull();
  });
});
