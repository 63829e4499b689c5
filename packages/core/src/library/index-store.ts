import { closeSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { libraryIndexHeaderSchema, type IndexItem, type LibraryIndex } from '@mo/shared';
import { removeStaleTemps, tempPathFor } from '../fs/atomic-write.ts';
import { fsyncPath } from '../fs/fsync.ts';
import { dataDir as dataFolder, DATA_FILES } from '../data-dir/data-dir.ts';

export const INDEX_FILE = DATA_FILES.libraryIndex.name;

/** The index of the data folder `root` (where a caller holds no `LibraryStore`: the scanner's pass, tests). */
const indexOf = (root: string) => dataFolder(root).path('libraryIndex');

export type IndexHeader = Omit<LibraryIndex, 'items'>;

/** How many bytes of lines an index writer gathers before one write: few syscalls, little memory. */
const WRITE_CHUNK_BYTES = 1 << 20;
const READ_CHUNK_BYTES = 1 << 20;

/**
 * An item's index line: the bytes `JSON.stringify(item)` gives for an item of the index schema,
 * keys in the schema's order, built field by field. Twice as fast as stringifying the object (half
 * a scan's time beyond its syscalls went to it at 100,000 files), and the root, drive and folder,
 * the same on every line of a folder, are quoted once per run of lines that share them (the title
 * too: a folder's files mostly share their folder's).
 */
/** A number as JSON writes it: what is not finite is null. */
const num = (n: number | null): string => (n !== null && Number.isFinite(n) ? `${n}` : 'null');

export function indexLineWriter(): (item: IndexItem) => string {
  const q = JSON.stringify;
  let drive = '';
  let driveQ = '""';
  let root = '';
  let rootQ = '""';
  let folder = '';
  let folderQ = '""';
  let title: string | null = null;
  let titleQ = 'null';
  // Sections, types and extensions: a handful of strings, quoted once each.
  const few = new Map<string, string>();
  const qFew = (s: string) => {
    let quoted = few.get(s);
    if (quoted === undefined) {
      quoted = q(s);
      if (few.size < 256) few.set(s, quoted);
    }
    return quoted;
  };
  return (item) => {
    if (item.drive !== drive) driveQ = q((drive = item.drive));
    if (item.root !== root) rootQ = q((root = item.root));
    if (item.folder !== folder) folderQ = q((folder = item.folder));
    if (item.title !== title) titleQ = (title = item.title) === null ? 'null' : q(title);
    return (
      `{"path":${q(item.path)},"drive":${driveQ},"section":${qFew(item.section)},"root":${rootQ},"folder":${folderQ},` +
      `"bytes":${num(item.bytes)},"mtime_ms":${num(item.mtime_ms)},"ext":${qFew(item.ext)},"type":${qFew(item.type)},` +
      `"title":${titleQ},"year":${num(item.year)},"season":${num(item.season)},` +
      `"episodes":${item.episodes.length === 0 ? '[]' : q(item.episodes)},"air_date":${item.air_date === null ? 'null' : q(item.air_date)},` +
      `"extra":${item.extra ? 'true' : 'false'},"nfo":${item.nfo === null ? 'null' : q(item.nfo)}}\n`
    );
  };
}

export interface IndexWriter {
  add(item: IndexItem): void;
  /** Index lines as a previous index held them, each ending in a newline. */
  addLines(lines: Buffer): void;
  /** Bytes of items written so far: where the next item's line will start after the header. */
  position(): number;
  /** Puts the index in place: the header, then every item added, atomically; says where the items start. */
  finish(header: IndexHeader): Promise<{ itemsAt: number }>;
  /** Drops what was written; the previous index stays. */
  abort(): Promise<void>;
}

/**
 * Bytes kept for the header line at the head of the file while the items are written after them:
 * the header (the scan's outcome) is known only at the end. Spaces pad it to this length, which
 * JSON.parse ignores; a header too long for it (thousands of skipped folders) is written with a
 * copy of the items after it instead.
 */
export const HEADER_ROOM = 4096;

/** A new temp file for `file` with the header line, then the items copied from the writer's temp file past its header room. */
async function withLongHeader(file: string, itemsTmp: string, headerLine: string, mode: number): Promise<string> {
  const tmp = tempPathFor(file);
  const out = openSync(tmp, 'wx', mode);
  try {
    writeSync(out, headerLine);
    const from = openSync(itemsTmp, 'r');
    try {
      const buf = Buffer.allocUnsafe(WRITE_CHUNK_BYTES);
      for (let pos = HEADER_ROOM, n = readSync(from, buf, 0, buf.length, pos); n > 0; pos += n, n = readSync(from, buf, 0, buf.length, pos)) {
        writeSync(out, buf, 0, n);
      }
    } finally {
      closeSync(from);
    }
    fsyncSync(out);
  } catch (err) {
    closeSync(out);
    await rm(tmp, { force: true });
    throw err;
  }
  closeSync(out);
  return tmp;
}

/**
 * One header line, then one line per file. Line by line, a reader never holds the whole file as
 * one string next to the parsed items (at 100,000 files that string alone is ~40 MB), and a writer
 * streams items to a temp file as a scan finds them instead of holding them, after room left for
 * the header, which goes in last; the file then replaces the index. Readers see the previous index
 * or this one, never a mix.
 */
export async function openIndexWriter(file: string): Promise<IndexWriter> {
  await mkdir(dirname(file), { recursive: true });
  // Only workers write the index, one library scan at a time: what a killed one left can go.
  await removeStaleTemps(file);
  const itemsTmp = tempPathFor(file);
  const mode = await stat(file).then(
    (s) => s.mode & 0o7777,
    () => 0o666,
  );
  let fd: number | undefined = openSync(itemsTmp, 'wx', mode);
  writeSync(fd, `${' '.repeat(HEADER_ROOM - 1)}\n`);
  // Lines gather in one buffer, written out when full: few syscalls, however small each folder.
  const chunk = Buffer.allocUnsafe(WRITE_CHUNK_BYTES);
  let used = 0;
  let written = 0;
  const flush = () => {
    if (used > 0) writeSync(fd!, chunk, 0, used);
    used = 0;
  };
  const close = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  const put = (bytes: Buffer) => {
    written += bytes.length;
    if (used + bytes.length > chunk.length) flush();
    if (bytes.length > chunk.length) writeSync(fd!, bytes);
    else used += bytes.copy(chunk, used);
  };
  const lineOf = indexLineWriter();
  return {
    add(item) {
      const line = lineOf(item);
      // Room for the most bytes the line can take (3 per UTF-16 unit), so that it is encoded once,
      // not measured first.
      const most = line.length * 3;
      if (used + most > chunk.length) flush();
      const n = most > chunk.length ? writeSync(fd!, line) : chunk.write(line, used);
      if (most <= chunk.length) used += n;
      written += n;
    },
    addLines: put,
    position: () => written,
    async finish(header) {
      try {
        flush();
        const headerJson = JSON.stringify(header);
        let done = itemsTmp;
        let itemsAt = HEADER_ROOM;
        if (Buffer.byteLength(headerJson) < HEADER_ROOM) {
          writeSync(fd!, headerJson, 0);
          // Without this, a power loss after the rename can leave a renamed but empty file.
          fsyncSync(fd!);
          close();
        } else {
          close();
          const headerLine = `${headerJson}\n`;
          done = await withLongHeader(file, itemsTmp, headerLine, mode);
          itemsAt = Buffer.byteLength(headerLine);
        }
        await rename(done, file);
        await fsyncPath(dirname(file));
        return { itemsAt };
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

/** The whole index at once to `file`; a scan streams through `openIndexWriter` instead. */
export async function writeIndexFile(file: string, index: LibraryIndex): Promise<void> {
  const { items, ...header } = index;
  const writer = await openIndexWriter(file);
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

/** The index of the data folder `root` at once. */
export const writeLibraryIndex = (root: string, index: LibraryIndex): Promise<void> => writeIndexFile(indexOf(root), index);

/** The index in `file`, or null before the first library scan. Items are trusted: only the worker writes them. */
export async function readIndexFile(file: string): Promise<LibraryIndex | null> {
  const open = await openIndex(file);
  if (!open) return null;
  try {
    const items: IndexItem[] = [];
    await streamItems(open, (item) => items.push(item));
    return { ...open.header, items };
  } finally {
    await open.handle.close();
  }
}

/** The header line of an open index file and where its items start. */
async function headerOf(handle: FileHandle, file: string): Promise<{ header: IndexHeader; itemsAt: number }> {
  const chunks: Buffer[] = [];
  let length = 0;
  for (let pos = 0; ;) {
    const buf = Buffer.allocUnsafe(1 << 16);
    const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
    const nl = buf.subarray(0, bytesRead).indexOf(10);
    chunks.push(buf.subarray(0, nl === -1 ? bytesRead : nl));
    length += nl === -1 ? bytesRead : nl;
    if (nl !== -1 || bytesRead === 0) break;
    pos += bytesRead;
  }
  const line = Buffer.concat(chunks).toString('utf8');
  if (line === '') throw new Error(`${file}: empty index file`);
  return { header: libraryIndexHeaderSchema.parse(JSON.parse(line)), itemsAt: length + 1 };
}

/** The index of the data folder `root`, or null before the first library scan. */
export const readLibraryIndex = (root: string): Promise<LibraryIndex | null> => readIndexFile(indexOf(root));

/** The index's header line alone, without reading its items; null before the first library scan. */
export async function readIndexHeader(file: string): Promise<IndexHeader | null> {
  const open = await openIndex(file);
  if (!open) return null;
  try {
    return open.header;
  } finally {
    await open.handle.close();
  }
}

/**
 * An index file held open: its items are read from this very file however often a scan replaces
 * it meanwhile (a renamed-over file lives on while a handle holds it), so answers built from
 * several reads never mix two scans.
 */
export interface OpenIndex {
  handle: FileHandle;
  /** Tells this file from the one at the index's path (`indexStamp`). */
  stamp: string;
  header: IndexHeader;
  /** Where the first item's line starts. */
  itemsAt: number;
}

export async function openIndex(file: string): Promise<OpenIndex | null> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const s = await handle.stat();
    return { handle, stamp: stampOf(s), ...(await headerOf(handle, file)) };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** Lines between byte offsets, parsed; `each` gets every item with its line's start and end (after the newline). */
async function readLines(handle: FileHandle, from: number, to: number, each: (item: IndexItem, start: number, end: number) => void): Promise<void> {
  let buf = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, Math.max(to - from, 1)));
  // buf[0, kept) is the start of a line not yet ended, found at `base` in the file.
  let kept = 0;
  let base = from;
  for (let pos = from; pos < to;) {
    if (kept === buf.length) {
      // A line longer than the buffer (an .nfo with a long plot).
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, kept);
      buf = bigger;
    }
    const { bytesRead } = await handle.read(buf, kept, Math.min(buf.length - kept, to - pos), pos);
    if (bytesRead === 0) break;
    pos += bytesRead;
    const end = kept + bytesRead;
    let start = 0;
    for (let nl = buf.indexOf(10, kept); nl !== -1 && nl < end; nl = buf.indexOf(10, nl + 1)) {
      if (nl > start) each(JSON.parse(buf.toString('utf8', start, nl)) as IndexItem, base + start, base + nl + 1);
      start = nl + 1;
    }
    buf.copy(buf, 0, start, end);
    kept = end - start;
    base += start;
  }
  if (kept > 0) each(JSON.parse(buf.toString('utf8', 0, kept)) as IndexItem, base, base + kept);
}

/** Every item of an open index in file order, one at a time: nothing but the item being handed over is held. */
export async function streamItems(index: OpenIndex, each: (item: IndexItem, start: number, end: number) => void): Promise<void> {
  const intern = interner();
  const { size } = await index.handle.stat();
  await readLines(index.handle, index.itemsAt, size, (item, start, end) => {
    item.drive = intern(item.drive)!;
    item.root = intern(item.root)!;
    item.folder = intern(item.folder)!;
    item.title = intern(item.title);
    item.ext = intern(item.ext)!;
    each(item, start, end);
  });
}

/** The items whose lines lie in the byte ranges `spans` (start, end, start, end, …) of an open index. */
export async function itemsAt(index: OpenIndex, spans: readonly number[]): Promise<IndexItem[]> {
  const items: IndexItem[] = [];
  for (let i = 0; i + 1 < spans.length; i += 2) await readLines(index.handle, spans[i]!, spans[i + 1]!, (item) => items.push(item));
  return items;
}

const stampOf = (s: { ino: number; size: number; mtimeMs: number }) => `${s.ino}:${s.size}:${s.mtimeMs}`;

export async function indexStamp(file: string): Promise<string> {
  try {
    return stampOf(await stat(file));
  } catch {
    return 'missing';
  }
}
