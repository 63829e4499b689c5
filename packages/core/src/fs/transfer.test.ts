import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  linkSync,
  renameSync,
  rmSync,
  symlinkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
  appendFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { makeImmutable, smallDisk, twoFilesystems } from '../scanner/test-fixtures/filesystems.ts';
import { alreadyPlaced, keepAndPlace, moveFile, PARTIAL_PREFIX, placeNoReplace, type Transfer, type TransferJournal } from './transfer.ts';

// Lets a test act the moment a copy's temp file is written, with the real fs otherwise.
const afterCopy = vi.hoisted(() => ({ run: null as null | (() => void) }));
const beforeLink = vi.hoisted(() => ({ run: null as null | (() => void) }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    copyFile: async (...args: Parameters<typeof actual.copyFile>) => {
      await actual.copyFile(...args);
      afterCopy.run?.();
    },
    link: async (...args: Parameters<typeof actual.link>) => {
      beforeLink.run?.();
      return actual.link(...args);
    },
  };
});
afterEach(() => {
  afterCopy.run = null;
  beforeLink.run = null;
});

const fx = twoFilesystems('transfer');
if (fx.skip) console.warn(fx.skip);
afterAll(() => fx.cleanup());

let n = 0;
/** A file with random content, mode 0640 and an mtime in 2020. */
function put(dir: string, name: string, bytes = 64 * 1024): { path: string; hash: string } {
  const path = join(dir, `${++n}`, name);
  mkdirSync(dirname(path), { recursive: true });
  const data = randomBytes(bytes);
  writeFileSync(path, data);
  chmodSync(path, 0o640);
  utimesSync(path, new Date('2020-05-06T07:08:09.123Z'), new Date('2020-05-06T07:08:09.123Z'));
  return { path, hash: createHash('sha256').update(data).digest('hex') };
}
const hashOf = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
const dest = (root: string, name = 'Movie (2010).mkv') => join(root, `d${++n}`, 'Movies', 'Movie (2010)', name);
const partials = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(PARTIAL_PREFIX)) : []);

