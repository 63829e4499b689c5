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
  /** By entry, the stat's error code where its kind is ENTRY_ERROR; nothing for the others (most folders: an empty array). */
  errors: string[];
  /**
   * Per entry, when .nfo files are read: a `.nfo` file's first NFO_MAX_BYTES as text, or null when
   * it could not be read; undefined for every other entry, and for the .nfo files past the reader's
   * budget (`readNfoHead` them when they are reached).
   */
  heads: (string | null | undefined)[];
}

/** What .nfo files a listing reads: into `buffer`, while `budget` (characters) lasts. */
export interface NfoReader {
  buffer: Buffer;
  budget: number;
}

/** How much of a .nfo file a scan reads: Kodi's files are a few kilobytes; more is not metadata. */
export const NFO_MAX_BYTES = 256 * 1024;

/**
 * An entry's figures: kind, size, mtimeMs, ctimeMs, dev, ino. Kinds: 0 gone since readdir (or a
 * dangling symlink), 1 file, 2 folder, 3 anything else, 4 the stat failed (`errors`).
 */
export const FIGURES = 6;
export const ENTRY_FILE = 1;
export const ENTRY_DIR = 2;
export const ENTRY_ERROR = 4;

/**
 * A .nfo file's head as text; null when it cannot be read, or is not a regular file of its own.
 * Self-contained, as `listFolder`. The listing's stat follows links and is older than this open: a
 * link here (to a file outside the library, to a FIFO or a device) is refused by the open itself,
 * and a FIFO or device put in the file's place opens without waiting and is refused by its fstat.
 * A blocked read would hold the thread for good, beyond the reach of a cancel or SIGTERM.
 */
export function readNfoHead(nodeFs: typeof fs, path: string, buffer: Buffer): string | null {
  let fd: number | undefined;
  try {
    const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = nodeFs.constants;
    fd = nodeFs.openSync(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (!nodeFs.fstatSync(fd).isFile()) return null;
    return buffer.toString('utf8', 0, nodeFs.readSync(fd, buffer, 0, buffer.length, 0));
  } catch {
    return null;
  } finally {
    if (fd !== undefined) nodeFs.closeSync(fd);
  }
}

/**
 * Reads a folder and stats every entry, and the heads of its .nfo files while `nfo`'s budget
 * lasts. Self-contained (no imports, constants spelled out): the prefetching thread runs this
 * function's own source, and `readNfoHead`'s.
 */
export function listFolder(nodeFs: typeof fs, dir: string, nfo: NfoReader | null, readHead: typeof readNfoHead): FolderListing {
  let names: string[];
  try {
    names = nodeFs.readdirSync(dir);
  } catch (err) {
    return { dir, error: (err as NodeJS.ErrnoException).code ?? String(err), names: [], figures: new Float64Array(0), errors: [], heads: [] };
  }
  // Code-unit order, as `<` compares: the index comes out sorted.
  names.sort();
  const figures = new Float64Array(names.length * 6);
  const errors: string[] = [];
  const heads: (string | null | undefined)[] = [];
  for (let i = 0; i < names.length; i++) {
    let st: fs.Stats | undefined;
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
    if (nfo && nfo.budget > 0 && figures[at] === 1 && names[i]!.slice(-4).toLowerCase() === '.nfo') {
      const head = readHead(nodeFs, `${dir}/${names[i]}`, nfo.buffer);
      // Entries before it with no head stay holes (undefined).
      heads.length = i;
      heads.push(head);
      nfo.budget -= head?.length ?? 0;
    }
  }
  return { dir, error: null, names, figures, errors, heads };
}

/** What the listing thread is asked to do. */
interface PrefetchJob {
  roots: string[];
  /** Folders never entered (`dev:ino`): those above the roots (`foldersAbove`). */
  above: string[];
  readNfo: boolean;
  nfoMaxBytes: number;
  /** A batch goes out once it holds this many entries, or its .nfo heads this many characters. */
  batchEntries: number;
  batchHeadChars: number;
  /** Batches sent and not yet taken, at most. */
  window: number;
}

/**
 * The walk the scan makes, run ahead of it on another thread: the same roots, each claimed before
 * any is walked, the same depth-first name order, every folder entered once by device and inode
 * and none of `job.above`. Listings go out in batches, at most
 * `window` of them ahead of what the scan has taken (`taken[0]`, counted by the scan).
 */
function prefetchTree(
  nodeFs: typeof fs,
  list: typeof listFolder,
  readHead: typeof readNfoHead,
  post: (batch: FolderListing[] | null, transfer?: ArrayBuffer) => void,
  job: PrefetchJob,
  taken: Int32Array,
): void {
  const visited = new Set<string>(job.above);
  const nfo = job.readNfo ? { buffer: Buffer.allocUnsafe(job.nfoMaxBytes), budget: job.batchHeadChars } : null;
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
    for (let t = Atomics.load(taken, 0); sent - t >= job.window; t = Atomics.load(taken, 0)) Atomics.wait(taken, 0, t, 1000);
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
    if (nfo) nfo.budget = job.batchHeadChars;
  };
  const roots: string[] = [];
  for (const root of job.roots) {
    let st: fs.Stats;
    try {
      st = nodeFs.statSync(root);
    } catch {
      continue;
    }
    if (st.isDirectory() && enter(st.dev, st.ino)) roots.push(root);
  }
  for (const root of roots) {
    const stack = [root];
    while (stack.length > 0) {
      const listing = list(nodeFs, stack.pop()!, nfo, readHead);
      batch.push(listing);
      entries += listing.names.length + 1;
      const { names, figures } = listing;
      const subdirs: string[] = [];
      for (let i = 0; i < names.length; i++) {
        if (figures[i * 6] === 2 && enter(figures[i * 6 + 4]!, figures[i * 6 + 5]!)) subdirs.push(`${listing.dir}/${names[i]}`);
      }
      for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
      if (entries >= job.batchEntries || (nfo && nfo.budget <= 0)) send();
    }
  }
  if (batch.length > 0) send();
  post(null);
}

