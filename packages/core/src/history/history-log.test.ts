import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDataDir } from '../config/data-stores.ts';
import { historyFile, openHistoryLog, readHistory } from './history-log.ts';

const root = mkdtempSync(join(tmpdir(), 'mo-history-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const dataDir = () => join(root, `data${++n}`);

const file = (ino: number) => ({ dev: 1, ino, size: 10, mtime_ms: 5 });
const entry = (source: string) => ({
  source,
  destination: `/lib/${source}`,
  from: file(1),
  to: file(1),
  at: '2026-01-01T00:00:00.000Z',
  mode: 'move' as const,
  method: 'rename' as const,
  sidecars: [],
  created_dirs: [],
  pass: 'p1',
});

describe('the import history log', () => {
  it('numbers imports from 1, survives a reopen, and folds an undo into its import', async () => {
    const dir = dataDir();
    expect(await readHistory(dir)).toEqual([]);
    const log = await openHistoryLog(dir);
    expect((await log.recordImport(entry('a'))).id).toBe(1);
    expect((await log.recordImport(entry('b'))).id).toBe(2);
    await log.recordUndo(1, '2026-01-02T00:00:00.000Z');
    const again = await openHistoryLog(dir);
    expect(again.records().map((r) => [r.id, r.source, r.undone_at])).toEqual([
      [1, 'a', '2026-01-02T00:00:00.000Z'],
      [2, 'b', null],
    ]);
    expect((await again.recordImport(entry('c'))).id).toBe(3);
  });

  it('folds each appended line into what it already holds: the same records a fresh read folds, and an earlier answer left as it was', async () => {
    const dir = dataDir();
    const log = await openHistoryLog(dir, { kept: 3 });
    const first = await log.recordImport(entry('a'));
    for (const s of ['b', 'c', 'd']) await log.recordImport(entry(s));
    await log.recordUndo(4, '2026-01-02T00:00:00.000Z');
    await log.recordNotified([3, 4], { event: 'imported', at: '2026-01-03T00:00:00.000Z', told: ['jf'], failed: {} });
    for (const s of ['e', 'f']) await log.recordImport(entry(s));
    // Compacted past 2 × kept lines, and the log folds on from what compaction wrote.
    await log.recordUndo(6, '2026-01-04T00:00:00.000Z');
    expect(log.records()).toEqual(await readHistory(dir));
    expect(log.records().map((r) => [r.id, r.undone_at !== null, r.notified?.told ?? null])).toEqual([
      [4, true, ['jf']],
      [5, false, null],
      [6, true, null],
    ]);
    expect(first.undone_at).toBeNull();
  });

  it('ignores a torn last record, and the next record is not glued to it', async () => {
    const dir = dataDir();
    const log = await openHistoryLog(dir);
    await log.recordImport(entry('a'));
    const whole = JSON.stringify({ t: 'import', id: 2, ...entry('b') });
    appendFileSync(historyFile(dir), whole.slice(0, whole.length / 2));
    expect((await readHistory(dir)).map((r) => r.source)).toEqual(['a']);
    const after = await openHistoryLog(dir);
    expect((await after.recordImport(entry('c'))).id).toBe(2);
    expect((await readHistory(dir)).map((r) => [r.id, r.source])).toEqual([
      [1, 'a'],
      [2, 'c'],
    ]);
  });

  it('folds a notice into every import it names, the latest one winning', async () => {
    const dir = dataDir();
    const log = await openHistoryLog(dir);
    for (const s of ['a', 'b', 'c']) await log.recordImport(entry(s));
    const told = { event: 'imported' as const, at: 'n1', told: ['jf'], failed: { plex: 'answered HTTP 401' } };
    await log.recordNotified([1, 2], told);
    const undone = { event: 'undone' as const, at: 'n2', told: ['jf', 'plex'], failed: {} };
    await log.recordNotified([2], undone);
    await log.recordNotified([99], undone);
    expect((await readHistory(dir)).map((r) => [r.id, r.notified])).toEqual([
      [1, told],
      [2, undone],
      [3, null],
    ]);
  });

  it('ignores a torn notice line, and the next line is not glued to it', async () => {
    const dir = dataDir();
    const log = await openHistoryLog(dir);
    await log.recordImport(entry('a'));
    const whole = JSON.stringify({ t: 'notified', ids: [1], event: 'imported', at: 'n1', told: ['jf'], failed: {} });
    appendFileSync(historyFile(dir), whole.slice(0, whole.length - 3));
    expect((await readHistory(dir)).map((r) => r.notified)).toEqual([null]);
    const after = await openHistoryLog(dir);
    await after.recordUndo(1, 'u');
    expect((await readHistory(dir)).map((r) => [r.notified, r.undone_at])).toEqual([[null, 'u']]);
  });

  it('compacts once it holds twice the kept imports: the newest kept, undos folded in', async () => {
    const dir = dataDir();
    const log = await openHistoryLog(dir, { kept: 3 });
    for (const s of ['a', 'b', 'c', 'd']) await log.recordImport(entry(s));
    await log.recordUndo(4, 'u');
    await log.recordImport(entry('e'));
    await log.recordImport(entry('f'));
    const lines = readFileSync(historyFile(dir), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(4);
    expect((await readHistory(dir)).map((r) => [r.id, r.undone_at])).toEqual([
      [4, 'u'],
      [5, null],
      [6, null],
    ]);
    expect((await (await openHistoryLog(dir, { kept: 3 })).recordImport(entry('g'))).id).toBe(7);
  });

  it("keeps each kept import's notice through compaction, and drops the notices of imports dropped", async () => {
    const dir = dataDir();
    const log = await openHistoryLog(dir, { kept: 2 });
    const told = { event: 'imported' as const, at: 'n1', told: ['jf'], failed: { kodi: 'no answer within 10 s' } };
    await log.recordImport(entry('a'));
    await log.recordImport(entry('b'));
    await log.recordNotified([1, 2], told);
    await log.recordImport(entry('c'));
    await log.recordNotified([3], { ...told, at: 'n2' });
    const lines = readFileSync(historyFile(dir), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.t, l.ids ?? l.id])).toEqual([
      ['import', 2],
      ['notified', [2]],
      ['import', 3],
      ['notified', [3]],
    ]);
    expect((await readHistory(dir)).map((r) => [r.id, r.notified?.at])).toEqual([
      [2, 'n1'],
      [3, 'n2'],
    ]);
  });
});

describe('the history store the data folder hands out', () => {
  it('is the same file as the log: what one writes the other reads, and its stamp moves', async () => {
    const dir = dataDir();
    const store = openDataDir(dir).history();
    expect(store.file).toBe(historyFile(dir));
    expect(await store.stamp()).toBe('missing');
    await (await store.open()).recordImport(entry('a'));
    const stamp = await store.stamp();
    expect(await store.read()).toEqual(await readHistory(dir));
    expect((await store.read()).map((r) => r.source)).toEqual(['a']);
    await (await openHistoryLog(dir)).recordUndo(1, '2026-01-02T00:00:00.000Z');
    expect(await store.stamp()).not.toBe(stamp);
    expect((await store.read())[0]!.undone_at).toBe('2026-01-02T00:00:00.000Z');
  });
});
