import { closeSync, openSync, readdirSync, readSync, statSync, type Dirent, type Stats } from 'node:fs';
import type { Config, Drive, IndexItem, LibraryIndex } from '@mo/shared';
import { classify, titleYearOfFolder, type FolderInfo, type Section } from './classify.ts';
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
  /** Injected for tests of the time-out. */
  now?: () => number;
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

const NFO_MAX_BYTES = 256 * 1024;
/** How many files between yields to the event loop (job lock renewal, progress, time-out checks). */
const YIELD_EVERY = 2000;

// One buffer for every .nfo read: allocating (and zero-filling) 256 KiB per file cost more than
// the whole rest of a scan of a library with many .nfo files.
const nfoBuffer = Buffer.allocUnsafe(NFO_MAX_BYTES);

function readHead(path: string): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const n = readSync(fd, nfoBuffer, 0, NFO_MAX_BYTES, 0);
    return nfoBuffer.toString('utf8', 0, n);
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A scan's outcome without its items, and how many it found. */
export type LibraryScanResult = IndexHeader & { files: number };

/** `scanLibraryInto` with every item kept: a whole index in memory (tests, small libraries). */
export async function scanLibrary(opts: LibraryScanOptions): Promise<LibraryIndex> {
  const items: IndexItem[] = [];
  const { files: _, ...header } = await scanLibraryInto(opts, (item) => items.push(item));
  return { ...header, items };
}

/**
 * Walks the library folders of every drive (only the direct children named in the config), handing
 * each file's item to `onItem` as it is found (in path order) rather than holding them: a scan's
 * memory does not grow with the library. Synchronous fs calls in batches: for many small metadata
 * reads they are several times faster than promises, and the batches keep the event loop free
 * often enough. Every directory is entered once by device and inode, so symlink loops end.
 */
export async function scanLibraryInto(opts: LibraryScanOptions, onItem: (item: IndexItem) => void): Promise<LibraryScanResult> {
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

  const skip = (path: string, err: unknown) => {
    const error = (err as NodeJS.ErrnoException).code ?? String(err);
    skipped.push({ path, error });
    opts.onSkip?.(path, error);
  };

  const enter = (st: Stats): boolean => {
    const key = `${st.dev}:${st.ino}`;
    if (visited.has(key)) return false;
    visited.add(key);
    return true;
  };

  async function walkRoot(drive: Drive, root: string, section: Section) {
    const folders = new Map<string, FolderInfo>();
    const folderInfo = (name: string) => {
      let info = folders.get(name);
      if (!info) folders.set(name, (info = titleYearOfFolder(name)));
      return info;
    };
    const stack: { dir: string; parts: string[]; folder: string }[] = [{ dir: root, parts: [], folder: root }];
    while (stack.length > 0) {
      const { dir, parts, folder } = stack.pop()!;
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch (err) {
        skip(dir, err);
        continue;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const subdirs: { dir: string; parts: string[]; folder: string }[] = [];
      for (const e of entries) {
        const path = `${dir}/${e.name}`;
        let st: Stats | undefined;
        try {
          // A dangling symlink or a file gone since readdir: nothing to index.
          st = statSync(path, { throwIfNoEntry: false });
        } catch (err) {
          skip(path, err);
          continue;
        }
        if (!st) continue;
        if (st.isDirectory()) {
          if (enter(st)) subdirs.push({ dir: path, parts: [...parts, e.name], folder: parts.length === 0 ? path : folder });
          continue;
        }
        if (!st.isFile()) continue;
        if (files >= opts.maxFiles) {
          truncated = true;
          return;
        }
        const rel = [...parts, e.name];
        const c = classify(section, rel, classifyOpts, folderInfo);
        files++;
        onItem({
          path,
          drive: drive.name,
          section,
          root,
          folder,
          bytes: st.size,
          mtime_ms: Math.round(st.mtimeMs),
          ...c,
          nfo: c.type === 'nfo' && opts.readNfo ? parseNfo(readHead(path) ?? '') : null,
        });
        if (++sinceYield >= YIELD_EVERY) {
          sinceYield = 0;
          opts.onProgress?.(files);
          await new Promise((r) => setImmediate(r));
          if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('library scan aborted');
          if (now() - started > opts.timeoutMs) {
            timedOut = true;
            return;
          }
        }
      }
      // Reversed so that the stack pops them in name order: the index comes out sorted.
      for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
    }
  }

  outer: for (const drive of opts.drives) {
    let children: Dirent[];
    try {
      children = readdirSync(drive.path, { withFileTypes: true });
    } catch (err) {
      skip(drive.path, err);
      continue;
    }
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) {
      const section: Section | null = opts.movieFolders.includes(child.name)
        ? 'movies'
        : opts.tvFolders.includes(child.name)
          ? 'tv'
          : null;
      if (!section) continue;
      const root = `${drive.path.replace(/\/+$/, '')}/${child.name}`;
      let st: Stats;
      try {
        st = statSync(root);
      } catch (err) {
        skip(root, err);
        continue;
      }
      if (!st.isDirectory() || !enter(st)) continue;
      await walkRoot(drive, root, section);
      if (truncated || timedOut) break outer;
    }
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
