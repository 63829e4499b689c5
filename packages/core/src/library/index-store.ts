import { createReadStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { libraryIndexHeaderSchema, type IndexItem, type LibraryIndex } from '@mo/shared';
import { removeStaleTemps, writeFileAtomic } from '../fs/atomic-write.ts';

export const INDEX_FILE = 'library-index.ndjson';

export function indexPath(dataDir: string): string {
  return join(dataDir, INDEX_FILE);
}

/**
 * One header line, then one line per file. Line by line, a reader never holds the whole file as
 * one string next to the parsed items (at 100,000 files that string alone is ~40 MB). Written
 * whole and atomically: readers see the previous index or this one, never a mix.
 */
export async function writeLibraryIndex(dataDir: string, index: LibraryIndex): Promise<void> {
  const { items, ...header } = index;
  const lines = [JSON.stringify(header)];
  for (const item of items) lines.push(JSON.stringify(item));
  lines.push('');
  await mkdir(dataDir, { recursive: true });
  // Only workers write the index, one library scan at a time: what a killed one left can go.
  await removeStaleTemps(indexPath(dataDir));
  await writeFileAtomic(indexPath(dataDir), lines.join('\n'));
}

/** The same few folder, drive and title strings repeat on every line; one copy of each is enough. */
function interner() {
  const seen = new Map<string, string>();
  return (s: string | null): string | null => {
    if (s === null) return null;
    const known = seen.get(s);
    if (known !== undefined) return known;
    seen.set(s, s);
    return s;
  };
}

/** The cached index, or null before the first library scan. Items are trusted: only the worker writes them. */
export async function readLibraryIndex(dataDir: string): Promise<LibraryIndex | null> {
  const file = indexPath(dataDir);
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const opened = new Promise<boolean>((resolve, reject) => {
    stream.once('ready', () => resolve(true));
    stream.once('error', (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? resolve(false) : reject(err)));
  });
  if (!(await opened)) return null;
  const intern = interner();
  let header: Omit<LibraryIndex, 'items'> | undefined;
  const items: IndexItem[] = [];
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    if (line === '') continue;
    if (!header) {
      header = libraryIndexHeaderSchema.parse(JSON.parse(line));
      continue;
    }
    const item = JSON.parse(line) as IndexItem;
    item.drive = intern(item.drive)!;
    item.root = intern(item.root)!;
    item.folder = intern(item.folder)!;
    item.title = intern(item.title);
    item.ext = intern(item.ext)!;
    items.push(item);
  }
  if (!header) throw new Error(`${file}: empty index file`);
  return { ...header, items };
}

export async function indexStamp(dataDir: string): Promise<string> {
  try {
    const s = await stat(indexPath(dataDir));
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return 'missing';
  }
}
