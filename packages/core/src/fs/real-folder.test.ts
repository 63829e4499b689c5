import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { LinkOnTheWayError, linkOnTheWay, openRealFolder } from './real-folder.ts';

// Lets a test act right after a folder is made, with the real fs otherwise.
const afterMkdir = vi.hoisted(() => ({ run: null as null | (() => void) }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    mkdir: async (...args: Parameters<typeof actual.mkdir>) => {
      const r = await actual.mkdir(...args);
      afterMkdir.run?.();
      return r;
    },
  };
});
afterEach(() => {
  afterMkdir.run = null;
});

const root = mkdtempSync(join(tmpdir(), 'mo-real-folder-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const NOBODY = { uid: null, gid: null };

/** A drive with `Movies`, and a folder outside it that links may lead to. */
function drive() {
  const base = join(root, `${++n}`);
  mkdirSync(join(base, 'drive', 'Movies'), { recursive: true });
  mkdirSync(join(base, 'outside'), { recursive: true });
  return { drive: join(base, 'drive'), outside: join(base, 'outside') };
}

describe('openRealFolder', () => {
  it('makes the missing folders, gives only those to the owner, honours the umask, and names the folder held', async () => {
    const { drive: d } = drive();
    const before = process.umask(0o027);
    try {
      const folder = await openRealFolder(d, join(d, 'Movies', 'Heat (1995)', 'Extras'), { uid: 1234, gid: 5678 });
      await writeFile(folder.at('x.txt'), 'here');
      await folder.close();
    } finally {
      process.umask(before);
    }
    expect(existsSync(join(d, 'Movies', 'Heat (1995)', 'Extras', 'x.txt'))).toBe(true);
    expect(statSync(join(d, 'Movies')).uid).toBe(process.getuid!());
    for (const f of ['Movies/Heat (1995)', 'Movies/Heat (1995)/Extras']) {
      const st = statSync(join(d, f));
      expect({ uid: st.uid, gid: st.gid, mode: st.mode & 0o777 }).toEqual({ uid: 1234, gid: 5678, mode: 0o750 });
    }
  });

  it('leaves ownership alone without PUID/PGID, and sets only the group with PGID alone', async () => {
    const { drive: d } = drive();
    await (await openRealFolder(d, join(d, 'x'), NOBODY)).close();
    expect(statSync(join(d, 'x')).uid).toBe(process.getuid!());
    await (await openRealFolder(d, join(d, 'x'), { uid: 1, gid: 1 })).close();
    expect(statSync(join(d, 'x')).uid).toBe(process.getuid!());
    await (await openRealFolder(d, join(d, 'g'), { uid: null, gid: 4321 })).close();
    expect(statSync(join(d, 'g'))).toMatchObject({ uid: process.getuid!(), gid: 4321 });
  });

  it.each([
    ['a movie folder', 'Movies/Outside Film (2005)', 'Movies/Outside Film (2005)'],
    ['a season folder', 'TV/Show Name/Season 02', 'TV/Show Name/Season 02'],
    ['the section folder', 'TV', 'TV/Show Name/Season 02'],
  ])('refuses %s that is a symbolic link, naming it, and makes nothing where it leads', async (_, linked, want) => {
    const { drive: d, outside } = drive();
    mkdirSync(join(d, linked, '..'), { recursive: true });
    symlinkSync(outside, join(d, linked));
    const err = await openRealFolder(d, join(d, want), { uid: 1234, gid: 5678 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LinkOnTheWayError);
    expect((err as LinkOnTheWayError).link).toBe(join(d, linked));
    expect((err as Error).message).toContain(join(d, linked));
    expect(readdirSync(outside)).toEqual([]);
    expect(statSync(outside).uid).toBe(process.getuid!());
  });

  it('follows the drive path itself, as configured, when it is a link', async () => {
    const { drive: d } = drive();
    const alias = `${d}-alias`;
    symlinkSync(d, alias);
    await (await openRealFolder(alias, join(alias, 'Movies', 'Heat (1995)'), NOBODY)).close();
    expect(existsSync(join(d, 'Movies', 'Heat (1995)'))).toBe(true);
  });

  it('refuses a file where a folder should be, and a folder outside the root', async () => {
    const { drive: d } = drive();
    writeFileSync(join(d, 'Movies', 'Alien (1979)'), 'in the way');
    await expect(openRealFolder(d, join(d, 'Movies', 'Alien (1979)'), NOBODY)).rejects.toThrow('is not a folder');
    await expect(openRealFolder(d, join(d, '..', 'outside'), NOBODY)).rejects.toThrow('is not inside');
  });

  it('gives nothing away and makes nothing where a link leads when the folder it made becomes one right after its mkdir', async () => {
    // Whoever may write the parent (PUID's own programs) swaps the new folder for a link to a
    // folder of their choosing: a chown or a file placed by path would follow it.
    const { drive: d, outside } = drive();
    afterMkdir.run = () => {
      afterMkdir.run = null;
      renameSync(join(d, 'Movies', 'Heat (1995)'), join(d, 'Movies', 'moved aside'));
      symlinkSync(outside, join(d, 'Movies', 'Heat (1995)'));
    };
    await expect(openRealFolder(d, join(d, 'Movies', 'Heat (1995)'), { uid: 1234, gid: 5678 })).rejects.toThrow(LinkOnTheWayError);
    expect(statSync(outside)).toMatchObject({ uid: process.getuid!(), gid: process.getgid!() });
    expect(readdirSync(outside)).toEqual([]);
  });

  it('holds the folder it opened: one swapped for a link afterwards does not redirect what is placed in it', async () => {
    const { drive: d, outside } = drive();
    const folder = await openRealFolder(d, join(d, 'Movies', 'Heat (1995)'), NOBODY);
    renameSync(join(d, 'Movies'), join(d, 'Movies.real'));
    symlinkSync(outside, join(d, 'Movies'));
    mkdirSync(join(outside, 'Heat (1995)'));
    await writeFile(folder.at('Heat (1995).mkv'), 'x');
    await folder.close();
    expect(readdirSync(join(outside, 'Heat (1995)'))).toEqual([]);
    expect(existsSync(join(d, 'Movies.real', 'Heat (1995)', 'Heat (1995).mkv'))).toBe(true);
  });
});

describe('linkOnTheWay', () => {
  it('names the first link from the root down, and null where none is (missing folders included)', () => {
    const { drive: d, outside } = drive();
    mkdirSync(join(d, 'TV', 'Show Name'), { recursive: true });
    symlinkSync(outside, join(d, 'TV', 'Show Name', 'Season 02'));
    expect(linkOnTheWay(d, join(d, 'TV', 'Show Name', 'Season 02'))).toBe(join(d, 'TV', 'Show Name', 'Season 02'));
    expect(linkOnTheWay(d, join(d, 'TV', 'Show Name', 'Season 02', 'deeper'))).toBe(join(d, 'TV', 'Show Name', 'Season 02'));
    expect(linkOnTheWay(d, join(d, 'TV', 'Show Name', 'Season 01'))).toBeNull();
    expect(linkOnTheWay(d, join(d, 'Movies', 'New (2020)', 'deeper'))).toBeNull();
  });
});
