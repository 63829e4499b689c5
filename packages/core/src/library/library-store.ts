import type { LibraryIndex } from '@mo/shared';
import type { DataDir } from '../data-dir/data-dir.ts';
import { openFolderStateWriter, openPreviousScan, type FolderStateWriter, type PreviousScan } from './folder-state.ts';
import { indexStamp, openIndex, openIndexWriter, readIndexFile, writeIndexFile, type IndexWriter, type OpenIndex } from './index-store.ts';

/**
 * The library index as the data folder hands it out (`DataStores.index()`): the index file the
 * worker's library scan writes and the API reads, and the per-folder stamps beside it that let a
 * rescan skip unchanged folders.
 */
export interface LibraryStore {
  /** `library-index.ndjson`. */
  readonly file: string;
  /** `library-folders.ndjson`. */
  readonly foldersFile: string;
  /** The whole index, or null before the first library scan. */
  read(): Promise<LibraryIndex | null>;
  /** The index file held open (see `OpenIndex`), or null before the first library scan. */
  open(): Promise<OpenIndex | null>;
  /** Changes whenever the index file is replaced: a reader's cache key. */
  stamp(): Promise<string>;
  /** The whole index at once; a scan streams through `openWriter`. */
  write(index: LibraryIndex): Promise<void>;
  openWriter(): Promise<IndexWriter>;
  /** The previous scan's folders, when they belong to the index in place and to these scan options. */
  previousScan(options: string): Promise<PreviousScan | null>;
  openFolderWriter(): Promise<FolderStateWriter>;
}

export function libraryStore(data: DataDir): LibraryStore {
  const files = { index: data.path('libraryIndex'), folders: data.path('libraryFolders') };
  return {
    file: files.index,
    foldersFile: files.folders,
    read: () => readIndexFile(files.index),
    open: () => openIndex(files.index),
    stamp: () => indexStamp(files.index),
    write: (index) => writeIndexFile(files.index, index),
    openWriter: () => openIndexWriter(files.index),
    previousScan: (options) => openPreviousScan(files, options),
    openFolderWriter: () => openFolderStateWriter(files.folders),
  };
}
