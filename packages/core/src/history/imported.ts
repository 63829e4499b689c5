import type { ImportRecord } from './history-record.ts';

/** A download as the walk or the listing saw it; `dev`/`ino` where known. */
export interface SeenFile {
  path: string;
  size: number;
  mtimeMs: number;
  dev?: number;
  ino?: number;
}

/**
 * Finds the import a download still in the downloads folder came from, so that a pass in
 * hardlink or copy mode does not import it again: an import not undone, in a mode that leaves
 * the download (a moved file back at its path came back some other way), of this path, with this
 * size, and either this mtime or this inode (a client that touches a seeding file keeps its inode).
 * Sidecars count as their import's files. The newest import wins.
 */
export function importedLookup(records: readonly ImportRecord[]): (file: SeenFile) => ImportRecord | null {
  return lookup(records.filter((r) => r.undone_at === null && r.mode !== 'move'));
}

/**
 * Finds the undone import a download is the very file of (the same path and size, and the mtime or
 * inode the import recorded: an undo puts it back as it was), so that a pass does not import again,
 * seconds later, what the owner just took back. Changed or renamed, it is a new download.
 */
export function undoneLookup(records: readonly ImportRecord[]): (file: SeenFile) => ImportRecord | null {
  return lookup(records.filter((r) => r.undone_at !== null));
}

function lookup(records: readonly ImportRecord[]): (file: SeenFile) => ImportRecord | null {
  const byPath = new Map<string, { record: ImportRecord; from: ImportRecord['from'] }[]>();
  for (const record of records) {
    for (const f of [record, ...record.sidecars]) {
      const list = byPath.get(f.source) ?? [];
      list.unshift({ record, from: f.from });
      byPath.set(f.source, list);
    }
  }
  return (file) => {
    for (const { record, from } of byPath.get(file.path) ?? []) {
      if (from.size !== file.size) continue;
      const sameTime = Math.abs(from.mtime_ms - file.mtimeMs) < 1;
      const sameInode = file.dev !== undefined && file.ino !== undefined && from.dev === file.dev && from.ino === file.ino;
      if (sameTime || sameInode) return record;
    }
    return null;
  };
}
