import { close, closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { removeStaleTemps, tempPathFor } from '../fs/atomic-write.ts';
import { readIndexHeader } from './index-store.ts';
import type { SummaryPart } from './views.ts';
import { DATA_FILES } from '../data-dir/data-dir.ts';

/**
 * Beside the index: every folder a library scan read, with the stat figures that say whether it
 * changed since and where its own files' lines lie in the index. A rescan copies the lines of a
 * folder whose figures are the same instead of reading the folder again. One header line (which
 * index and which scan options it belongs to), then one line per folder.
 */
export const FOLDERS_FILE = DATA_FILES.libraryFolders.name;

export interface FolderRecord {
  dir: string;
  /** mtime and ctime change when an entry is added, removed or renamed, or the mtime is set back; ino when the folder is replaced. */
  mtime_ms: number;
  ctime_ms: number;
  ino: number;
  /** Where this folder's own files' lines start in the index's items, and how many bytes and files they are. */
  at: number;
  bytes: number;
  files: number;
  /** Names of the entries that were folders, in name order. */
  subdirs: string[];
  /** What its own files add to the library summary: a rescan counts them without reading their lines. */
  sum: SummaryPart;
}

/**
 * 2: records carry `sum`; 3: a `sum` counts the dated episodes of daily shows too; 4: folder titles
 * are read without release words (library/tagged-folder-name.ts), so the items of an unchanged
 * folder are no longer what a scan would write. A file of another version is not trusted, so the
 * scan after an upgrade reads everything.
 */
export const FOLDERS_VERSION = 4;

interface FoldersHeader {
  version: typeof FOLDERS_VERSION;
  index_scanned_at: string;
  /** The scan options the items were classified with; any change means a full scan. */
  options: string;
  /** Byte offset of the index's first item line. */
  items_at: number;
}

/** The index file and its folder file beside it. */
export interface IndexFiles {
  index: string;
  folders: string;
}

export interface FolderStateWriter {
  add(record: FolderRecord): void;
  /** A record as a previous scan wrote it, `at` set to where its lines are now (everything else is unchanged). */
  addUnchanged(line: Buffer, record: FolderRecord, at: number): void;
  finish(header: FoldersHeader): Promise<void>;
  abort(): Promise<void>;
}

const CHUNK_BYTES = 1 << 20;
const READ_WINDOW_BYTES = 1 << 20;

/** Streams folder records to a temp file; `finish` writes the header and puts it in place. */
export async function openFolderStateWriter(file: string): Promise<FolderStateWriter> {
  await removeStaleTemps(file);
  const bodyTmp = tempPathFor(file);
  let fd: number | undefined = openSync(bodyTmp, 'wx', 0o600);
  // Bytes, not a string: a rescan copies most lines as the previous scan wrote them.
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  const flush = () => {
    if (used > 0) writeSync(fd!, chunk, 0, used);
    used = 0;
  };
  /** Whether `bytes` more fit in the chunk, flushed first if they do not fit behind what it holds. */
  const room = (bytes: number) => {
    if (used + bytes > chunk.length) flush();
    return bytes <= chunk.length;
  };
  const put = (text: string) => {
    // At most 3 bytes per UTF-16 unit, and the newline.
    if (!room(text.length * 3 + 1)) writeSync(fd!, `${text}\n`);
    else {
      used += chunk.write(text, used);
      chunk[used++] = 10;
    }
  };
  const close = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  return {
    add(record) {
      put(JSON.stringify(record));
    },
    addUnchanged(line, record, at) {
      if (record.at !== at) {
        // `at` follows `dir`, the only string before it, whose quotes inside are escaped: the
        // first `,"at":` is the field.
        put(line.toString('utf8').replace(`,"at":${record.at},`, `,"at":${at},`));
        return;
      }
      // Copied as it was: no stringify, no string at all.
      if (!room(line.length + 1)) writeSync(fd!, Buffer.concat([line, Buffer.from('\n')]));
      else {
        used += line.copy(chunk, used);
        chunk[used++] = 10;
      }
    },
    async finish(header) {
      try {
        flush();
        close();
        const tmp = tempPathFor(file);
        const out = openSync(tmp, 'wx', 0o600);
        try {
          writeSync(out, `${JSON.stringify(header)}\n`);
          const from = openSync(bodyTmp, 'r');
          try {
            const buf = Buffer.allocUnsafe(CHUNK_BYTES);
            for (let n = readSync(from, buf); n > 0; n = readSync(from, buf)) writeSync(out, buf, 0, n);
          } finally {
            closeSync(from);
          }
        } finally {
          closeSync(out);
        }
        // No fsync: a folder file lost or torn by a crash only costs the next scan its shortcut.
        await rename(tmp, file);
      } finally {
        close();
        await rm(bodyTmp, { force: true });
      }
    },
    async abort() {
      close();
      await rm(bodyTmp, { force: true });
    },
  };
}

const DIR_FIELD = Buffer.from('{"dir":"');

/**
 * The `dir` of a folder record's line (the writer puts it first) without parsing the rest; null if
 * the line does not start with one. UTF-8 keeps every byte of a multibyte character above 0x7f, so
 * the closing quote is found among the bytes.
 */
function recordDir(line: Buffer): string | null {
  if (line.length < DIR_FIELD.length || DIR_FIELD.compare(line, 0, DIR_FIELD.length) !== 0) return null;
  for (let i = DIR_FIELD.length; i < line.length; i++) {
    const c = line[i];
    if (c === 0x5c) i++;
    else if (c === 0x22) {
      try {
        const dir: unknown = JSON.parse(line.toString('utf8', DIR_FIELD.length - 1, i + 1));
        return typeof dir === 'string' ? dir : null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** The line of `bytes` that starts at `start`, without its newline. */
function lineOf(bytes: Buffer, start: number): Buffer {
  const end = bytes.indexOf(10, start);
  return bytes.subarray(start, end === -1 ? bytes.length : end);
}

/**
 * A folder file's header and where each folder's record starts, by folder; null when the header
 * is not one `trusted` accepts, or any line does not parse.
 */
function folderLines(bytes: Buffer, trusted: (header: FoldersHeader) => boolean): { header: FoldersHeader; folders: Map<string, number> } | null {
  const folders = new Map<string, number>();
  let header: FoldersHeader | undefined;
  try {
    for (let start = 0; start < bytes.length;) {
      const line = lineOf(bytes, start);
      const at = start;
      start += line.length + 1;
      if (line.length === 0) continue;
      if (!header) {
        header = JSON.parse(line.toString('utf8')) as FoldersHeader;
        if (!trusted(header)) return null;
        continue;
      }
      const dir = recordDir(line);
      if (dir === null) return null;
      folders.set(dir, at);
    }
  } catch {
    return null;
  }
  return header ? { header, folders } : null;
}

export interface PreviousScan {
  get(dir: string): FolderRecord | undefined;
  /** The folder's record as the previous scan wrote it, without its newline. */
  line(dir: string): Buffer | undefined;
  /** The folder's own index lines as the previous index holds them, each ending in a newline; valid until the next call. */
  lines(record: FolderRecord): Buffer;
  close(): void;
}

/**
 * The previous scan's folders and an open handle on its index, or null when there is none to
 * trust: no folder file, one written for another index (a scan killed between the two renames) or
 * with other scan options, or one that does not parse.
 */
export async function openPreviousScan(files: IndexFiles, options: string): Promise<PreviousScan | null> {
  let index;
  try {
    index = await readIndexHeader(files.index);
  } catch {
    return null;
  }
  if (!index) return null;
  // Each record stays the line it was until its folder is reached: at 1,000,000 files 173,000
  // parsed records (their subfolder lists and summary parts) were millions of objects that every
  // garbage collection of the rescan had to trace, and the rescan took 13x the one at 100,000.
  // The file stays bytes, outside the heap the collector copies; a record is decoded when its
  // folder is reached. A line reader's strings and stream events cost a rescan a tenth of its time.
  let bytes: Buffer;
  try {
    bytes = readFileSync(files.folders);
  } catch {
    return null;
  }
  const lineAt = (start: number) => lineOf(bytes, start);
  const scannedAt = index.scanned_at;
  const read = folderLines(bytes, (h) => h.version === FOLDERS_VERSION && h.index_scanned_at === scannedAt && h.options === options);
  if (!read) return null;
  const { header, folders } = read;
  // The handle keeps the old index readable after the new one replaces it.
  const fd = openSync(files.index, 'r');
  const itemsAt = header.items_at;
  // A rescan asks for the folders in the order the previous scan wrote them: one read brings in
  // the lines of many folders.
  let window = Buffer.allocUnsafe(READ_WINDOW_BYTES);
  let windowAt = 0;
  let windowBytes = 0;
  return {
    get(dir) {
      const at = folders.get(dir);
      if (at === undefined) return undefined;
      try {
        return JSON.parse(lineAt(at).toString('utf8')) as FolderRecord;
      } catch {
        // Untrusted, the folder is read again.
        return undefined;
      }
    },
    line(dir) {
      const at = folders.get(dir);
      return at === undefined ? undefined : lineAt(at);
    },
    lines(record) {
      const from = itemsAt + record.at;
      if (from < windowAt || from + record.bytes > windowAt + windowBytes) {
        if (record.bytes > window.length) window = Buffer.allocUnsafe(record.bytes);
        windowAt = from;
        windowBytes = 0;
        while (windowBytes < record.bytes) {
          const n = readSync(fd, window, windowBytes, window.length - windowBytes, from + windowBytes);
          if (n === 0) throw new Error(`${files.index}: shorter than its folder file says`);
          windowBytes += n;
        }
      }
      return window.subarray(from - windowAt, from - windowAt + record.bytes);
    },
    // After a scan the old index is unlinked, and its last close frees the file's blocks: off this thread.
    close: () => close(fd, () => {}),
  };
}
