import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyUmask, makeDirs, ownershipFromEnv, umaskFromEnv } from './ownership.ts';

const root = mkdtempSync(join(tmpdir(), 'mo-ownership-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const asRoot = { uid: 0, gid: 0, groups: [0] };
const asUser = { uid: 1000, gid: 1000, groups: [1000, 44] };

describe('ownershipFromEnv', () => {
  it('reads PUID and PGID, each optional', () => {
    expect(ownershipFromEnv({ PUID: '1000', PGID: '100' }, asRoot)).toEqual({ uid: 1000, gid: 100 });
    expect(ownershipFromEnv({ PUID: '0' }, asRoot)).toEqual({ uid: 0, gid: null });
    expect(ownershipFromEnv({ PUID: ' ', PGID: '' }, asRoot)).toEqual({ uid: null, gid: null });
    expect(ownershipFromEnv({}, asRoot)).toEqual({ uid: null, gid: null });
  });

  it.each([['abc'], ['-1'], ['1.5'], ['99999999999'], ['0x10']])('refuses PUID=%s, naming it', (v) => {
    expect(() => ownershipFromEnv({ PUID: v }, asRoot)).toThrow(`PUID must be a numeric user or group id, got "${v}"`);
    expect(() => ownershipFromEnv({ PGID: v }, asRoot)).toThrow('PGID must be');
  });

  it('lets an unprivileged worker ask only for what it can do', () => {
    expect(ownershipFromEnv({ PUID: '1000', PGID: '44' }, asUser)).toEqual({ uid: 1000, gid: 44 });
    expect(() => ownershipFromEnv({ PUID: '1001' }, asUser)).toThrow('PUID=1001 needs the worker to run as root (it runs as uid 1000)');
    expect(() => ownershipFromEnv({ PGID: '5' }, asUser)).toThrow('PGID=5 is not a group of uid 1000');
  });
});

describe('umaskFromEnv', () => {
  it('reads the octal forms the linuxserver images take', () => {
    expect(umaskFromEnv({ UMASK: '022' })).toBe(0o022);
    expect(umaskFromEnv({ UMASK: '0002' })).toBe(0o002);
    expect(umaskFromEnv({ UMASK: '77' })).toBe(0o077);
    expect(umaskFromEnv({})).toBeNull();
  });

  it.each([['888'], ['22a'], ['01777'], ['-022']])('refuses UMASK=%s', (v) => {
    expect(() => umaskFromEnv({ UMASK: v })).toThrow(`UMASK must be an octal mask like 022, got "${v}"`);
  });

  it('applyUmask sets the process umask, and leaves it alone when unset', () => {
    const before = process.umask();
    try {
      applyUmask({ UMASK: '027' });
      expect(process.umask()).toBe(0o027);
      applyUmask({});
      expect(process.umask()).toBe(0o027);
    } finally {
      process.umask(before);
    }
  });
});

describe('makeDirs', () => {
  it('creates the missing folders, gives only those to the owner, and honours the umask', async () => {
    const before = process.umask(0o027);
    try {
      mkdirSync(join(root, 'a'));
      await makeDirs(join(root, 'a', 'b', 'c'), { uid: 1234, gid: 5678 });
    } finally {
      process.umask(before);
    }
    expect(statSync(join(root, 'a')).uid).toBe(process.getuid!());
    for (const d of ['a/b', 'a/b/c']) {
      const st = statSync(join(root, d));
      expect({ uid: st.uid, gid: st.gid, mode: st.mode & 0o777 }).toEqual({ uid: 1234, gid: 5678, mode: 0o750 });
    }
  });

  it('leaves ownership alone without PUID/PGID, and is fine when everything exists', async () => {
    await makeDirs(join(root, 'x', 'y'), { uid: null, gid: null });
    expect(statSync(join(root, 'x', 'y')).uid).toBe(process.getuid!());
    await makeDirs(join(root, 'x', 'y'), { uid: 1, gid: 1 });
    expect(statSync(join(root, 'x', 'y')).uid).toBe(process.getuid!());
  });

  it.each([
    ['the folder made', 'Heat (1995)', 'Heat (1995)'],
    ['a folder above it', 'Movies2', 'Movies2/Heat (1995)'],
  ])('gives nothing away when %s becomes a link between its mkdir and its chown', async (_, swapped, made) => {
    // Someone who may write the parent folder (PUID's own programs, a downloads folder) puts a link
    // to a folder of theirs choosing where the new folder was: a chown by path would follow it.
    const victim = join(root, `victim-${swapped.length}`);
    mkdirSync(join(victim, 'Heat (1995)'), { recursive: true });
    const base = join(root, `race-${swapped.length}`);
    mkdirSync(base);
    const swap = async (path: string, opts: { recursive: true }) => {
      const first = await mkdir(path, opts);
      renameSync(join(base, swapped), join(base, `${swapped}.old`));
      symlinkSync(swapped === made ? join(victim, 'Heat (1995)') : victim, join(base, swapped));
      return first;
    };
    await expect(makeDirs(join(base, made), { uid: 1234, gid: 5678 }, swap)).rejects.toThrow('changed while it was made');
    for (const d of [victim, join(victim, 'Heat (1995)')]) expect(statSync(d)).toMatchObject({ uid: process.getuid!(), gid: process.getgid!() });
  });

  it('sets only the group when only PGID is given', async () => {
    await makeDirs(join(root, 'g'), { uid: null, gid: 4321 });
    expect(statSync(join(root, 'g'))).toMatchObject({ uid: process.getuid!(), gid: 4321 });
  });
});
