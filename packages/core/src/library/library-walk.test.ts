import { describe, expect, it } from 'vitest';
import type { FolderRecord } from './folder-state.ts';
import { canReuse, subfolder, type PendingFolder } from './library-walk.ts';

const st = { mtimeMs: 1_700_000_000_000.5, ctimeMs: 1_700_000_000_001.25, dev: 7, ino: 42 };
const record = (over: Partial<FolderRecord> = {}): FolderRecord => ({
  dir: '/m/Movies/Alien (1979)',
  mtime_ms: st.mtimeMs,
  ctime_ms: st.ctimeMs,
  ino: st.ino,
  at: 0,
  bytes: 100,
  files: 3,
  subdirs: [],
  sum: { bytes: 7, movies: [], series: [] },
  ...over,
});

describe('canReuse', () => {
  it.each([
    ['the same mtime, ctime and inode, under the limit', record(), 0, 10, true],
    ['exactly reaching the file limit', record(), 7, 10, true],
    ['past the file limit: read, so the scan stops at the limit inside the folder', record(), 8, 10, false],
    ['an entry added or removed (mtime)', record({ mtime_ms: st.mtimeMs + 1 }), 0, 10, false],
    ['the mtime set back (ctime)', record({ ctime_ms: st.ctimeMs - 1 }), 0, 10, false],
    ['the folder replaced (inode)', record({ ino: 43 }), 0, 10, false],
  ])('%s', (_what, r, files, maxFiles, expected) => {
    expect(canReuse(r, st, files, maxFiles)).toBe(expected);
  });

  it('ignores the device: a record keeps none, and a remount leaves the folder as it was', () => {
    expect(canReuse(record(), { ...st, dev: 8 }, 0, 10)).toBe(true);
  });
});

describe('subfolder', () => {
  const root: PendingFolder = { dir: '/m/TV', parts: [], folder: '/m/TV', st };

  it("makes a library folder's child the folder of everything below it", () => {
    const show = subfolder(root, 'Lost (2004)', st);
    expect(show).toEqual({ dir: '/m/TV/Lost (2004)', parts: ['Lost (2004)'], folder: '/m/TV/Lost (2004)', st });
    const season = subfolder(show, 'Season 01', { ...st, ino: 43 });
    expect(season).toEqual({ dir: '/m/TV/Lost (2004)/Season 01', parts: ['Lost (2004)', 'Season 01'], folder: '/m/TV/Lost (2004)', st: { ...st, ino: 43 } });
    expect(subfolder(season, 'Subs', st).folder).toBe('/m/TV/Lost (2004)');
  });

  it("does not share the parent's path list", () => {
    const show = subfolder(root, 'Lost (2004)', st);
    subfolder(show, 'Season 01', st);
    subfolder(show, 'Season 02', st);
    expect(show.parts).toEqual(['Lost (2004)']);
  });
});
