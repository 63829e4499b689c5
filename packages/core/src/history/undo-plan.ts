import type { ImportRecord, PlacedFile } from './history-record.ts';

/** A path as it is now: what undo checks against what the import recorded. */
export interface SeenPath {
  dev: number;
  ino: number;
  nlink: number;
  size: number;
  mtimeMs: number;
  isFile: boolean;
}

export interface Seen {
  destination: SeenPath | null;
  source: SeenPath | null;
}

/** `move_back`: the library file goes back to its download path; `remove`: a link or copy goes, the download stays. */
export interface UndoStep {
  action: 'move_back' | 'remove';
  file: PlacedFile;
}

export type UndoPlan =
  | { ok: true; steps: UndoStep[] }
  | { ok: false; reason: 'undone' | 'destination_changed' | 'source_taken' | 'download_changed'; path: string; message: string };

const sameTime = (a: number, b: number) => Math.abs(a - b) < 1;

/** The library file is the very one the import put there: same inode, size and mtime. */
function unchanged(seen: SeenPath, to: PlacedFile['to']): boolean {
  return seen.isFile && seen.dev === to.dev && seen.ino === to.ino && seen.size === to.size && sameTime(seen.mtimeMs, to.mtime_ms);
}

/**
 * What taking an import back does, file by file (the video and each sidecar), or why it may not:
 * all or nothing. A library file that changed since (size, mtime, identity) is refused, so is a
 * download path another file took. In hardlink and copy mode the library file is removed only while
 * the download is still there as imported, so that undo never removes the last copy. A file an
 * interrupted undo already took back (moved back, or removed beside its download) is no step.
 * `seen` holds the video first, then each sidecar in the record's order.
 */
export function planUndo(record: ImportRecord, seen: readonly Seen[]): UndoPlan {
  if (record.undone_at !== null)
    return { ok: false, reason: 'undone', path: record.destination, message: `import ${record.id} was undone at ${record.undone_at}` };
  const files = [record, ...record.sidecars];
  const steps: UndoStep[] = [];
  for (const [i, file] of files.entries()) {
    const { destination, source } = seen[i]!;
    const move = record.mode === 'move';
    if (destination === null) {
      // Taken back by an undo that was cut short: the file is at its download path as imported.
      if (source !== null && source.size === file.to.size && sameTime(source.mtimeMs, file.to.mtime_ms)) continue;
      return { ok: false, reason: 'destination_changed', path: file.destination, message: `${file.destination} is gone` };
    }
    if (!unchanged(destination, file.to)) {
      return { ok: false, reason: 'destination_changed', path: file.destination, message: `${file.destination} changed since it was imported` };
    }
    if (move) {
      if (source !== null) return { ok: false, reason: 'source_taken', path: file.source, message: `${file.source} is taken by another file` };
      steps.push({ action: 'move_back', file });
      continue;
    }
    const kept =
      source !== null &&
      source.isFile &&
      (file.to.dev === file.from.dev && file.to.ino === file.from.ino
        ? source.dev === destination.dev && source.ino === destination.ino
        : source.size === file.from.size && (sameTime(source.mtimeMs, file.from.mtime_ms) || (source.dev === file.from.dev && source.ino === file.from.ino)));
    if (!kept) {
      return {
        ok: false,
        reason: 'download_changed',
        path: file.source,
        message: `${file.source} is no longer the download that was imported: removing ${file.destination} would lose it`,
      };
    }
    steps.push({ action: 'remove', file });
  }
  return { ok: true, steps };
}
