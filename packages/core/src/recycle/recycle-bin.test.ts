import { link, lstat, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { emptyRecycle, keepInBin, listRecycle, purgeRecycle, recycleFile, restoreRecycled, type Drive } from './recycle-bin.ts';

let root: string;
let drive: Drive;
const now = new Date('2026-11-28T10:00:00Z');

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mo-recycle-'));
  drive = { name: 'disk1', path: join(root, 'disk1') };
  await mkdir(join(drive.path, 'Movies', 'Heat (1995)'), { recursive: true });
  await writeFile(join(drive.path, 'Movies', 'Heat (1995)', 'Heat (1995).mkv'), 'video');
  await writeFile(join(drive.path, 'Movies', 'Heat (1995)', 'Heat (1995).en.srt'), 'subs');
});
afterEach(() => rm(root, { recursive: true, force: true }));

const heat = () => join(drive.path, 'Movies', 'Heat (1995)', 'Heat (1995).mkv');
const heatSrt = () => join(drive.path, 'Movies', 'Heat (1995)', 'Heat (1995).en.srt');
const exists = (p: string) =>
  lstat(p).then(
    () => true,
    () => false,
  );
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (err: unknown) => (err instanceof AppError ? err.code : String(err)),
  );

describe('recycleFile', () => {
  it('renames a file and its sidecars into today’s day folder, keeping the same inode', async () => {
    const ino = (await stat(heat())).ino;
    const items = await recycleFile({ drives: [drive], file: heat(), sidecars: [heatSrt()], now });
    const binned = join(drive.path, '.recycle', '2026-11-28', 'Movies', 'Heat (1995)', 'Heat (1995).mkv');
    expect(items.map((i) => i.path)).toEqual([binned, join(drive.path, '.recycle', '2026-11-28', 'Movies', 'Heat (1995)', 'Heat (1995).en.srt')]);
    expect(items[0]).toMatchObject({ original: heat(), bytes: 5, drive: 'disk1' });
    expect((await listRecycle([drive])).map((i) => i.recycled_at)).toContain(items[0]!.recycled_at);
    expect(await exists(heat())).toBe(false);
    expect(await exists(heatSrt())).toBe(false);
    expect((await stat(binned)).ino).toBe(ino);
  });

  it('never writes over a bin entry: a second copy of a path that day goes to the next day folder', async () => {
    await recycleFile({ drives: [drive], file: heat(), now });
    await writeFile(heat(), 'second');
    const [item] = await recycleFile({ drives: [drive], file: heat(), now });
    expect(item!.path).toBe(join(drive.path, '.recycle', '2026-11-28.2', 'Movies', 'Heat (1995)', 'Heat (1995).mkv'));
    expect(await readFile(join(drive.path, '.recycle', '2026-11-28', 'Movies', 'Heat (1995)', 'Heat (1995).mkv'), 'utf8')).toBe('video');
  });

  it('refuses a file on no drive, one in the bin, a missing one; nothing moves', async () => {
    const outside = join(root, 'elsewhere.mkv');
    await writeFile(outside, 'x');
    expect(await code(recycleFile({ drives: [drive], file: outside, now }))).toBe('forbidden');
    expect(await code(recycleFile({ drives: [drive], file: join(drive.path, 'nope.mkv'), now }))).toBe('not_found');
    const [item] = await recycleFile({ drives: [drive], file: heat(), now });
    expect(await code(recycleFile({ drives: [drive], file: item!.path, now }))).toBe('forbidden');
    expect(await exists(outside)).toBe(true);
    // a sidecar off the drive stops the video too
    expect(await code(recycleFile({ drives: [drive], file: heatSrt(), sidecars: [outside], now }))).toBe('forbidden');
    expect(await exists(heatSrt())).toBe(true);
  });
});

describe('recycleFile after a kill', () => {
  it('a recycle killed between its link and its unlink is finished by the next one, in the same bin entry', async () => {
    const binned = join(drive.path, '.recycle', '2026-11-28', 'Movies', 'Heat (1995)', 'Heat (1995).mkv');
    await mkdir(join(binned, '..'), { recursive: true });
    // What the killed recycle left: the file at its name and, the same inode, in the bin.
    await link(heat(), binned);
    const items = await recycleFile({ drives: [drive], file: heat(), sidecars: [heatSrt()], now });
    expect(items.map((i) => i.path)).toEqual([binned, join(binned, '..', 'Heat (1995).en.srt')]);
    expect(await exists(heat())).toBe(false);
    expect((await listRecycle([drive])).length).toBe(2);
  });
});

describe('recycleFile with an inode to check', () => {
  it('moves the file only while its name is still that inode; another file at the name stays, the bin stays empty', async () => {
    const ino = (await stat(heat())).ino;
    await writeFile(join(drive.path, 'Movies', 'other.mkv'), 'other');
    expect(await code(recycleFile({ drives: [drive], file: join(drive.path, 'Movies', 'other.mkv'), ino, now }))).toBe('conflict');
    expect(await listRecycle([drive])).toEqual([]);
    const [item] = await recycleFile({ drives: [drive], file: heat(), ino, now });
    expect((await stat(item!.path)).ino).toBe(ino);
  });
});

