import { describe, expect, it } from 'vitest';
import type { ImportRecord } from './history-record.ts';
import { noticeImportIds } from './record-notice.ts';

const identity = { dev: 1, ino: 1, size: 1, mtime_ms: 1 };
const record = (id: number, source: string, destination: string): ImportRecord => ({
  t: 'import',
  id,
  at: 'x',
  mode: 'move',
  method: 'rename',
  source,
  destination,
  from: identity,
  to: identity,
  sidecars: [],
  created_dirs: [],
  pass: 'p',
  undone_at: null,
  notified: null,
});
const records = [
  record(1, '/dl/a.mkv', '/lib/a.mkv'),
  record(2, '/dl/b.mkv', '/lib/b.mkv'),
  record(3, '/dl/a.mkv', '/lib/a.mkv'),
  record(4, '/dl/c.mkv', '/lib/c.mkv'),
];
const file = (n: string) => ({ source: `/dl/${n}.mkv`, destination: `/lib/${n}.mkv` });

describe('noticeImportIds', () => {
  it.each([
    ["each file names its import, in the notice's order", [file('c'), file('b')], [4, 2]],
    ['a file imported again (after an undo) names the newest import', [file('a')], [3]],
    ['a file named twice counts once', [file('b'), file('b')], [2]],
    ['a file the history does not hold names nothing', [file('x'), file('b')], [2]],
    ['the same download to another path is another import', [{ source: '/dl/a.mkv', destination: '/lib/other.mkv' }], []],
  ])("a pass's notice: %s", (_what, imports, ids) => {
    expect(noticeImportIds(records, { pass: 'p', imports })).toEqual(ids);
  });

  it("an undo's notice names its import alone, whatever files it lists; one the history lost, none", () => {
    expect(noticeImportIds(records, { pass: 'p', imports: [file('a'), file('b')], undone: 1 })).toEqual([1]);
    expect(noticeImportIds(records, { pass: 'p', imports: [file('a')], undone: 9 })).toEqual([]);
  });
});
