import { describe, expect, it } from 'vitest';
import { chooseDrive, hasRoom, marginBytes, type DriveSpace } from './choose-drive.ts';

const GIB = 1024 ** 3;
const TIB = 1024 * GIB;

function drive(name: string, free: number | null, over: Partial<DriveSpace> = {}): DriveSpace {
  return {
    name,
    path: `/media/${name}`,
    dev: 100 + name.length,
    free_bytes: free,
    total_bytes: free === null ? null : 4 * TIB,
    roots: { movies: 'Movies', tv: 'TV' },
    ...over,
  };
}
const none = new Map<string, number>();
const SRC_DEV = 1;

describe('marginBytes', () => {
  it('is 2% of the drive, at most 1 GiB', () => {
    expect(marginBytes(4 * TIB)).toBe(GIB);
    expect(marginBytes(10 * GIB)).toBe(Math.floor(10 * GIB * 0.02));
  });
});

describe('hasRoom', () => {
  it('needs the file plus the margin, less what this pass already promised', () => {
    const d = drive('a', 10 * GIB);
    expect(hasRoom(d, 9 * GIB, SRC_DEV, none)).toBe(true);
    expect(hasRoom(d, 9 * GIB + 1, SRC_DEV, none)).toBe(false);
    expect(hasRoom(d, 5 * GIB, SRC_DEV, new Map([['a', 4 * GIB]]))).toBe(true);
    expect(hasRoom(d, 5 * GIB, SRC_DEV, new Map([['a', 4 * GIB + 1]]))).toBe(false);
  });

  it('needs no room on the download’s own device, where the move is a rename', () => {
    expect(hasRoom(drive('a', 0, { dev: SRC_DEV }), 100 * GIB, SRC_DEV, none)).toBe(true);
  });

  it('an unavailable drive has no room', () => {
    expect(hasRoom(drive('a', null), 1, SRC_DEV, none)).toBe(false);
  });
});

describe('chooseDrive', () => {
  it('picks the drive with the most free space among those with the library folder and room', () => {
    const drives = [drive('a', 100 * GIB), drive('b', 300 * GIB), drive('c', 200 * GIB)];
    expect(chooseDrive({ section: 'movies', bytes: GIB, sourceDev: SRC_DEV, existing: [] }, drives, none)).toMatchObject({
      drive: { name: 'b' },
      root: 'Movies',
      folder: null,
    });
  });

  it('counts space promised earlier in the pass', () => {
    const drives = [drive('a', 100 * GIB), drive('b', 150 * GIB)];
    expect(chooseDrive({ section: 'movies', bytes: GIB, sourceDev: SRC_DEV, existing: [] }, drives, new Map([['b', 60 * GIB]]))?.drive.name).toBe('a');
  });

  it('skips drives without the section’s library folder', () => {
    const drives = [drive('a', 100 * GIB, { roots: { tv: 'TV Shows' } }), drive('b', 300 * GIB, { roots: { movies: 'Movies' } })];
    expect(chooseDrive({ section: 'tv', bytes: GIB, sourceDev: SRC_DEV, existing: [] }, drives, none)).toMatchObject({
      drive: { name: 'a' },
      root: 'TV Shows',
    });
  });

  it('keeps a series on the drive that holds its folder, under the folder’s own name, even with less free space', () => {
    const drives = [drive('a', 100 * GIB), drive('b', 300 * GIB)];
    const existing = [{ drive: 'a', root: 'TV Shows', name: 'Doctor Who (2005)' }];
    expect(chooseDrive({ section: 'tv', bytes: GIB, sourceDev: SRC_DEV, existing }, drives, none)).toMatchObject({
      drive: { name: 'a' },
      root: 'TV Shows',
      folder: 'Doctor Who (2005)',
    });
  });

  it('falls back to the most free drive when the folder’s drive is full or gone', () => {
    const drives = [drive('a', 2 * GIB), drive('b', 300 * GIB), drive('c', 400 * GIB, { roots: {} })];
    const existing = [
      { drive: 'a', root: 'TV', name: 'Show' },
      { drive: 'gone', root: 'TV', name: 'Show' },
    ];
    expect(chooseDrive({ section: 'tv', bytes: 5 * GIB, sourceDev: SRC_DEV, existing }, drives, none)).toMatchObject({ drive: { name: 'b' }, folder: null });
  });

  it('uses the second existing folder when the first cannot take the file', () => {
    const drives = [drive('a', 2 * GIB), drive('b', 300 * GIB)];
    const existing = [
      { drive: 'a', root: 'TV', name: 'Show' },
      { drive: 'b', root: 'TV', name: 'Show (2010)' },
    ];
    expect(chooseDrive({ section: 'tv', bytes: 5 * GIB, sourceDev: SRC_DEV, existing }, drives, none)).toMatchObject({
      drive: { name: 'b' },
      folder: 'Show (2010)',
    });
  });

  it('answers null when no drive has room', () => {
    const drives = [drive('a', 2 * GIB), drive('b', null)];
    expect(chooseDrive({ section: 'movies', bytes: 5 * GIB, sourceDev: SRC_DEV, existing: [] }, drives, none)).toBeNull();
    expect(chooseDrive({ section: 'movies', bytes: 1, sourceDev: SRC_DEV, existing: [] }, [], none)).toBeNull();
  });
});