describe('moveFile on one filesystem', () => {
  it('renames: same inode, mode and mtime, folders created, source gone', async () => {
    const src = put(fx.disk, 'a.mkv');
    const before = statSync(src.path);
    const to = dest(fx.disk);
    expect(await moveFile(src.path, to)).toEqual({ status: 'moved', method: 'rename' });
    const after = statSync(to);
    expect(after.ino).toBe(before.ino);
    expect(after.mode).toBe(before.mode);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(existsSync(src.path)).toBe(false);
  });

  it('never overwrites a destination, and leaves the source', async () => {
    const src = put(fx.disk, 'a.mkv');
    const to = dest(fx.disk);
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, 'already here');
    expect(await moveFile(src.path, to)).toEqual({ status: 'exists' });
    expect(readFileSync(to, 'utf8')).toBe('already here');
    expect(hashOf(src.path)).toBe(src.hash);
  });

  it('finishes a move cut short between link and unlink', async () => {
    const src = put(fx.disk, 'a.mkv');
    const to = dest(fx.disk);
    mkdirSync(dirname(to), { recursive: true });
    linkSync(src.path, to);
    expect(await moveFile(src.path, to)).toEqual({ status: 'moved', method: 'rename' });
    expect(existsSync(src.path)).toBe(false);
    expect(hashOf(to)).toBe(src.hash);
  });

  it('never unlinks a file whose destination is the very same entry (a library inside the downloads, bind mounts)', async () => {
    const src = put(fx.disk, 'a.mkv');
    expect(await moveFile(src.path, src.path)).toEqual({ status: 'exists' });
    const alias = join(fx.disk, `alias${++n}`);
    symlinkSync(dirname(src.path), alias);
    // The alias as the drive's own path (followed, as configured), and as a link on the way (refused).
    expect(await moveFile(src.path, join(alias, 'a.mkv'), { within: alias })).toEqual({ status: 'exists' });
    await expect(moveFile(src.path, join(alias, 'a.mkv'))).rejects.toThrow('is a symbolic link');
    expect(hashOf(src.path)).toBe(src.hash);
  });

  it('reports a source that is gone, and whether the destination is there', async () => {
    const src = put(fx.disk, 'a.mkv');
    const to = dest(fx.disk);
    await moveFile(src.path, to);
    expect(await moveFile(src.path, to)).toEqual({ status: 'gone', destination_exists: true });
    expect(await moveFile(src.path, dest(fx.disk))).toEqual({ status: 'gone', destination_exists: false });
  });

  it('refuses a source that changed since it was planned', async () => {
    const src = put(fx.disk, 'a.mkv');
    const to = dest(fx.disk);
    await expect(moveFile(src.path, to, { expect: { size: 1, mtimeMs: statSync(src.path).mtimeMs } })).rejects.toThrow('changed since it was planned');
    expect(existsSync(to)).toBe(false);
    expect(hashOf(src.path)).toBe(src.hash);
  });

  it('refuses a file other than the one planned, though of the same size and mtime (a folder swapped for a link)', async () => {
    const src = put(fx.disk, 'a.mkv');
    const planned = statSync(src.path);
    const other = put(fx.disk, 'a.mkv');
    renameSync(dirname(src.path), `${dirname(src.path)}.old`);
    symlinkSync(dirname(other.path), dirname(src.path));
    const to = dest(fx.disk);
    const expected = { size: planned.size, mtimeMs: planned.mtimeMs, dev: planned.dev, ino: planned.ino };
    await expect(moveFile(src.path, to, { expect: expected })).rejects.toThrow('changed since it was planned');
    await expect(keepAndPlace(src.path, to, 'hardlink', { expect: expected })).rejects.toThrow('changed since it was planned');
    expect(existsSync(to)).toBe(false);
    expect(hashOf(other.path)).toBe(other.hash);
  });

  it.each(['move', 'hardlink'] as const)(
    '%s: takes the file checked, though its folder becomes a link to another of the same name just before the link',
    async (mode) => {
      const src = put(fx.disk, 'a.mkv');
      const planned = statSync(src.path);
      const other = put(fx.disk, 'a.mkv');
      const folder = dirname(src.path);
      beforeLink.run = () => {
        beforeLink.run = null;
        renameSync(folder, `${folder}.real`);
        symlinkSync(dirname(other.path), folder);
      };
      const to = dest(fx.disk);
      const expected = { size: planned.size, mtimeMs: planned.mtimeMs, dev: planned.dev, ino: planned.ino };
      if (mode === 'move') await moveFile(src.path, to, { expect: expected });
      else await keepAndPlace(src.path, to, 'hardlink', { expect: expected });
      expect(statSync(to).ino).toBe(planned.ino);
      expect(hashOf(other.path)).toBe(other.hash);
      expect(statSync(other.path).nlink).toBe(1);
    },
  );

  it('refuses what is not a regular file', async () => {
    const dir = join(fx.disk, `dir${++n}`);
    mkdirSync(dir);
    await expect(moveFile(dir, dest(fx.disk))).rejects.toThrow('not a regular file');
  });
});

describe('a folder on the way that is a symbolic link', () => {
  it.each(['move', 'hardlink', 'copy'] as const)(
    '%s: refused at the moment of placing, naming the link; nothing lands where it leads, the source stays',
    async (mode) => {
      const src = put(fx.disk, 'a.mkv');
      const drive = join(fx.disk, `drive${++n}`);
      const outside = join(fx.disk, `outside${n}`);
      mkdirSync(join(drive, 'Movies'), { recursive: true });
      mkdirSync(outside);
      symlinkSync(outside, join(drive, 'Movies', 'Outside Film (2005)'));
      const to = join(drive, 'Movies', 'Outside Film (2005)', 'Outside Film (2005).mkv');
      const place = mode === 'move' ? moveFile(src.path, to, { within: drive }) : keepAndPlace(src.path, to, mode, { within: drive });
      await expect(place).rejects.toThrow(`${join(drive, 'Movies', 'Outside Film (2005)')} is a symbolic link`);
      expect(readdirSync(outside)).toEqual([]);
      expect(hashOf(src.path)).toBe(src.hash);
    },
  );

  it('a movie folder swapped for a link between the plan and the link into place: the file lands in the real folder, never where the link leads', async () => {
    const src = put(fx.disk, 'a.mkv');
    const drive = join(fx.disk, `drive${++n}`);
    const outside = join(fx.disk, `outside${n}`);
    const movie = join(drive, 'Movies', 'Heat (1995)');
    mkdirSync(movie, { recursive: true });
    mkdirSync(outside);
    beforeLink.run = () => {
      beforeLink.run = null;
      renameSync(movie, `${movie}.real`);
      symlinkSync(outside, movie);
    };
    expect(await moveFile(src.path, join(movie, 'Heat (1995).mkv'), { within: drive })).toEqual({ status: 'moved', method: 'rename' });
    expect(readdirSync(outside)).toEqual([]);
    expect(hashOf(join(`${movie}.real`, 'Heat (1995).mkv'))).toBe(src.hash);
  });
});

