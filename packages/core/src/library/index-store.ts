import { closeSync, createReadStream, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { libraryIndexHeaderSchema, type IndexItem, type LibraryIndex } from '@mo/shared';
import { removeStaleTemps, tempPathFor } from '../fs/atomic-write.ts';
import { fsyncPath } from '../fs/fsync.ts';

export const INDEX_FILE = 'library-index.ndjson';

export function indexPath(dataDir: string): string {
  return join(dataDir, INDEX_FILE);
}

export type IndexHeader = Omit<LibraryIndex, 'items'>;

/** How much JSON an index writer gathers before one write: few syscalls, little memory. */
const WRITE_CHUNK_CHARS = 1 << 20;

export interface IndexWriter {
  add(item: IndexItem): void;
  /** Index lines as a previous index held them, each ending in a newline. */
  addLines(lines: string): void;
  /** Bytes of items written so far: where the next item's line will start after the header. */
  position(): number;
  /** Puts the index in place: the header, then every item added, atomically; says where the items start. */
  finish(header: IndexHeader): Promise<{ itemsAt: number }>;
  /** Drops what was written; the previous index stays. */
  abort(): Promise<void>;
}

/**
 * One header line, then one line per file. Line by line, a reader never holds the whole file as
 * one string next to the parsed items (at 100,000 files that string alone is ~40 MB), and a writer
 * streams items to a temp file as a scan finds them instead of holding them: the header (the
 * scan's outcome) is known only at the end, so it goes first into a second temp file followed by a
 * copy of the items, which then replaces the index. Readers see the previous index or this one,
 * never a mix.
 */
export async function openIndexWriter(dataDir: string): Promise<IndexWriter> {
  await mkdir(dataDir, { recursive: true });
  const file = indexPath(dataDir);
  // Only workers write the index, one library scan at a time: what a killed one left can go.
  await removeStaleTemps(file);
  const itemsTmp = tempPathFor(file);
  let fd: number | undefined = openSync(itemsTmp, 'wx', 0o600);
  let pending = '';
  let written = 0;
  const flush = () => {
    if (pending.length > 0) writeSync(fd!, pending);
    pending = '';
  };
  const close = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  return {
    add(item) {
      const line = `${JSON.stringify(item)}\n`;
      written += Buffer.byteLength(line);
      pending += line;
      if (pending.length >= WRITE_CHUNK_CHARS) flush();
    },
    addLines(lines) {
      written += Buffer.byteLength(lines);
      pending += lines;
      if (pending.length >= WRITE_CHUNK_CHARS) flush();
    },
    position: () => written,
    async finish(header) {
      try {
        flush();
        close();
        const mode = await stat(file).then((s) => s.mode & 0o7777, () => 0o666);
        const tmp = tempPathFor(file);
        const out = openSync(tmp, 'wx', mode);
        const headerLine = `${JSON.stringify(header)}\n`;
        try {
          writeSync(out, headerLine);
          const from = openSync(itemsTmp, 'r');
          try {
            const buf = Buffer.allocUnsafe(WRITE_CHUNK_CHARS);
            for (let n = readSync(from, buf); n > 0; n = readSync(from, buf)) writeSync(out, buf, 0, n);
          } finally {
            closeSync(from);
          }
          // Without this, a power loss after the rename can leave a renamed but empty file.
          fsyncSync(out);
        } catch (err) {
          closeSync(out);
          await rm(tmp, { force: true });
          throw err;
        }
        closeSync(out);
        await rename(tmp, file);
        await fsyncPath(dataDir);
        return { itemsAt: Buffer.byteLength(headerLine) };
      } finally {
        close();
        await rm(itemsTmp, { force: true });
      }
    },
    async abort() {
      close();
      await rm(itemsTmp, { force: true });
    },
  };
}

/** The whole index at once; a scan streams through `openIndexWriter` instead. */
export async function writeLibraryIndex(dataDir: string, index: LibraryIndex): Promise<void> {
  const { items, ...header } = index;
  const writer = await openIndexWriter(dataDir);
  try {
    for (const item of items) writer.add(item);
  } catch (err) {
    await writer.abort();
    throw err;
  }
  await writer.finish(header);
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
  let header: IndexHeader | undefined;
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

/** The index's header line alone, without reading its items; null before the first library scan. */
export async function readLibraryIndexHeader(dataDir: string): Promise<IndexHeader | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(indexPath(dataDir), 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const chunks: Buffer[] = [];
    for (let pos = 0; ; ) {
      const buf = Buffer.allocUnsafe(1 << 16);
      const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
      const nl = buf.subarray(0, bytesRead).indexOf(10);
      chunks.push(buf.subarray(0, nl === -1 ? bytesRead : nl));
      if (nl !== -1 || bytesRead === 0) break;
      pos += bytesRead;
    }
    const line = Buffer.concat(chunks).toString('utf8');
    if (line === '') throw new Error(`${indexPath(dataDir)}: empty index file`);
    return libraryIndexHeaderSchema.parse(JSON.parse(line));
  } finally {
    await handle.close();
  }
}

export async function indexStamp(dataDir: string): Promise<string> {
  try {
    const s = await stat(indexPath(dataDir));
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return 'missing';
  }
}
