import { statSync, type Stats } from 'node:fs';
import type { IndexItem } from '@mo/shared';
import { classify, titleYearOfFolder, type FolderInfo } from './classify.ts';
import { ENTRY_DIR, ENTRY_ERROR, ENTRY_FILE, FIGURES, type FolderLister, type FolderListing } from './folder-listing.ts';
import type { FolderRecord } from './folder-state.ts';
import type { FolderClaims, LibraryRoot } from './library-roots.ts';
import { parseNfo } from './nfo.ts';
import type { FolderStats, LibraryScanOptions, LibraryScanSink } from './scan-options.ts';

/** How many files between yields to the event loop (job lock renewal, progress, time-out checks). */
const YIELD_EVERY = 2000;

/** A scan under way: what its walks of the library folders share, and what they found so far. */
export interface LibraryWalk {
  readonly opts: LibraryScanOptions;
  readonly sink: LibraryScanSink;
  readonly lister: FolderLister;
  readonly claims: FolderClaims;
  readonly classifyOpts: { videoExtensions: ReadonlySet<string>; subtitleExtensions: ReadonlySet<string> };
  readonly now: () => number;
  readonly started: number;
  skip(path: string, err: unknown): void;
  files: number;
  sinceYield: number;
  truncated: boolean;
  timedOut: boolean;
}

/** A folder waiting on the walk's stack: its path below the library folder, and the library folder's child it lies in. */
export interface PendingFolder {
  dir: string;
  parts: string[];
  folder: string;
  st: FolderStats;
}

/** Whether a folder's entries can have changed since a scan recorded it. */
function unchanged(record: FolderRecord, st: FolderStats): boolean {
  return record.mtime_ms === st.mtimeMs && record.ctime_ms === st.ctimeMs && record.ino === st.ino;
}

/** Whether a folder's files can be taken from the previous scan's record unread: it is unchanged, and they fit under the file limit. */
export function canReuse(record: FolderRecord, st: FolderStats, files: number, maxFiles: number): boolean {
  return unchanged(record, st) && files + record.files <= maxFiles;
}

/** A subfolder of `parent` on the stack: an item's folder is the library folder's child it lies in. */
export function subfolder(parent: PendingFolder, name: string, st: FolderStats): PendingFolder {
  const dir = `${parent.dir}/${name}`;
  return { dir, parts: [...parent.parts, name], folder: parent.parts.length === 0 ? dir : parent.folder, st };
}

const aborted = (opts: LibraryScanOptions) => opts.signal?.reason ?? new Error('library scan aborted');

/**
 * A listing the thread has not sent yet, or null when the scan's time ran out first. A thread
 * stuck on a drive that no longer answers would otherwise hold the job for good, deaf to its
 * cancel; reading that folder here instead would block this thread, and the job's lock with it.
 */
function awaitListing(walk: LibraryWalk, pending: Promise<FolderListing>): Promise<FolderListing | null> {
  const { opts } = walk;
  return new Promise<FolderListing | null>((resolve, reject) => {
    // Whichever comes first clears the others: a listing that never comes must leave no timer
    // (it kept the process alive) nor a listener on the job's signal.
    const settle = (done: () => void) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      done();
    };
    const onAbort = () => settle(() => reject(aborted(opts)));
    const timer = setTimeout(() => settle(() => resolve(null)), Math.max(0, opts.timeoutMs - (walk.now() - walk.started)));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.signal?.aborted) onAbort();
    pending.then(
      (listing) => settle(() => resolve(listing)),
      (err: unknown) => settle(() => reject(err)),
    );
  });
}

/** Lets the event loop run (and says how far the scan got); true when the scan's time is up. */
async function yieldNow(walk: LibraryWalk): Promise<boolean> {
  walk.sinceYield = 0;
  walk.opts.onProgress?.(walk.files);
  await new Promise((r) => setImmediate(r));
  if (walk.opts.signal?.aborted) throw aborted(walk.opts);
  return walk.now() - walk.started > walk.opts.timeoutMs;
}

/** The folders' titles and years, worked out once per folder name within a library folder. */
function folderInfoCache(): (name: string) => FolderInfo {
  const folders = new Map<string, FolderInfo>();
  return (name) => {
    let info = folders.get(name);
    if (!info) folders.set(name, (info = titleYearOfFolder(name)));
    return info;
  };
}

/**
 * An unchanged folder's files, handed on from the previous scan's record; its subfolders (the
 * record's, those still folders) to walk, or null when the scan's time ran out.
 */