describe('placeNoReplace', () => {
  it('gives a file a new name only where none exists', async () => {
    const a = put(fx.disk, 'a');
    const b = put(fx.disk, 'b');
    expect(await placeNoReplace(a.path, b.path)).toBe(false);
    expect(hashOf(b.path)).toBe(b.hash);
    const c = join(dirname(a.path), 'c');
    expect(await placeNoReplace(a.path, c)).toBe(true);
    expect(existsSync(a.path)).toBe(false);
    expect(hashOf(c)).toBe(a.hash);
  });
});

describe.skipIf(fx.skip !== null)('moveFile across filesystems (tmpfs → disk)', () => {
  it('copies, verifies and keeps content, mode and mtime, then removes the source and leaves no temp file', async () => {
    const src = put(fx.shm, 'a.mkv', 3 * 1024 * 1024 + 17);
    const to = dest(fx.disk);
    const notes: Transfer[] = [];
    const temps: { dev: number; ino: number }[] = [];
    let ended = 0;
    const journal: TransferJournal = {
      async begin(t) {
        notes.push(t);
        return { end: async () => void ended++, tempMade: async (id) => void temps.push(id) };
      },
    };
    expect(await moveFile(src.path, to, { journal })).toEqual({ status: 'moved', method: 'copy' });
    expect(hashOf(to)).toBe(src.hash);
    const st = statSync(to);
    expect(st.mode & 0o7777).toBe(0o640);
    expect(Math.abs(st.mtimeMs - Date.parse('2020-05-06T07:08:09.123Z'))).toBeLessThan(1);
    expect(existsSync(src.path)).toBe(false);
    expect(partials(dirname(to))).toEqual([]);
    expect(notes).toEqual([
      {
        source: src.path,
        destination: to,
        temp: expect.stringContaining(`${dirname(to)}/${PARTIAL_PREFIX}`),
        size: 3 * 1024 * 1024 + 17,
        mtime_ms: expect.any(Number),
        source_dev: expect.any(Number),
        source_ino: expect.any(Number),
      },
    ]);
    // The temp's inode, noted before it was written, is the file now in place.
    expect(temps).toEqual([{ dev: st.dev, ino: st.ino }]);
    expect(ended).toBe(1);
  });

  it('gives the copy to PUID:PGID', async () => {
    const src = put(fx.shm, 'a.mkv');
    const to = dest(fx.disk);
    await moveFile(src.path, to, { owner: { uid: 1234, gid: 5678 } });
    expect(statSync(to)).toMatchObject({ uid: 1234, gid: 5678 });
    expect(statSync(to).mode & 0o7777).toBe(0o640);
    expect(statSync(dirname(to))).toMatchObject({ uid: 1234, gid: 5678 });
    // Folders that were there before keep their owner.
    expect(statSync(fx.disk).uid).toBe(process.getuid!());
  });

  it('does not overwrite a destination that appears during the copy', async () => {
    const src = put(fx.shm, 'a.mkv');
    const to = dest(fx.disk);
    const journal: TransferJournal = {
      async begin() {
        writeFileSync(to, 'someone else');
        return { end: async () => {}, tempMade: async () => {} };
      },
    };
    expect(await moveFile(src.path, to, { journal })).toEqual({ status: 'exists' });
    expect(readFileSync(to, 'utf8')).toBe('someone else');
    expect(hashOf(src.path)).toBe(src.hash);
    expect(partials(dirname(to))).toEqual([]);
  });

  it('fails without a trace at the destination when the source grows during the copy', async () => {
    const src = put(fx.shm, 'a.mkv');
    const to = dest(fx.disk);
    let ended = false;
    const journal: TransferJournal = {
      async begin() {
        appendFileSync(src.path, 'more');
        return { end: async () => void (ended = true), tempMade: async () => {} };
      },
    };
    await expect(moveFile(src.path, to, { journal })).rejects.toThrow(/bytes, expected|changed while/);
    expect(existsSync(to)).toBe(false);
    expect(partials(dirname(to))).toEqual([]);
    expect(existsSync(src.path)).toBe(true);
    expect(ended).toBe(true);
  });

  it('removes nothing when the source’s folder becomes a link to another file of the same size and mtime during the copy', async () => {
    const src = put(fx.shm, 'a.mkv');
    const other = put(fx.shm, 'a.mkv');
    const to = dest(fx.disk);
    const journal: TransferJournal = {
      async begin() {
        renameSync(dirname(src.path), `${dirname(src.path)}.old`);
        symlinkSync(dirname(other.path), dirname(src.path));
        return { end: async () => {}, tempMade: async () => {} };
      },
    };
    await expect(moveFile(src.path, to, { journal })).rejects.toThrow('changed while');
    expect(hashOf(other.path)).toBe(other.hash);
    expect(hashOf(`${dirname(src.path)}.old/a.mkv`)).toBe(src.hash);
    expect(existsSync(to)).toBe(false);
    expect(partials(dirname(to))).toEqual([]);
  });

  it('copies nothing but the source: its folder swapped for a link to another file of the same size and mtime, and back, while it is copied', async () => {
    const src = put(fx.shm, 'a.mkv');
    const other = put(fx.shm, 'a.mkv');
    const folder = dirname(src.path);
    const to = dest(fx.disk);
    const journal: TransferJournal = {
      async begin() {
        renameSync(folder, `${folder}.real`);
        symlinkSync(dirname(other.path), folder);
        return { end: async () => {}, tempMade: async () => {} };
      },
    };
    const swapBack = () => {
      if (!existsSync(`${folder}.real`)) return;
      rmSync(folder);
      renameSync(`${folder}.real`, folder);
    };
    afterCopy.run = swapBack;
    const out = await moveFile(src.path, to, { journal }).catch((err: Error) => err);
    swapBack();
    expect(out).toBeInstanceOf(Error);
    expect(existsSync(to)).toBe(false);
    expect(hashOf(src.path)).toBe(src.hash);
    expect(hashOf(other.path)).toBe(other.hash);
  });

  it('follows no link put in place of the temp file once it is written: no owner or mode given away, no link placed, the source kept', async () => {
    // Whoever may write the destination folder (PUID's own programs in the library; the downloads,
    // for an undo's copy back) swaps the fresh temp file for a link to a file of the same size.
    const src = put(fx.shm, 'a.mkv');
    const victim = put(fx.disk, 'shadow');
    chmodSync(victim.path, 0o600);
    const to = dest(fx.disk);
    afterCopy.run = () => {
      for (const name of partials(dirname(to))) {
        const temp = join(dirname(to), name);
        renameSync(temp, `${dirname(to)}/moved`);
        symlinkSync(victim.path, temp);
      }
    };
    await expect(moveFile(src.path, to, { owner: { uid: 4321, gid: 4322 } })).rejects.toThrow('replaced');
    expect(statSync(victim.path)).toMatchObject({ uid: process.getuid!(), gid: process.getgid!() });
    expect(statSync(victim.path).mode & 0o777).toBe(0o600);
    expect(existsSync(to)).toBe(false);
    expect(hashOf(src.path)).toBe(src.hash);
  });

  it('takes the copy back when the source cannot be removed, so there are never two', async (ctx) => {
    // Source on the disk (ext4 supports chattr), destination on tmpfs.
    const src = put(fx.disk, 'a.mkv');
    const to = dest(fx.shm);
    if (!makeImmutable(dirname(src.path), true)) ctx.skip('chattr +i is not permitted here');
    try {
      await expect(moveFile(src.path, to)).rejects.toThrow('could not remove it, so the copy was taken back');
    } finally {
      makeImmutable(dirname(src.path), false);
    }
    expect(existsSync(to)).toBe(false);
    expect(partials(dirname(to))).toEqual([]);
    expect(hashOf(src.path)).toBe(src.hash);
  });
});

