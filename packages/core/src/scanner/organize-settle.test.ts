import { describe, expect, it } from 'vitest';
import { planRenameUndo, renameState, settleGroup, unchangedNode, type SeenNode } from './organize-settle.ts';

const id = { dev: 1, ino: 7, size: 10, mtime_ms: 1000, dir: false };
const file = (over: Partial<SeenNode> = {}): SeenNode => ({ dev: 1, ino: 7, size: 10, mtimeMs: 1000.2, isFile: true, isDir: false, ...over });

describe('renameState and settleGroup', () => {
  it('tells a rename done, not done, or whose file is at neither name', () => {
    expect(renameState(id, { from: null, to: file() })).toBe('renamed');
    expect(renameState(id, { from: file(), to: null })).toBe('not_renamed');
    expect(renameState(id, { from: file(), to: file({ ino: 8 }) })).toBe('not_renamed');
    expect(renameState(id, { from: null, to: file({ ino: 8 }) })).toBe('missing');
    // Only the case changed, on a filesystem that ignores it: one file at both names.
    expect(renameState(id, { from: file(), to: file() })).toBe('renamed');
  });

  it('records a group wholly renamed; takes back, last first, the renames of a group left half done', () => {
    expect(settleGroup(['renamed', 'renamed'])).toEqual({ action: 'record' });
    expect(settleGroup(['renamed', 'renamed', 'not_renamed'])).toEqual({ action: 'back', indexes: [1, 0] });
    expect(settleGroup(['not_renamed', 'missing'])).toEqual({ action: 'back', indexes: [] });
  });
});

describe('planRenameUndo', () => {
  const f = { source: '/m/old.mkv', destination: '/m/New.mkv', id };

  it('moves back a file that is as it was renamed to a free old name, and skips one already back', () => {
    expect(planRenameUndo([f], [{ source: null, destination: file() }])).toEqual({ ok: true, steps: [f] });
    expect(planRenameUndo([f], [{ source: file(), destination: null }])).toEqual({ ok: true, steps: [] });
  });

  it('refuses a renamed file that changed or is gone, and an old name another file took', () => {
    expect(planRenameUndo([f], [{ source: null, destination: file({ size: 11 }) }])).toMatchObject({ ok: false, reason: 'destination_changed' });
    expect(planRenameUndo([f], [{ source: null, destination: null }])).toMatchObject({
      ok: false,
      reason: 'destination_changed',
      message: '/m/New.mkv is gone',
    });
    expect(planRenameUndo([f], [{ source: file({ ino: 9 }), destination: file() }])).toMatchObject({ ok: false, reason: 'source_taken', path: '/m/old.mkv' });
  });

  it('knows a folder by its inode alone: what is put in it leaves it the same folder', () => {
    const dir = { ...id, size: 0, mtime_ms: 0, dir: true };
    expect(unchangedNode(file({ isFile: false, isDir: true, size: 4096, mtimeMs: 5 }), dir)).toBe(true);
    expect(unchangedNode(file(), dir)).toBe(false);
  });
});