async function reuseFolder(walk: LibraryWalk, at: PendingFolder, record: FolderRecord): Promise<PendingFolder[] | null> {
  walk.sink.reuse!(record);
  walk.files += record.files;
  walk.sinceYield += record.files;
  const subdirs: PendingFolder[] = [];
  const names: string[] = [];
  for (const name of record.subdirs) {
    const path = `${at.dir}/${name}`;
    let st: Stats | undefined;
    try {
      st = statSync(path, { throwIfNoEntry: false });
    } catch (err) {
      walk.skip(path, err);
      continue;
    }
    if (!st?.isDirectory()) continue;
    names.push(name);
    // The four figures, not the Stats: a library folder's subfolders wait on the stack, and
    // tens of thousands of Stats objects outlived the young generation for nothing.
    const figures = { mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, dev: st.dev, ino: st.ino };
    if (walk.claims.enter(path, figures)) subdirs.push(subfolder(at, name, figures));
  }
  walk.sink.folder?.(at.dir, at.st, names);
  if (walk.sinceYield >= YIELD_EVERY && (await yieldNow(walk))) {
    walk.timedOut = true;
    return null;
  }
  return subdirs;
}

/** The index item of the listing's `i`th entry, a file. */
function fileItem(
  walk: LibraryWalk,
  root: LibraryRoot,
  at: PendingFolder,
  listing: FolderListing,
  i: number,
  folderInfo: (name: string) => FolderInfo,
): IndexItem {
  const name = listing.names[i]!;
  const path = `${at.dir}/${name}`;
  const figures = listing.figures;
  const head = listing.heads[i];
  const c = classify(root.section, [...at.parts, name], walk.classifyOpts, folderInfo);
  return {
    path,
    drive: root.drive.name,
    section: root.section,
    root: root.root,
    folder: at.folder,
    bytes: figures[i * FIGURES + 1]!,
    mtime_ms: Math.round(figures[i * FIGURES + 2]!),
    // Spelled out: spreading `c` grew each item's property store field by field.
    ext: c.ext,
    type: c.type,
    title: c.title,
    year: c.year,
    season: c.season,
    episodes: c.episodes,
    air_date: c.air_date,
    extra: c.extra,
    nfo: c.type === 'nfo' && walk.opts.readNfo ? parseNfo((head === undefined ? walk.lister.nfoHead(path) : head) ?? '') : null,
  };
}

/**
 * A folder read from disk: each file's item to the sink, in name order. Its subfolders to walk,
 * or null when the scan stops here (the file limit, its time); an unreadable folder has none.
 */
async function readFolder(walk: LibraryWalk, root: LibraryRoot, at: PendingFolder, folderInfo: (name: string) => FolderInfo): Promise<PendingFolder[] | null> {
  // Awaited only when the listing is not there yet: a tick per folder adds up.
  const next = walk.lister.list(at.dir);
  const listing = next instanceof Promise ? await awaitListing(walk, next) : next;
  if (listing === null) {
    walk.timedOut = true;
    return null;
  }
  if (listing.error !== null) {
    walk.skip(at.dir, { code: listing.error });
    return [];
  }
  const { names: entries, figures, errors } = listing;
  const subdirs: PendingFolder[] = [];
  const names: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const name = entries[i]!;
    const kind = figures[i * FIGURES];
    if (kind === ENTRY_ERROR) {
      walk.skip(`${at.dir}/${name}`, { code: errors[i] });
      continue;
    }
    if (kind === ENTRY_DIR) {
      names.push(name);
      const f = i * FIGURES;
      const st = { mtimeMs: figures[f + 2]!, ctimeMs: figures[f + 3]!, dev: figures[f + 4]!, ino: figures[f + 5]! };
      if (walk.claims.enter(`${at.dir}/${name}`, st)) subdirs.push(subfolder(at, name, st));
      continue;
    }
    if (kind !== ENTRY_FILE) continue;
    if (walk.files >= walk.opts.maxFiles) {
      walk.truncated = true;
      return null;
    }
    const item = fileItem(walk, root, at, listing, i, folderInfo);
    walk.files++;
    walk.sink.item(item);
    if (++walk.sinceYield >= YIELD_EVERY && (await yieldNow(walk))) {
      walk.timedOut = true;
      return null;
    }
  }
  walk.sink.folder?.(at.dir, at.st, names);
  return subdirs;
}

/**
 * One library folder, depth first in name order: each folder the sink knows unchanged from the
 * previous scan is taken from its record, every other one read. Stops early at the file limit or
 * the scan's time (`walk.truncated`, `walk.timedOut`).
 */
export async function walkRoot(walk: LibraryWalk, root: LibraryRoot, rootStats: FolderStats): Promise<void> {
  const folderInfo = folderInfoCache();
  const stack: PendingFolder[] = [{ dir: root.root, parts: [], folder: root.root, st: rootStats }];
  while (stack.length > 0) {
    const at = stack.pop()!;
    const record = walk.sink.reuse && walk.sink.known?.(at.dir);
    const subdirs =
      record && canReuse(record, at.st, walk.files, walk.opts.maxFiles) ? await reuseFolder(walk, at, record) : await readFolder(walk, root, at, folderInfo);
    if (subdirs === null) return;
    // Reversed so that the stack pops them in name order: the index comes out sorted.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
  }
}