/** Where a scan gets its folders' listings, in the order it walks them. */
export interface FolderLister {
  list(dir: string): FolderListing | Promise<FolderListing>;
  /** The head of a .nfo file its listing left unread (past the budget). */
  nfoHead(path: string): string | null;
  close(): void;
}

/** .nfo heads a listing holds at most (characters), beyond the one that crosses it. */
const HEAD_CHARS = 1 << 20;
const BATCH_ENTRIES = 2000;
const WINDOW_BATCHES = 8;

// One buffer for every .nfo read on this thread: allocating (and zero-filling) 256 KiB per file
// cost more than the whole rest of a scan of a library with many .nfo files.
let nfoBuffer: Buffer | undefined;
const buffer = () => (nfoBuffer ??= Buffer.allocUnsafe(NFO_MAX_BYTES));
const nfoHead = (path: string) => readNfoHead(fs, path, buffer());
const inline = (dir: string, readNfo: boolean) => listFolder(fs, dir, readNfo ? { buffer: buffer(), budget: HEAD_CHARS } : null, readNfoHead);

/** Each folder read when the scan reaches it, on the scan's own thread. */
export function inlineLister(readNfo: boolean): FolderLister {
  return { list: (dir) => inline(dir, readNfo), nfoHead, close() {} };
}

/** The thread that runs `prefetchTree` over `roots`, reading `taken` for how far the scan got. */
function startListingThread(roots: readonly string[], readNfo: boolean, above: ReadonlySet<string>, taken: Int32Array): Worker {
  const job: PrefetchJob = {
    roots: [...roots],
    above: [...above],
    readNfo,
    nfoMaxBytes: NFO_MAX_BYTES,
    batchEntries: BATCH_ENTRIES,
    batchHeadChars: HEAD_CHARS,
    window: WINDOW_BATCHES,
  };
  const source =
    `const { parentPort, workerData } = require('node:worker_threads');\n` +
    // esbuild's keepNames (tsx, vitest) wraps functions in this helper; the bundle does not.
    `const __name = (f) => f;\n` +
    `(${prefetchTree.toString()})(require('node:fs'), ${listFolder.toString()}, ${readNfoHead.toString()}, ` +
    `(b, t) => parentPort.postMessage(b, t ? [t] : []), workerData.job, new Int32Array(workerData.taken));`;
  return new Worker(source, {
    eval: true,
    workerData: { job, taken: taken.buffer },
    // What the thread allocates is a window of batches and its set of folders entered: a small
    // young generation (the default is 16 MB per semi-space) keeps the worker's RSS down.
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  });
}

