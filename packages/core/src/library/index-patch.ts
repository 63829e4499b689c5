import { rm } from 'node:fs/promises';
import type { IndexItem } from '@mo/shared';
import { streamItems } from './index-store.ts';
import type { LibraryStore } from './library-store.ts';

/** A rename carried out in the library: a file's, or a movie or series folder's (`folder`). */
export interface IndexRename {
  from: string;
  to: string;
  folder: boolean;
}

/**
 * The index with renamed files and folders under their new paths, everything else as the last scan
 * left it: what a rename changes, without a rescan. Renames apply in the order given, as they were
 * carried out (a folder's files under its old name, then the folder). The per-folder stamps go
 * first: they hold byte offsets into the index, which no longer fit, so the next scan reads every
 * folder once. A rename the index no longer holds (patched already) changes nothing.
 */
export async function renameInIndex(store: LibraryStore, renames: readonly IndexRename[]): Promise<{ patched: number }> {
  if (renames.length === 0) return { patched: 0 };
  const files = new Map<string, string>();
  const folders = new Map<string, string>();
  for (const r of renames) (r.folder ? folders : files).set(r.from, r.to);
  const index = await store.open();
  if (!index) return { patched: 0 };
  let patched = 0;
  try {
    const writer = await store.openWriter();
    try {
      await streamItems(index, (item) => {
        let path = files.get(item.path) ?? item.path;
        const folder = folders.get(item.folder);
        if (folder !== undefined && path.startsWith(`${item.folder}/`)) path = folder + path.slice(item.folder.length);
        if (path === item.path) return writer.add(item);
        patched++;
        const next: IndexItem = { ...item, path, folder: folder ?? item.folder };
        writer.add(next);
      });
    } catch (err) {
      await writer.abort();
      throw err;
    }
    if (patched === 0) {
      await writer.abort();
      return { patched };
    }
    await rm(store.foldersFile, { force: true });
    await writer.finish(index.header);
  } finally {
    await index.handle.close();
  }
  return { patched };
}
