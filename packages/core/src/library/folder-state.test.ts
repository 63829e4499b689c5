import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FOLDERS_FILE, FOLDERS_VERSION, openFolderStateWriter, openPreviousScan, type FolderRecord } from './folder-state.ts';
import { INDEX_FILE, writeLibraryIndex } from './index-store.ts';

let data: string;
const SCANNED_AT = '2026-05-01T00:00:00.000Z';
const OPTIONS = '["options"]';

beforeEach(async () => {
  data = await mkdtemp(join(tmpdir(), 'mo-folders-'));
  await writeLibraryIndex(data, { version: 1, scanned_at: SCANNED_AT, duration_ms: 1, truncated: false, timed_out: false, skipped: [], drives: [], items: [] });
});
afterEach(async () => {
  await rm(data, { recursive: true, force: true });
});

const files = () => ({ index: join(data, INDEX_FILE), folders: join(data, FOLDERS_FILE) });

const record = (dir: string, over: Partial<FolderRecord> = {}): FolderRecord => ({
  dir,
  mtime_ms: 1_700_000_000_000.5,
  ctime_ms: 1_700_000_000_001.25,
  ino: 42,
  at: 0,
  bytes: 100,
  files: 2,
  subdirs: [],
  sum: { bytes: 7, movies: [dir], series: [] },
  ...over,
});

async function write(records: FolderRecord[]): Promise<void> {
  const writer = await openFolderStateWriter(files().folders);
  for (const r of records) writer.add(r);
  await writer.finish({ version: FOLDERS_VERSION, index_scanned_at: SCANNED_AT, options: OPTIONS, items_at: 4096 });
}

// Names a record's line must carry through untouched: quotes and backslashes escaped in the JSON,
// text that looks like the next field, multibyte characters, and a subfolder list longer than the
// writer's 1 MiB buffer.
const hostile = '/m/Movies/Quote "q" \\back\\ ,"at":9, (2003)';
const multibyte = '/m/TV/日本のドラマ Amélie (2001)';
const huge = record('/m/Movies', { subdirs: Array.from({ length: 40_000 }, (_, i) => `Movie number ${i} é (${1900 + (i % 120)})`) });

describe('folder file', () => {
  it('reads back every record as written, by folder, and its line byte for byte', async () => {
    const records = [huge, record(hostile, { at: 100 }), record(multibyte, { at: 200, subdirs: ['Season 01', 'Staffel 2'] })];
    await write(records);
    const previous = (await openPreviousScan(files(), OPTIONS))!;
    try {
      for (const r of records) expect(previous.get(r.dir)).toEqual(r);
      expect(previous.get('/m/Movies/Absent (2000)')).toBeUndefined();
      const lines = (await readFile(join(data, FOLDERS_FILE))).toString('utf8').split('\n');
      expect(previous.line(hostile)!.toString('utf8')).toBe(lines[2]);
      expect(previous.line(multibyte)!.toString('utf8')).toBe(lines[3]);
    } finally {
      previous.close();
    }
  });

  it('copies unchanged records as they were, and moves the offset of shifted ones only', async () => {
    const records = [huge, record(hostile, { at: 100 }), record(multibyte, { at: 200 })];
    await write(records);
    const before = await readFile(join(data, FOLDERS_FILE), 'utf8');
    const previous = (await openPreviousScan(files(), OPTIONS))!;
    const writer = await openFolderStateWriter(files().folders);
    writer.addUnchanged(previous.line(huge.dir)!, huge, 0);
    writer.addUnchanged(previous.line(hostile)!, previous.get(hostile)!, 100);
    writer.addUnchanged(previous.line(multibyte)!, previous.get(multibyte)!, 250);
    previous.close();
    await writer.finish({ version: FOLDERS_VERSION, index_scanned_at: SCANNED_AT, options: OPTIONS, items_at: 4096 });
    const after = await readFile(join(data, FOLDERS_FILE), 'utf8');
    const [, ...was] = before.split('\n');
    const [, ...now] = after.split('\n');
    expect(now.slice(0, 2)).toEqual(was.slice(0, 2));
    expect(JSON.parse(now[2]!)).toEqual({ ...records[2], at: 250 });
    // The hostile name's `,"at":9,` is inside its quoted dir and stays as it was.
    expect(JSON.parse(now[1]!).dir).toBe(hostile);
  });

  it('is not trusted when its header is for another index, other options or another version, or a record has no dir', async () => {
    await write([record('/m/Movies/A (2001)')]);
    expect(await openPreviousScan(files(), '["other"]')).toBeNull();
    const file = join(data, FOLDERS_FILE);
    const text = await readFile(file, 'utf8');
    const [head, ...rest] = text.split('\n');
    await writeFile(file, [JSON.stringify({ ...JSON.parse(head!), index_scanned_at: '2020-01-01T00:00:00.000Z' }), ...rest].join('\n'));
    expect(await openPreviousScan(files(), OPTIONS)).toBeNull();
    await writeFile(file, [JSON.stringify({ ...JSON.parse(head!), version: FOLDERS_VERSION - 1 }), ...rest].join('\n'));
    expect(await openPreviousScan(files(), OPTIONS)).toBeNull();
    await writeFile(file, `${head}\n{"files":1}\n`);
    expect(await openPreviousScan(files(), OPTIONS)).toBeNull();
    await writeFile(file, text);
    const previous = await openPreviousScan(files(), OPTIONS);
    expect(previous?.get('/m/Movies/A (2001)')?.files).toBe(2);
    previous?.close();
  });
});
