import * as fs from 'node:fs';
import { Worker } from 'node:worker_threads';

/**
 * One folder's entries as a library scan needs them: names in order, each with the figures of its
 * stat (which follows symlinks) or why it has none.
 */
export interface FolderListing {
  dir: string;
  /** readdir's error code: the folder could not be read. */
  error: string | null;
  names: string[];
  /** FIGURES numbers per entry, in `names` order. */
  figures: Float64Array;
  /** Per entry, the stat's error code where its kind is ENTRY_ERROR. */
  errors: (string | null)[];
  /**
   * Per entry, when .nfo files are read: a `.nfo` file's first NFO_MAX_BYTES as text, or null when
   * it could not be read; undefined for every other entry (and past the last .nfo).
   */
  heads: (string | null | undefined)[];
}

/** How much of a .nfo file a scan reads: Kodi's files are a few kilobytes; more is not metadata. */
export const NFO_MAX_BYTES = 256 * 1024;

/** An entry's figures: kind, size, mtimeMs, ctimeMs, dev, ino. */
export const FIGURES = 6;
export const ENTRY_GONE = 0;
export const ENTRY_FILE = 1;
export const ENTRY_DIR = 2;
export const ENTRY_OTHER = 3;
export const ENTRY_ERROR = 4;

/**
 * Reads a folder and stats every entry. Self-contained (no imports, constants spelled out): the
 * prefetching thread runs this function's own source.
 */
export function listFolder(nodeFs: typeof fs, dir: string, nfoBuffer: Buffer | null): FolderListing {
  let names: string[];
  try {
    names = nodeFs.readdirSync(dir);
  } catch (err) {
    return { dir, error: (err as NodeJS.ErrnoException).code ?? String(err), names: [], figures: new Float64Array(0), errors: [], heads: [] };
  }
  // Code-unit order, as `<` compares: the index comes out sorted.
  names.sort();
  const figures = new Float64Array(names.length * 6);
  const errors: (string | null)[] = [];
  const heads: (string | null | undefined)[] = [];
  for (let i = 0; i < names.length; i++) {
    let st: fs.Stats | undefined;
    errors.push(null);
    try {
      // A dangling symlink or a file gone since readdir: nothing to index.
      st = nodeFs.statSync(`${dir}/${names[i]}`, { throwIfNoEntry: false });
    } catch (err) {
      figures[i * 6] = 4;
      errors[i] = (err as NodeJS.ErrnoException).code ?? String(err);
      continue;
    }
    if (!st) continue;
    const at = i * 6;
    figures[at] = st.isFile() ? 1 : st.isDirectory() ? 2 : 3;
    figures[at + 1] = st.size;
    figures[at + 2] = st.mtimeMs;
    figures[at + 3] = st.ctimeMs;
    figures[at + 4] = st.dev;
    figures[at + 5] = st.ino;
    // Read here, on the listing thread, not when the scan reaches the file: an open beside the
    // thread's stats in the same folder waited on them.
    if (nfoBuffer && figures[at] === 1 && names[i]!.slice(-4).toLowerCase() === '.nfo') {
      heads.length = i;
      let fd: number | undefined;
      try {
        fd = nodeFs.openSync(`${dir}/${names[i]}`, 'r');
        heads.push(nfoBuffer.toString('utf8', 0, nodeFs.readSync(fd, nfoBuffer, 0, nfoBuffer.length, 0)));
      } catch {
        heads.push(null);
      } finally {
        if (fd !== undefined) nodeFs.closeSync(fd);
      }
    }
  }
  return { dir, error: null, names, figures, errors, heads };
}

/**
 * The walk the scan makes, run ahead of it on another thread: the same roots, the same depth-first
 * name order, every folder entered once by device and inode. Listings go out in batches of about
 * `batchEntries` entries, at most `window` batches ahead of what the scan has taken (`shared[1]`).
 */
function prefetchTree(
  nodeFs: typeof fs,
  list: typeof listFolder,
  post: (batch: FolderListing[] | null, transfer?: ArrayBuffer) => void,
  job: { roots: string[]; readNfo: boolean; nfoMaxBytes: number; batchEntries: number; window: number },
  counters: Int32Array,
): void {
  const visited = new Set<string>();
  const nfoBuffer = job.readNfo ? Buffer.allocUnsafe(job.nfoMaxBytes) : null;
  const enter = (dev: number, ino: number) => {
    const key = `${dev}:${ino}`;
    if (visited.has(key)) return false;
    visited.add(key);
    return true;
  };
  let batch: FolderListing[] = [];
  let entries = 0;
  let sent = 0;
  const send = () => {
    for (let taken = Atomics.load(counters, 1); sent - taken >= job.window; taken = Atomics.load(counters, 1)) Atomics.wait(counters, 1, taken, 1000);
    // One buffer for the batch's figures, moved rather than copied: an array buffer per folder
    // cost the receiving thread more than the syscalls cost this one.
    let total = 0;
    for (const l of batch) total += l.figures.length;
    const packed = new Float64Array(total);
    let at = 0;
    for (const l of batch) {
      packed.set(l.figures, at);
      l.figures = packed.subarray(at, (at += l.figures.length));
    }
    post(batch, packed.buffer);
    sent++;
    batch = [];
    entries = 0;
  };
  for (const root of job.roots) {
    let st: fs.Stats;
    try {
      st = nodeFs.statSync(root);
    } catch {
      continue;
    }
    if (!st.isDirectory() || !enter(st.dev, st.ino)) continue;
    const stack = [root];
    while (stack.length > 0) {
      const listing = list(nodeFs, stack.pop()!, nfoBuffer);
      batch.push(listing);
      entries += listing.names.length + 1;
      const { names, figures } = listing;
      const subdirs: string[] = [];
      for (let i = 0; i < names.length; i++) {
        if (figures[i * 6] === 2 && enter(figures[i * 6 + 4]!, figures[i * 6 + 5]!)) subdirs.push(`${listing.dir}/${names[i]}`);
      }
      for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
      if (entries >= job.batchEntries) send();
    }
  }
  if (batch.length > 0) send();
  post(null);
}

