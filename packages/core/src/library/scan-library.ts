import { readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import type { Config, Drive, IndexItem, LibraryIndex } from '@mo/shared';
import { classify, titleYearOfFolder, type FolderInfo, type Section } from './classify.ts';
import { ENTRY_DIR, ENTRY_ERROR, ENTRY_FILE, FIGURES, inlineLister, prefetchingLister, type FolderLister, type FolderListing } from './folder-listing.ts';
import type { FolderRecord } from './folder-state.ts';
import { foldersAbove } from './folders-above.ts';
import type { IndexHeader } from './index-store.ts';
import { parseNfo } from './nfo.ts';

export interface LibraryScanOptions {
  drives: readonly Drive[];
  movieFolders: readonly string[];
  tvFolders: readonly string[];
  videoExtensions: readonly string[];
  subtitleExtensions: readonly string[];
  maxFiles: number;
  timeoutMs: number;
  readNfo: boolean;
  signal?: AbortSignal;
  onProgress?: (files: number) => void;
  onSkip?: (path: string, error: string) => void;
  /** The thread that lists folders ahead of a first scan stopped helping; the scan goes on reading them itself. */
  onInlineListing?: (reason: string) => void;
  /** Injected for tests of the time-out. */
  now?: () => number;
  /** Injected for tests: the lister of a first scan (`prefetchingLister`), one that never answers say. */
  firstScanLister?: (roots: string[], readNfo: boolean, above: ReadonlySet<string>) => FolderLister;
}

/** What a library scan takes from the effective config. */
export function libraryScanOptions(config: Config): LibraryScanOptions {
  return {
    drives: config.drives,
    movieFolders: config.library.movie_folders,
    tvFolders: config.library.tv_folders,
    videoExtensions: config.library.video_extensions,
    subtitleExtensions: config.library.subtitle_extensions,
    maxFiles: config.app.library_scan_max_files,
    timeoutMs: config.app.library_scan_timeout_seconds * 1000,
    readNfo: config.metadata.read_nfo,
  };
}

/** How many files between yields to the event loop (job lock renewal, progress, time-out checks). */
const YIELD_EVERY = 2000;

/** A scan's outcome without its items, and how many it found. */
export type LibraryScanResult = IndexHeader & { files: number };

/** What a scan keeps of a folder's stat: whether it changed, and whether it was entered already. */
export interface FolderStats {
  mtimeMs: number;
  ctimeMs: number;
  dev: number;
  ino: number;
}

/** Where a scan's findings go. */
export interface LibraryScanSink {
  item(item: IndexItem): void;
  /** The previous scan's record of a folder: when its stat figures are unchanged, the folder is not read again. */
  known?(dir: string): FolderRecord | undefined;
  /** Takes the previous scan's files of an unchanged folder in place of reading it. */
  reuse?(record: FolderRecord): void;
  /** After each folder whose own files were all handed on (read or reused), with its subfolders' names. */
  folder?(dir: string, st: FolderStats, subdirs: string[]): void;
}

/** `scanLibraryInto` with every item kept: a whole index in memory (tests, small libraries). */
export async function scanLibrary(opts: LibraryScanOptions): Promise<LibraryIndex> {
  const items: IndexItem[] = [];
  const { files: _, ...header } = await scanLibraryInto(opts, { item: (item) => items.push(item) });
  return { ...header, items };
}

/** Whether a folder's entries can have changed since a scan recorded it. */
function unchanged(record: FolderRecord, st: FolderStats): boolean {
  return record.mtime_ms === st.mtimeMs && record.ctime_ms === st.ctimeMs && record.ino === st.ino;
}

/**
 * Walks the library folders of every drive (only the direct children named in the config), handing
 * each file's item to the sink as it is found (in path order) rather than holding them: a scan's
 * memory does not grow with the library. A folder the sink knows from the previous scan, with the
 * same mtime, ctime and inode, is not read again: its files are the ones that scan found (a file
 * changed in place, which leaves its folder's times alone, keeps its old size and .nfo contents).
 * Synchronous fs calls in batches: for many small metadata reads they are several times faster
 * than promises (through the libuv pool, 2-3x slower at 100,000 stats), and the batches keep the
 * event loop free often enough. A first scan has a thread make those calls ahead of it
 * (`prefetchingLister`). Every directory is entered once by device and inode, so symlink loops end;
 * the library folders are claimed before any is walked, so a link to one is not followed (the
 * folder is walked where it is), and a link to a folder above them is skipped as a loop (ELOOP).
 */
export async function scanLibraryInto(opts: LibraryScanOptions, sink: LibraryScanSink): Promise<LibraryScanResult> {
  const now = opts.now ?? Date.now;
  const started = now();
  const videoExtensions = new Set(opts.videoExtensions);
  const subtitleExtensions = new Set(opts.subtitleExtensions);
  const classifyOpts = { videoExtensions, subtitleExtensions };
  let files = 0;
  const skipped: { path: string; error: string }[] = [];
  const visited = new Set<string>();
  let truncated = false;
  let timedOut = false;
  let sinceYield = 0;

  const aborted = () => opts.signal?.reason ?? new Error('library scan aborted');
  /**
   * A listing the thread has not sent yet, or null when the scan's time ran out first. A thread
   * stuck on a drive that no longer answers would otherwise hold the job for good, deaf to its
   * cancel; reading that folder here instead would block this thread, and the job's lock with it.
   */
  const awaitListing = (pending: Promise<FolderListing>) =>
    new Promise<FolderListing | null>((resolve, reject) => {
      // Whichever comes first clears the others: a listing that never comes must leave no timer
      // (it kept the process alive) nor a listener on the job's signal.
      const settle = (done: () => void) => {
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        done();
      };
      const onAbort = () => settle(() => reject(aborted()));
      const timer = setTimeout(() => settle(() => resolve(null)), Math.max(0, opts.timeoutMs - (now() - started)));
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      if (opts.signal?.aborted) onAbort();
      pending.then(
        (listing) => settle(() => resolve(listing)),
        (err: unknown) => settle(() => reject(err)),
      );
    });

  const skip = (path: string, err: unknown) => {
    const error = (err as NodeJS.ErrnoException).code ?? String(err);
    skipped.push({ path, error });
    opts.onSkip?.(path, error);
  };

  // Filled in once the library folders are known, before any folder is entered.
  let above: ReadonlySet<string> = new Set();
  const enter = (path: string, st: FolderStats): boolean => {
    const key = `${st.dev}:${st.ino}`;
    if (above.has(key)) {
      skip(path, { code: 'ELOOP' });
      return false;
    }
    if (visited.has(key)) return false;
    visited.add(key);
    return true;
  };

  async function walkRoot(drive: Drive, root: string, section: Section, rootStats: FolderStats) {
    const folders = new Map<string, FolderInfo>();
    const folderInfo = (name: string) => {
      let info = folders.get(name);
      if (!info) folders.set(name, (info = titleYearOfFolder(name)));
      return info;
    };
    type Pending = { dir: string; parts: string[]; folder: string; st: FolderStats };
    const stack: Pending[] = [{ dir: root, parts: [], folder: root, st: rootStats }];
    const yieldNow = async () => {
      sinceYield = 0;
      opts.onProgress?.(files);
      await new Promise((r) => setImmediate(r));
      if (opts.signal?.aborted) throw aborted();
      return now() - started > opts.timeoutMs;
    };
    while (stack.length > 0) {
      const { dir, parts, folder, st: dirStats } = stack.pop()!;
      const record = sink.reuse && sink.known?.(dir);
      if (record && unchanged(record, dirStats) && files + record.files <= opts.maxFiles) {
        sink.reuse!(record);
        files += record.files;
        sinceYield += record.files;
        const subdirs: Pending[] = [];
        const names: string[] = [];
        for (const name of record.subdirs) {
          const path = `${dir}/${name}`;
          let st: Stats | undefined;
          try {
            st = statSync(path, { throwIfNoEntry: false });
          } catch (err) {
            skip(path, err);
            continue;
          }
          if (!st?.isDirectory()) continue;
          names.push(name);
          // The four figures, not the Stats: a library folder's subfolders wait on the stack, and
          // tens of thousands of Stats objects outlived the young generation for nothing.
          const figures = { mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, dev: st.dev, ino: st.ino };
          if (enter(path, figures)) subdirs.push({ dir: path, parts: [...parts, name], folder: parts.length === 0 ? path : folder, st: figures });
        }
        sink.folder?.(dir, dirStats, names);
        for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
        if (sinceYield >= YIELD_EVERY && (await yieldNow())) {
          timedOut = true;
          return;
        }
        continue;
      }
      // Awaited only when the listing is not there yet: a tick per folder adds up.
      const next = lister.list(dir);
      const listing = next instanceof Promise ? await awaitListing(next) : next;
      if (listing === null) {
        timedOut = true;
        return;
      }
      if (listing.error !== null) {
        skip(dir, { code: listing.error });
        continue;
      }
      const { names: entries, figures, errors, heads } = listing;
      const subdirs: Pending[] = [];
      const names: string[] = [];
      for (let i = 0; i < entries.length; i++) {
        const name = entries[i]!;
        const path = `${dir}/${name}`;
        const at = i * FIGURES;
        const kind = figures[at];
        if (kind === ENTRY_ERROR) {
          skip(path, { code: errors[i] });
          continue;
        }
        if (kind === ENTRY_DIR) {
          names.push(name);
          const st = { mtimeMs: figures[at + 2]!, ctimeMs: figures[at + 3]!, dev: figures[at + 4]!, ino: figures[at + 5]! };
          if (enter(path, st)) subdirs.push({ dir: path, parts: [...parts, name], folder: parts.length === 0 ? path : folder, st });
          continue;
        }
        if (kind !== ENTRY_FILE) continue;
        if (files >= opts.maxFiles) {
          truncated = true;
          return;
        }
        const rel = [...parts, name];
        const c = classify(section, rel, classifyOpts, folderInfo);
        files++;
        sink.item({
          path,
          drive: drive.name,
          section,
          root,
          folder,
          bytes: figures[at + 1]!,
          mtime_ms: Math.round(figures[at + 2]!),
          // Spelled out: spreading `c` grew each item's property store field by field.
          ext: c.ext,
          type: c.type,
          title: c.title,
          year: c.year,
          season: c.season,
          episodes: c.episodes,
          air_date: c.air_date,
          extra: c.extra,
          nfo: c.type === 'nfo' && opts.readNfo ? parseNfo((heads[i] === undefined ? lister.nfoHead(path) : heads[i]) ?? '') : null,
        });
        if (++sinceYield >= YIELD_EVERY && (await yieldNow())) {
          timedOut = true;
          return;
        }
      }
      sink.folder?.(dir, dirStats, names);
      // Reversed so that the stack pops them in name order: the index comes out sorted.
      for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
    }
  }

  // The library folders to walk, in order (only the drives' children named in the config), and
  // the drives and folders that could not be read, where they come.
  type Root = { drive: Drive; root: string; section: Section };
  const roots: (Root | { unreadable: string; error: unknown })[] = [];
  for (const drive of opts.drives) {
    let children: Dirent[];
    try {
      children = readdirSync(drive.path, { withFileTypes: true });
    } catch (error) {
      roots.push({ unreadable: drive.path, error });
      continue;
    }
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) {
      const section: Section | null = opts.movieFolders.includes(child.name) ? 'movies' : opts.tvFolders.includes(child.name) ? 'tv' : null;
      if (section) roots.push({ drive, root: `${drive.path.replace(/\/+$/, '')}/${child.name}`, section });
    }
  }
  // Each claimed before any is walked: a link in one to another (`Movies/Shows -> ../TV`) is not
  // followed, and the other is walked where it is, in its own section. The listing thread does the same.
  const walks: ((Root & { st: Stats }) | { unreadable: string; error: unknown })[] = [];
  for (const r of roots) {
    if (!('root' in r)) {
      walks.push(r);
      continue;
    }
    let st: Stats;
    try {
      st = statSync(r.root);
    } catch (error) {
      walks.push({ unreadable: r.root, error });
      continue;
    }
    if (st.isDirectory() && enter(r.root, st)) walks.push({ ...r, st });
  }
  above = foldersAbove(walks.flatMap((w) => ('root' in w ? [w.root] : [])));
  // A first scan reads every folder: a thread lists them ahead while this one classifies and
  // writes. A rescan reads few, and decides which from the previous scan's records as it goes.
  const lister = sink.known
    ? inlineLister(opts.readNfo)
    : (opts.firstScanLister ?? ((dirs, readNfo, aboveRoots) => prefetchingLister(dirs, readNfo, opts.onInlineListing, aboveRoots)))(
        roots.flatMap((r) => ('root' in r ? [r.root] : [])),
        opts.readNfo,
        above,
      );
  try {
    for (const w of walks) {
      if (!('root' in w)) {
        skip(w.unreadable, w.error);
        continue;
      }
      await walkRoot(w.drive, w.root, w.section, w.st);
      if (truncated || timedOut) break;
    }
  } finally {
    lister.close();
  }
  opts.onProgress?.(files);
  return {
    version: 1,
    scanned_at: new Date(started).toISOString(),
    duration_ms: now() - started,
    truncated,
    timed_out: timedOut,
    skipped,
    drives: opts.drives.map((d) => ({ name: d.name, path: d.path })),
    files,
  };
}
