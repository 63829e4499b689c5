import { describe, expect, it } from 'vitest';
import { applyUmask, ownershipFromEnv, umaskFromEnv } from './ownership.ts';

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