/** Where a scan gets its folders' listings, in the order it walks them. */
export interface FolderLister {
  list(dir: string): FolderListing | Promise<FolderListing>;
  close(): void;
}

// One buffer for every .nfo read on this thread: allocating (and zero-filling) 256 KiB per file
// cost more than the whole rest of a scan of a library with many .nfo files.
let nfoBuffer: Buffer | undefined;
const nfoBufferFor = (readNfo: boolean) => (readNfo ? (nfoBuffer ??= Buffer.allocUnsafe(NFO_MAX_BYTES)) : null);

/** Each folder read when the scan reaches it, on the scan's own thread. */
export function inlineLister(readNfo: boolean): FolderLister {
  return { list: (dir) => listFolder(fs, dir, nfoBufferFor(readNfo)), close() {} };
}

const BATCH_ENTRIES = 2000;
const WINDOW_BATCHES = 8;

/**
 * Listings read ahead on a worker thread while the scan classifies and writes what it has: the
 * syscalls, the largest part of a scan, run beside the rest. The scan must ask for folders in the
 * order `prefetchTree` walks `roots`; if it ever asks for another (a root that changed between the
 * two stats, say), the thread is dropped and every folder from then on is read inline.
 */
export function prefetchingLister(roots: readonly string[], readNfo: boolean, onInline?: (reason: string) => void): FolderLister {
  const shared = new Int32Array(new SharedArrayBuffer(8));
  const source =
    `const { parentPort, workerData } = require('node:worker_threads');\n` +
    // esbuild's keepNames (tsx, vitest) wraps functions in this helper; the bundle does not.
    `const __name = (f) => f;\n` +
    `const listFolder = ${listFolder.toString()};\n` +
    `(${prefetchTree.toString()})(require('node:fs'), listFolder, (b, t) => parentPort.postMessage(b, t ? [t] : []), workerData.job, new Int32Array(workerData.shared));`;
  let worker: Worker | null = new Worker(source, {
    eval: true,
    workerData: { job: { roots: [...roots], readNfo, nfoMaxBytes: NFO_MAX_BYTES, batchEntries: BATCH_ENTRIES, window: WINDOW_BATCHES }, shared: shared.buffer },
    // The thread holds a batch window of listings, no more.
    resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 4 },
  });
  const ready: FolderListing[] = [];
  let at = 0;
  let done = false;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  worker.on('message', (batch: FolderListing[] | null) => {
    if (batch === null) done = true;
    else ready.push(...batch);
    wake?.();
  });
  worker.on('error', (err) => {
    failure = err;
    wake?.();
  });
  worker.on('exit', () => {
    done = true;
    wake?.();
  });
  const drop = () => {
    void worker?.terminate();
    worker = null;
    ready.length = 0;
  };
  /** The thread is no help from here on: said once, with why. */
  const fallBack = (reason: string) => {
    if (worker) onInline?.(reason);
    drop();
  };
  const inline = (dir: string) => listFolder(fs, dir, nfoBufferFor(readNfo));
  const take = (dir: string): FolderListing | null => {
    if (at >= ready.length) return null;
    const listing = ready[at]!;
    ready[at++] = undefined as unknown as FolderListing;
    if (at === ready.length) {
      ready.length = 0;
      at = 0;
    }
    if (listing.dir !== dir) {
      fallBack(`asked for ${dir}, the thread listed ${listing.dir}`);
      return inline(dir);
    }
    return listing;
  };
  let consumed = 0;
  return {
    list(dir) {
      if (!worker) return inline(dir);
      // One batch counted as taken per BATCH_ENTRIES entries handed over keeps the thread's lead bounded.
      const ack = (l: FolderListing) => {
        consumed += l.names.length + 1;
        if (consumed >= BATCH_ENTRIES) {
          consumed = 0;
          Atomics.add(shared, 1, 1);
          Atomics.notify(shared, 1);
        }
        return l;
      };
      const now = take(dir);
      if (now) return ack(now);
      return (async () => {
        for (;;) {
          if (failure || (done && at >= ready.length)) {
            fallBack(failure ? `listing thread failed: ${String(failure)}` : `asked for ${dir} after the thread's last folder`);
            return inline(dir);
          }
          await new Promise<void>((r) => (wake = r));
          wake = null;
          const next = take(dir);
          if (next) return worker ? ack(next) : next;
        }
      })();
    },
    close: drop,
  };
}
