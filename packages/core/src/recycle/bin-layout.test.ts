import { describe, expect, it } from 'vitest';
import { below, binPathFor, dayFolderName, dayOfFolder, isDue, isRecyclable, readBinPath } from './bin-layout.ts';

const now = new Date('2026-11-28T23:59:00Z');

describe('bin layout', () => {
  it('names the UTC day, with a number from the second copy of a path that day', () => {
    expect(dayFolderName(now, 1)).toBe('2026-11-28');
    expect(dayFolderName(now, 2)).toBe('2026-11-28.2');
    expect(binPathFor('/media/disk1', 'Movies/Heat (1995)/Heat (1995).mkv', now, 1)).toBe(
      '/media/disk1/.recycle/2026-11-28/Movies/Heat (1995)/Heat (1995).mkv',
    );
    expect(binPathFor('/media/disk1', 'Movies/a.mkv', now, 3)).toBe('/media/disk1/.recycle/2026-11-28.3/Movies/a.mkv');
  });

  it.each([
    ['2026-11-28', '2026-11-28T00:00:00.000Z'],
    ['2026-11-28.2', '2026-11-28T00:00:00.000Z'],
    ['2026-11-28.12', '2026-11-28T00:00:00.000Z'],
    ['2026-11-28.1', null],
    ['2026-11-28.0', null],
    ['2026-02-31', null],
    ['2026-11-28x', null],
    ['Movies', null],
    ['', null],
  ])('reads day folder %j', (name, at) => {
    expect(dayOfFolder(name)?.toISOString() ?? null).toBe(at);
  });

  it.each([
    ['Movies/a.mkv', true],
    ['a.mkv', true],
    ['', false],
    ['/abs', false],
    ['../up.mkv', false],
    ['Movies/../../up.mkv', false],
    ['.recycle/2026-11-28/a.mkv', false],
    ['..x/a.mkv', true],
  ])('recyclable %j: %s', (rel, ok) => {
    expect(isRecyclable(rel)).toBe(ok);
  });

  it('reads the original path back from a bin path, refusing what it did not lay out', () => {
    expect(readBinPath('2026-11-28/Movies/Heat (1995)/Heat (1995).mkv')).toEqual({ day: '2026-11-28', original: 'Movies/Heat (1995)/Heat (1995).mkv' });
    expect(readBinPath('2026-11-28.2/a.mkv')).toEqual({ day: '2026-11-28.2', original: 'a.mkv' });
    expect(readBinPath('2026-11-28')).toBeNull();
    expect(readBinPath('notes/a.mkv')).toBeNull();
    expect(readBinPath('2026-11-28/../../etc/passwd')).toBeNull();
    expect(readBinPath('2026-11-28/.recycle/x.mkv')).toBeNull();
    expect(readBinPath('/2026-11-28/a.mkv')).toBeNull();
  });

  it.each([
    ['2026-11-28', 0, true],
    ['2026-11-28', 1, false],
    ['2026-10-29', 30, true],
    ['2026-10-30', 30, false],
    ['2026-10-29.4', 30, true],
    ['2026-12-01', 0, false],
    ['junk', 0, false],
  ])('day %s kept %i days is due: %s', (day, days, due) => {
    expect(isDue(day, days, now)).toBe(due);
  });

  it('due exactly at the start of the day that ends the keeping', () => {
    expect(isDue('2026-11-01', 30, new Date('2026-12-01T00:00:00Z'))).toBe(true);
    expect(isDue('2026-11-01', 30, new Date('2026-11-30T23:59:59Z'))).toBe(false);
  });

  it('below: strictly inside only', () => {
    expect(below('/a/b/c', '/a')).toBe('b/c');
    expect(below('/a', '/a')).toBeNull();
    expect(below('/ab', '/a')).toBeNull();
    expect(below('/a/../b', '/a')).toBeNull();
  });
});