describe('moveFile onto a full disk', () => {
  const disk = smallDisk(1024 * 1024);
  if (!disk) console.warn('full-disk test skipped: mounting a small tmpfs is not permitted here');
  afterAll(() => disk?.cleanup());

  it.skipIf(!disk)('fails with ENOSPC, keeps the source whole and leaves nothing at the destination', async () => {
    const src = put(fx.disk, 'a.mkv', 4 * 1024 * 1024);
    const to = join(disk!.path, 'Movies', 'Movie (2010)', 'Movie (2010).mkv');
    await expect(moveFile(src.path, to)).rejects.toThrow(/ENOSPC/);
    expect(hashOf(src.path)).toBe(src.hash);
    expect(existsSync(to)).toBe(false);
    expect(partials(dirname(to))).toEqual([]);
  });
});

describe('alreadyPlaced', () => {
  const src = { dev: 1, ino: 10, nlink: 2, size: 100, mtimeMs: 5000.4 };
  it.each([
    ['its link', { dev: 1, ino: 10, nlink: 2, size: 100, mtimeMs: 5000.4 }, src, 'link'],
    ['the same single entry under two paths', { dev: 1, ino: 10, nlink: 1, size: 100, mtimeMs: 5000.4 }, { ...src, nlink: 1 }, null],
    // Another file of the same size and mtime may be the owner's own: a copy is known by the inode it was made on only.
    ['another inode of the same size and mtime', { dev: 2, ino: 99, nlink: 1, size: 100, mtimeMs: 5000 }, src, null],
  ] as const)('%s', (_name, existing, source, want) => {
    expect(alreadyPlaced(existing, source)).toBe(want);
  });
});

