import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { historyFile, openHistoryLog, readHistory } from './history-log.ts';

const root = mkdtempSync(join(tmpdir(), 'mo-history-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const dataDir = () => join(root, `data${++n}`);

const file = (ino: number) => ({ dev: 1, ino, size: 10, mtime_ms: 5 });
const entry = (source: string) => ({
  source, destination: `/lib/${source}`, from: file(1), to: file(1), at: '2026-01-01T00:00:00.000Z', mode: 'move' as const, method: 'rename' as const,
  sidecars: [], created_dirs: [], pass: 'p1',
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
    expect(again.records().map((r) => [r.id, r.source, r.undone_at])).toEqual([[1, 'a', '2026-01-02T00:00:00.000Z'], [2, 'b', null]]);
    expect((await again.recordImport(entry('c'))).id).toBe(3);
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
    expect((await readHistory(dir)).map((r) => [r.id, r.source])).toEqual([[1, 'a'], [2, 'c']]);
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
    expect((await readHistory(dir)).map((r) => [r.id, r.undone_at])).toEqual([[4, 'u'], [5, null], [6, null]]);
    expect((await (await openHistoryLog(dir, { kept: 3 })).recordImport(entry('g'))).id).toBe(7);
  });
});
