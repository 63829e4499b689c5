import type { Config, Drive, IndexItem } from '@mo/shared';
import type { FolderLister } from './folder-listing.ts';
import type { FolderRecord } from './folder-state.ts';
import type { IndexHeader } from './index-store.ts';

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