describe('keepAndPlace', () => {
  it('hardlink on one filesystem: one inode, two links, the download stays', async () => {
    const src = put(fx.disk, 'a.mkv');
    const to = dest(fx.disk);
    expect(await keepAndPlace(src.path, to, 'hardlink')).toEqual({ status: 'moved', method: 'link' });
    expect(statSync(to).ino).toBe(statSync(src.path).ino);
    expect(statSync(src.path).nlink).toBe(2);
    expect(await keepAndPlace(src.path, to, 'hardlink')).toEqual({ status: 'moved', method: 'link' });
  });

  it('copy: equal content, mode and mtime, another inode, the download stays', async () => {
    const src = put(fx.disk, 'a.mkv');
    const to = dest(fx.disk);
    expect(await keepAndPlace(src.path, to, 'copy')).toEqual({ status: 'moved', method: 'copy' });
    expect(hashOf(to)).toBe(src.hash);
    expect(hashOf(src.path)).toBe(src.hash);
    expect(statSync(to).ino).not.toBe(statSync(src.path).ino);
    expect(Math.abs(statSync(to).mtimeMs - statSync(src.path).mtimeMs)).toBeLessThan(1);
    expect(statSync(to).mode).toBe(statSync(src.path).mode);
    expect(partials(dirname(to))).toEqual([]);
    // Repeated, it is another file there: a copy is recognised by the import journal's note of its inode, not here.
    expect(await keepAndPlace(src.path, to, 'copy')).toEqual({ status: 'exists' });
  });

  it('never overwrites another file, in either mode', async () => {
    for (const mode of ['hardlink', 'copy'] as const) {
      const src = put(fx.disk, 'a.mkv');
      const to = dest(fx.disk);
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, 'already here');
      expect(await keepAndPlace(src.path, to, mode)).toEqual({ status: 'exists' });
      expect(readFileSync(to, 'utf8')).toBe('already here');
      expect(hashOf(src.path)).toBe(src.hash);
    }
  });

  it('refuses a source that changed since it was planned, and reports one that is gone', async () => {
    const src = put(fx.disk, 'a.mkv');
    await expect(keepAndPlace(src.path, dest(fx.disk), 'copy', { expect: { size: 1, mtimeMs: 0 } })).rejects.toThrow('changed since it was planned');
    expect(await keepAndPlace(join(fx.disk, 'nope.mkv'), dest(fx.disk), 'hardlink')).toEqual({ status: 'gone', destination_exists: false });
  });

  it.skipIf(fx.skip !== null)('hardlink across filesystems: a verified copy, said so, the download stays', async () => {
    const src = put(fx.shm, 'a.mkv');
    const to = dest(fx.disk);
    const notes: Transfer[] = [];
    const journal: TransferJournal = { begin: async (t) => (notes.push(t), { end: async () => {}, tempMade: async () => {} }) };
    expect(await keepAndPlace(src.path, to, 'hardlink', { journal })).toEqual({ status: 'moved', method: 'copy' });
    expect(hashOf(to)).toBe(src.hash);
    expect(hashOf(src.path)).toBe(src.hash);
    expect(notes.map((t) => t.keep_source)).toEqual([true]);
  });
});
