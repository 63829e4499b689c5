import { dataDir } from '../data-dir/data-dir.ts';
import { FOLDERS_VERSION, type FolderRecord } from './folder-state.ts';
import type { IndexHeader } from './index-store.ts';
import { libraryStore, type LibraryStore } from './library-store.ts';
import { scanLibraryInto, type LibraryScanOptions } from './scan-library.ts';
import { summaryAccumulator, summaryPartBuilder, type LibrarySummary } from './views.ts';

export interface IndexScanResult {
  header: IndexHeader;
  summary: LibrarySummary;
  /** Folders read from disk, and folders whose files were taken from the previous index unread. */
  folders: { read: number; reused: number };
}

/** What the items were classified with: a previous scan under other options cannot lend its items. */
function optionsKey(opts: LibraryScanOptions): string {
  return JSON.stringify([
    opts.drives.map((d) => [d.name, d.path]),
    opts.movieFolders,
    opts.tvFolders,
    opts.videoExtensions,
    opts.subtitleExtensions,
    opts.readNfo,
  ]);
}

const sameNames = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((name, i) => name === b[i]);

/** `scanIntoIndex` into the index of the data folder `root` (the scanner's service names it by its path). */
export const scanLibraryToIndex = (root: string, opts: LibraryScanOptions): Promise<IndexScanResult> => scanIntoIndex(libraryStore(dataDir(root)), opts);

/**
 * A library scan into the index, streamed: each item goes to the index file and into the summary
 * as it is found, none is held. Folders unchanged since the previous scan (same mtime, ctime and
 * inode) are not read again; their lines are copied from the previous index.
 */
export async function scanIntoIndex(store: LibraryStore, opts: LibraryScanOptions): Promise<IndexScanResult> {
  const options = optionsKey(opts);
  const previous = await store.previousScan(options);
  const writer = await store.openWriter();
  const folderState = await store.openFolderWriter();
  const summary = summaryAccumulator();
  const part = summaryPartBuilder();
  const folders = { read: 0, reused: 0 };
  let mark = 0;
  let count = 0;
  let reused: FolderRecord | undefined;
  try {
    const { files: _, ...header } = await scanLibraryInto(opts, {
      item(item) {
        writer.add(item);
        part.add(item);
        count++;
      },
      known: previous ? (dir) => previous.get(dir) : undefined,
      reuse(record) {
        writer.addLines(previous!.lines(record));
        reused = record;
      },
      folder(dir, st, subdirs) {
        const at = mark;
        mark = writer.position();
        const files = reused ? reused.files : count;
        const sum = reused ? reused.sum : part.take();
        if (reused) folders.reused++;
        else folders.read++;
        summary.add(sum, files);
        const line = reused && sameNames(subdirs, reused.subdirs) ? previous!.line(dir) : undefined;
        if (line !== undefined) folderState.addUnchanged(line, reused!, at);
        else folderState.add({ dir, mtime_ms: st.mtimeMs, ctime_ms: st.ctimeMs, ino: st.ino, at, bytes: mark - at, files, subdirs, sum });
        reused = undefined;
        count = 0;
      },
    });
    // A scan cut short (file limit, time-out) stops inside a folder: its files so far are indexed too.
    summary.add(part.take(), count);
    const { itemsAt } = await writer.finish(header);
    // Without it the next scan reads every folder; the index itself is in place.
    await folderState.finish({ version: FOLDERS_VERSION, index_scanned_at: header.scanned_at, options, items_at: itemsAt }).catch(() => folderState.abort());
    return { header, summary: summary.summary(header), folders };
  } catch (err) {
    await writer.abort();
    await folderState.abort();
    throw err;
  } finally {
    previous?.close();
  }
}