describe('keepInBin', () => {
  it('links the file into today’s day folder and leaves it at its name: same inode in both places', async () => {
    const ino = (await stat(heat())).ino;
    const item = await keepInBin({ drives: [drive], file: heat(), ino, now });
    const binned = join(drive.path, '.recycle', '2026-11-28', 'Movies', 'Heat (1995)', 'Heat (1995).mkv');
    expect(item).toMatchObject({ path: binned, original: heat(), bytes: 5, drive: 'disk1' });
    expect((await stat(heat())).ino).toBe(ino);
    expect((await stat(binned)).ino).toBe(ino);
    expect((await listRecycle([drive])).map((i) => i.path)).toEqual([binned]);
  });

  it('takes the entry a killed try left of the same inode; another file there sends it to the next day folder', async () => {
    const ino = (await stat(heat())).ino;
    const first = await keepInBin({ drives: [drive], file: heat(), ino, now });
    expect(await keepInBin({ drives: [drive], file: heat(), ino, now })).toEqual(first);
    await rm(heat());
    await writeFile(heat(), 'new version');
    const second = await keepInBin({ drives: [drive], file: heat(), ino: (await stat(heat())).ino, now });
    expect(second!.path).toBe(join(drive.path, '.recycle', '2026-11-28.2', 'Movies', 'Heat (1995)', 'Heat (1995).mkv'));
    expect(await readFile(first!.path, 'utf8')).toBe('video');
  });

  it('null for a file on no drive; refuses another inode at the name, a missing file, a file in the bin', async () => {
    const outside = join(root, 'elsewhere.mkv');
    await writeFile(outside, 'x');
    expect(await keepInBin({ drives: [drive], file: outside, ino: (await stat(outside)).ino, now })).toBeNull();
    expect(await code(keepInBin({ drives: [drive], file: heat(), ino: (await stat(heatSrt())).ino, now }))).toBe('conflict');
    expect(await code(keepInBin({ drives: [drive], file: join(drive.path, 'nope.mkv'), ino: 1, now }))).toBe('not_found');
    const item = await keepInBin({ drives: [drive], file: heat(), ino: (await stat(heat())).ino, now });
    expect(await code(keepInBin({ drives: [drive], file: item!.path, ino: (await stat(item!.path)).ino, now }))).toBe('forbidden');
    expect(await exists(join(root, '.recycle'))).toBe(false);
  });
});

describe('recycleFile on a hostile drive', () => {
  it('refuses a bin that is a symbolic link, and a folder in it that leads off the drive; nothing moves', async () => {
    const outside = join(root, 'outside');
    await mkdir(join(outside, 'Movies'), { recursive: true });
    await symlink(outside, join(drive.path, '.recycle'));
    expect(await code(recycleFile({ drives: [drive], file: heat(), now }))).toBe('conflict');
    await rm(join(drive.path, '.recycle'));
    await mkdir(join(drive.path, '.recycle', '2026-11-28'), { recursive: true });
    await symlink(join(outside, 'Movies'), join(drive.path, '.recycle', '2026-11-28', 'Movies'));
    expect(await code(recycleFile({ drives: [drive], file: heat(), now }))).toBe('forbidden');
    expect(await readFile(heat(), 'utf8')).toBe('video');
    expect(await readdir(join(outside, 'Movies'))).toEqual([]);
  });
});

describe('listRecycle', () => {
  it('lists what is in the bin, and ignores what it did not lay out', async () => {
    expect(await listRecycle([drive])).toEqual([]);
    await recycleFile({ drives: [drive], file: heat(), now });
    await mkdir(join(drive.path, '.recycle', 'junk'), { recursive: true });
    await writeFile(join(drive.path, '.recycle', 'junk', 'a.mkv'), 'x');
    await symlink('/etc/passwd', join(drive.path, '.recycle', '2026-11-28', 'passwd'));
    const items = await listRecycle([drive]);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ original: heat(), bytes: 5, drive: 'disk1' });
  });

  it('a bin that is a symbolic link is no bin', async () => {
    const other = join(root, 'other');
    await mkdir(join(other, '2026-11-28'), { recursive: true });
    await writeFile(join(other, '2026-11-28', 'x.mkv'), 'x');
    await symlink(other, join(drive.path, '.recycle'));
    expect(await listRecycle([drive])).toEqual([]);
    expect(await code(restoreRecycled({ drives: [drive], path: join(drive.path, '.recycle', '2026-11-28', 'x.mkv') }))).toBe('not_found');
  });
});