/** The listings the thread sent, in order, not yet handed to the scan. */
interface ListingQueue {
  /** How many listings have arrived in all. */
  readonly arrived: number;
  add(batch: FolderListing[]): void;
  /** The next listing, or null when none is waiting; a batch wholly taken frees the thread to send another (`taken`). */
  next(): FolderListing | null;
  /** Whether none is waiting. */
  empty(): boolean;
  clear(): void;
}

function listingQueue(taken: Int32Array): ListingQueue {
  const ready: FolderListing[] = [];
  /** How many listings had arrived when each batch not yet wholly taken ended. */
  const batchEnds: number[] = [];
  let arrived = 0;
  let handed = 0;
  let at = 0;
  return {
    get arrived() {
      return arrived;
    },
    add(batch) {
      for (const l of batch) ready.push(l);
      batchEnds.push((arrived += batch.length));
    },
    next() {
      if (at >= ready.length) return null;
      const listing = ready[at]!;
      ready[at++] = undefined as unknown as FolderListing;
      if (at === ready.length) {
        ready.length = 0;
        at = 0;
      }
      handed++;
      let freed = 0;
      while (batchEnds.length > 0 && batchEnds[0]! <= handed) {
        batchEnds.shift();
        freed++;
      }
      if (freed > 0) {
        Atomics.add(taken, 0, freed);
        Atomics.notify(taken, 0);
      }
      return listing;
    },
    empty: () => at >= ready.length,
    clear() {
      ready.length = 0;
      at = 0;
    },
  };
}

/**
 * Listings read ahead on a worker thread while the scan classifies and writes what it has: the
 * syscalls, the largest part of a scan, run beside the rest. The scan must ask for folders in the
 * order `prefetchTree` walks `roots`, entering none of `above` (`foldersAbove`); if it ever asks for
 * another (a root that changed between the two stats, say), or the thread fails, the thread is
 * dropped (`onInline` says why) and every folder from then on is read inline.
 */
export function prefetchingLister(
  roots: readonly string[],
  readNfo: boolean,
  onInline?: (reason: string) => void,
  above: ReadonlySet<string> = new Set(),
): FolderLister {
  const taken = new Int32Array(new SharedArrayBuffer(4));
  let worker: Worker | null = startListingThread(roots, readNfo, above, taken);
  const queue = listingQueue(taken);
  let done = false;
  let failure: Error | null = null;
  let closed = false;
  let wake: (() => void) | null = null;
  worker.on('message', (batch: FolderListing[] | null) => {
    if (batch === null) done = true;
    else queue.add(batch);
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
    queue.clear();
  };
  const fallBack = (reason: string) => {
    if (worker) onInline?.(reason);
    drop();
  };
  /** The folders read inline while the thread started, whose listings from it are dropped. */
  const readInline: string[] = [];
  const take = (dir: string): FolderListing | null => {
    for (let listing = queue.next(); listing; listing = queue.next()) {
      const expected = readInline.shift() ?? dir;
      if (listing.dir !== expected) {
        fallBack(`asked for ${expected}, the thread listed ${listing.dir}`);
        return inline(dir, readNfo);
      }
      if (expected === dir) return listing;
    }
    return null;
  };
  return {
    list(dir) {
      if (!worker) return inline(dir, readNfo);
      const now = take(dir);
      if (now) return now;
      // Until the thread's first batch (it takes tens of milliseconds to start), this thread reads
      // folders itself rather than wait; their listings from the thread are dropped when they come.
      if (queue.arrived === 0 && !done && !failure) {
        readInline.push(dir);
        return inline(dir, readNfo);
      }
      return (async () => {
        for (;;) {
          // Closed while this waited (the scan's time ran out, or it was cancelled): the folder may
          // be on a drive that no longer answers, and nobody waits for it now.
          if (closed) throw new Error('folder lister closed');
          if (!worker) return inline(dir, readNfo);
          if (failure || (done && queue.empty())) {
            fallBack(failure ? `listing thread failed: ${String(failure)}` : `asked for ${dir} after the thread's last folder`);
            return inline(dir, readNfo);
          }
          await new Promise<void>((r) => (wake = r));
          wake = null;
          const next = take(dir);
          if (next) return next;
        }
      })();
    },
    nfoHead,
    close() {
      closed = true;
      drop();
    },
  };
}
