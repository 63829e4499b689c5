import { describe, expect, it } from 'vitest';
import type { ImportRecord } from './history-record.ts';
import { importedLookup, undoneLookup } from './imported.ts';

const id = (over: Partial<ImportRecord['from']> = {}) => ({ dev: 1, ino: 100, size: 1000, mtime_ms: 5000.25, ...over });
function record(over: Partial<ImportRecord> = {}): ImportRecord {
  return {
    t: 'import',
    id: 1,
    at: '2026-01-01T00:00:00.000Z',
    mode: 'hardlink',
    method: 'link',
    source: '/dl/a.mkv',
    destination: '/m/A/a.mkv',
    from: id(),
    to: id(),
    sidecars: [],
    created_dirs: [],
    pass: 'p',
    undone_at: null,
    notified: null,
    ...over,
  };
}
const seen = { path: '/dl/a.mkv', size: 1000, mtimeMs: 5000.25, dev: 1, ino: 100 };

describe('importedLookup', () => {
  it.each([
    ['same path, size, mtime and inode', [record()], seen, 1],
    ['mtime changed, same inode (a client touched it)', [record()], { ...seen, mtimeMs: 9999 }, 1],
    ['inode changed, same mtime (copied back in place)', [record()], { ...seen, ino: 7 }, 1],
    ['inode unknown (the listing), same mtime', [record()], { path: seen.path, size: 1000, mtimeMs: 5000 }, 1],
    ['inode unknown, mtime changed', [record()], { path: seen.path, size: 1000, mtimeMs: 9999 }, null],
    ['both changed: another download under that name', [record()], { ...seen, mtimeMs: 9999, ino: 7 }, null],
    ['size changed', [record()], { ...seen, size: 1001 }, null],
    ['another path', [record()], { ...seen, path: '/dl/b.mkv' }, null],
    ['undone', [record({ undone_at: '2026-01-02T00:00:00.000Z' })], seen, null],
    ['copy mode', [record({ mode: 'copy', method: 'copy' })], seen, 1],
    ['move mode: a moved file back at its path came back some other way', [record({ mode: 'move', method: 'rename' })], seen, null],
    ['the newest import wins', [record(), record({ id: 2 })], seen, 2],
    ['an undone newer import leaves the older', [record(), record({ id: 2, undone_at: 'x' })], seen, 1],
  ] as const)('%s', (_name, records, file, want) => {
    expect(importedLookup(records as readonly ImportRecord[])(file)?.id ?? null).toBe(want);
  });

  it('knows the sidecars of an import', () => {
    const r = record({ sidecars: [{ source: '/dl/a.srt', destination: '/m/A/a.srt', from: id({ ino: 5, size: 10 }), to: id({ ino: 5, size: 10 }) }] });
    expect(importedLookup([r])({ path: '/dl/a.srt', size: 10, mtimeMs: 5000.25, dev: 1, ino: 5 })?.id).toBe(1);
  });
});

describe('undoneLookup', () => {
  const undone = (over: Partial<ImportRecord> = {}) => record({ undone_at: '2026-01-02T00:00:00.000Z', ...over });
  it.each([
    ['a moved file put back as it was (same inode and mtime)', [undone({ mode: 'move', method: 'rename' })], seen, 1],
    ['a seeding download whose link was removed', [undone()], seen, 1],
    ['changed since (size)', [undone()], { ...seen, size: 1001 }, null],
    ['replaced since (mtime and inode)', [undone()], { ...seen, mtimeMs: 9999, ino: 7 }, null],
    ['renamed', [undone()], { ...seen, path: '/dl/b.mkv' }, null],
    ['an import not undone', [record()], seen, null],
  ] as const)('%s', (_name, records, file, want) => {
    expect(undoneLookup(records as readonly ImportRecord[])(file)?.id ?? null).toBe(want);
  });
});
