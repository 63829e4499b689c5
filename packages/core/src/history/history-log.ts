import { mkdir, open, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { fsyncPath } from '../fs/fsync.ts';
import { createFold, foldLines, historyLineSchema, type HistoryLine, type ImportLine, type ImportRecord, type Notified } from './history-record.ts';
import { dataDir as dataFolder, type DataDir } from '../data-dir/data-dir.ts';

/** Imports kept when the log is compacted; it is compacted once it holds twice as many lines. */
export const HISTORY_KEPT = 10_000;

export function historyFile(dataDir: string): string {
  return dataFolder(dataDir).path('history');
}

/**
 * Reads the lines that parse: a line torn by a kill mid-write (or written by another version)
 * is left out, never taken for a record.
 */
export function parseLines(text: string): HistoryLine[] {
  const out: HistoryLine[] = [];
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    try {
      const parsed = historyLineSchema.safeParse(JSON.parse(raw));
      if (parsed.success) out.push(parsed.data);
    } catch {
      // A torn line: skipped.
    }
  }
  return out;
}

async function readText(file: string): Promise<string> {
  return readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '';
    throw err;
  });
}

/** Changes whenever the history does: a reader's cache key. */
export async function historyStamp(dataDir: string): Promise<string> {
  const s = await stat(historyFile(dataDir)).catch(() => null);
  return s ? `${s.ino}:${s.size}:${s.mtimeMs}` : 'missing';
}

export async function readHistory(dataDir: string): Promise<ImportRecord[]> {
  return foldLines(parseLines(await readText(historyFile(dataDir))));
}

export interface HistoryLog {
  /** Every import, oldest first, as of the last read or append. */
  records(): ImportRecord[];
  /** Records an import under the next id, durably, before it returns. */
  recordImport(entry: Omit<ImportLine, 't' | 'id'>): Promise<ImportRecord>;
  recordUndo(id: number, at: string): Promise<void>;
  /** Records what the media servers were told of these imports. */
  recordNotified(ids: number[], notified: Notified): Promise<void>;
}

/** The import history as the data folder hands it out (`DataStores.history()`). */
export interface HistoryStore {
  readonly file: string;
  /** Changes whenever the history does: a reader's cache key. */
  stamp(): Promise<string>;
  read(): Promise<ImportRecord[]>;
  /** The log to append to; its one writer holds the scanner's pass lock. */
  open(opts?: { kept?: number }): Promise<HistoryLog>;
}

export function historyStore(data: DataDir): HistoryStore {
  return {
    file: data.path('history'),
    stamp: () => historyStamp(data.root),
    read: () => readHistory(data.root),
    open: (opts) => openHistoryLog(data.root, opts),
  };
}

/** The lines that say the same as `records`: compaction writes these. */
function recordLines(records: readonly ImportRecord[]): HistoryLine[] {
  return records.flatMap(({ undone_at, notified, ...r }): HistoryLine[] => [
    r,
    ...(undone_at === null ? [] : [{ t: 'undo' as const, id: r.id, at: undone_at }]),
    ...(notified === null ? [] : [{ t: 'notified' as const, ids: [r.id], ...notified }]),
  ]);
}

/**
 * The import history: an append-only JSON-lines file, one write and an fsync per line. Only one
 * writer at a time (callers hold the scanner's pass lock), which is what makes ids a plain count.
 */
export async function openHistoryLog(dataDir: string, opts: { kept?: number } = {}): Promise<HistoryLog> {
  const file = historyFile(dataDir);
  const kept = opts.kept ?? HISTORY_KEPT;
  const text = await readText(file);
  let lines = parseLines(text);
  let fold = createFold(lines);
  let lastId = fold.records.reduce((n, r) => Math.max(n, r.id), 0);
  // A line torn by a kill has no newline: the next one must not be glued to it.
  let needsNewline = text.length > 0 && !text.endsWith('\n');

  const append = async (line: HistoryLine) => {
    await mkdir(dirname(file), { recursive: true });
    const fh = await open(file, 'a', 0o600);
    try {
      await fh.write(`${needsNewline ? '\n' : ''}${JSON.stringify(line)}\n`);
      await fh.sync();
    } finally {
      await fh.close();
    }
    needsNewline = false;
    lines.push(line);
    fold.add(line);
    if (lines.length > 2 * kept) {
      // Compaction: undos and notices folded into their imports, only the newest `kept` imports kept.
      lines = recordLines(fold.records.slice(-kept));
      await writeFileAtomic(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
      fold = createFold(lines);
    } else if (lines.length === 1) {
      await fsyncPath(dirname(file));
    }
  };

  return {
    records: () => fold.records,
    async recordImport(entry) {
      const line: ImportLine = { t: 'import', id: lastId + 1, ...entry };
      await append(line);
      lastId = line.id;
      return fold.get(line.id)!;
    },
    recordUndo: (id, at) => append({ t: 'undo', id, at }),
    recordNotified: (ids, notified) => append({ t: 'notified', ids, ...notified }),
  };
}