describe('restoreRecycled', () => {
  it('puts the file back and removes the folders it leaves empty', async () => {
    const [item] = await recycleFile({ drives: [drive], file: heat(), now });
    expect(await restoreRecycled({ drives: [drive], path: item!.path })).toEqual({ path: item!.path, original: heat() });
    expect(await readFile(heat(), 'utf8')).toBe('video');
    expect(await readdir(join(drive.path, '.recycle'))).toEqual([]);
  });

  it('recreates missing folders on the way back', async () => {
    const [item] = await recycleFile({ drives: [drive], file: heat(), sidecars: [heatSrt()], now });
    await rm(join(drive.path, 'Movies'), { recursive: true });
    await restoreRecycled({ drives: [drive], path: item!.path });
    expect(await exists(heat())).toBe(true);
  });

  it('409 when the original path is taken; both files stay', async () => {
    const [item] = await recycleFile({ drives: [drive], file: heat(), now });
    await writeFile(heat(), 'new');
    expect(await code(restoreRecycled({ drives: [drive], path: item!.path }))).toBe('conflict');
    expect(await readFile(heat(), 'utf8')).toBe('new');
    expect(await readFile(item!.path, 'utf8')).toBe('video');
  });

  it('finishes a restore killed after the link: the same file in both places', async () => {
    const [item] = await recycleFile({ drives: [drive], file: heat(), now });
    await link(item!.path, heat());
    await restoreRecycled({ drives: [drive], path: item!.path });
    expect(await exists(item!.path)).toBe(false);
    expect(await readFile(heat(), 'utf8')).toBe('video');
  });

  it('404 for a path not in a bin or not laid out by the bin; 400 for a relative one', async () => {
    expect(await code(restoreRecycled({ drives: [drive], path: heat() }))).toBe('not_found');
    expect(await code(restoreRecycled({ drives: [drive], path: join(drive.path, '.recycle', '2026-11-28', 'gone.mkv') }))).toBe('not_found');
    await mkdir(join(drive.path, '.recycle', 'junk'), { recursive: true });
    await writeFile(join(drive.path, '.recycle', 'junk', 'a.mkv'), 'x');
    expect(await code(restoreRecycled({ drives: [drive], path: join(drive.path, '.recycle', 'junk', 'a.mkv') }))).toBe('not_found');
    expect(await code(restoreRecycled({ drives: [drive], path: 'disk1/.recycle/x' }))).toBe('bad_request');
  });

  it('refuses an original whose folder is now a symbolic link off the drive', async () => {
    const [item] = await recycleFile({ drives: [drive], file: heat(), sidecars: [heatSrt()], now });
    await rm(join(drive.path, 'Movies'), { recursive: true });
    await mkdir(join(root, 'outside'));
    await symlink(join(root, 'outside'), join(drive.path, 'Movies'));
    expect(await code(restoreRecycled({ drives: [drive], path: item!.path }))).toBe('forbidden');
    expect(await exists(item!.path)).toBe(true);
    expect(await readdir(join(root, 'outside'))).toEqual([]);
  });

  it('409, never a 500, when its folder is now a dangling link, a looping link or a file; dry run says so too', async () => {
    const folder = join(drive.path, 'Movies', 'Heat (1995)');
    for (const spoil of [() => symlink(join(root, 'nowhere'), folder), () => symlink(folder, folder), () => writeFile(folder, 'not a folder')]) {
      await mkdir(folder, { recursive: true });
      await writeFile(heat(), 'video');
      const [item] = await recycleFile({ drives: [drive], file: heat(), now });
      await rm(folder, { recursive: true, force: true });
      await spoil();
      for (const dryRun of [true, false]) {
        expect(await code(restoreRecycled({ drives: [drive], path: item!.path, dryRun }))).toBe('conflict');
      }
      expect(await readFile(item!.path, 'utf8')).toBe('video');
      await rm(item!.path);
      await rm(folder, { force: true });
    }
  });
});

describe('purgeRecycle and emptyRecycle', () => {
  it('purges day folders older than the days kept, and keeps the rest', async () => {
    await recycleFile({ drives: [drive], file: heat(), now: new Date('2026-10-01T12:00:00Z') });
    await recycleFile({ drives: [drive], file: heatSrt(), now });
    const out = await purgeRecycle({ drives: [drive], days: 30, now });
    expect(out.removed).toEqual([join(drive.path, '.recycle', '2026-10-01', 'Movies', 'Heat (1995)', 'Heat (1995).mkv')]);
    expect(out.bytes).toBe(5);
    expect(await readdir(join(drive.path, '.recycle'))).toEqual(['2026-11-28']);
    expect((await purgeRecycle({ drives: [drive], days: 0, now })).removed).toHaveLength(1);
    expect(await readdir(join(drive.path, '.recycle'))).toEqual([]);
  });

  it('empties the named files only after every one checks out', async () => {
    const items = await recycleFile({ drives: [drive], file: heat(), sidecars: [heatSrt()], now });
    expect(await code(emptyRecycle({ drives: [drive], paths: [items[0]!.path, heat()] }))).toBe('not_found');
    expect(await listRecycle([drive])).toHaveLength(2);
    expect((await emptyRecycle({ drives: [drive], paths: [items[0]!.path] })).removed).toEqual([items[0]!.path]);
    expect((await emptyRecycle({ drives: [drive] })).removed).toEqual([items[1]!.path]);
    expect(await listRecycle([drive])).toEqual([]);
  });
});
