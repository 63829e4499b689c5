import type { ImportRecord, PlacedFile, ReplacedFile } from './history-record.ts';

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

/**
 * `move_back`: the library file goes back to its download path; `remove`: a link or copy goes, the
 * download stays; `restore`: a file the upgrade replaced comes back from the recycle bin.
 */
export type UndoStep = { action: 'move_back' | 'remove'; file: PlacedFile } | { action: 'restore'; held: ReplacedFile };

/** An upgrade's replaced file now: at its library path, and at its path in the bin. */
export interface SeenHeld {
  original: SeenPath | null;
  bin: SeenPath | null;
}

export type UndoPlan =
  | { ok: true; steps: UndoStep[] }
  | {
      ok: false;
      reason: 'undone' | 'destination_changed' | 'source_taken' | 'download_changed' | 'recycled_changed' | 'original_taken';
      path: string;
      message: string;
    };

/** The files an upgrade replaced, its video first. */
export const replacedFiles = (record: ImportRecord): ReplacedFile[] => (record.replaced ? [record.replaced, ...record.replaced.sidecars] : []);

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
 *
 * An upgrade's replaced files (`held`, as replacedFiles orders them) come back from the recycle bin
 * once the new files are taken back: each must still be in the bin as it went in, and its library
 * path free but for the new file that goes. Their steps come first, so that carried out from the
 * last, the new files go before the old ones return to the paths they free.
 */
export function planUndo(record: ImportRecord, seen: readonly Seen[], held: readonly SeenHeld[] = []): UndoPlan {
  if (record.undone_at !== null)
    return { ok: false, reason: 'undone', path: record.destination, message: `import ${record.id} was undone at ${record.undone_at}` };
  const files = [record, ...record.sidecars];
  const replaced = replacedFiles(record);
  const steps: UndoStep[] = [];
  for (const [i, file] of files.entries()) {
    const { source } = seen[i]!;
    // The replaced file back at the path the new one took: that one was taken back before it.
    const restored = replaced.some((r) => r.path === file.destination && seen[i]!.destination !== null && unchanged(seen[i]!.destination, r.held));
    const destination = restored ? null : seen[i]!.destination;
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
      // The same inode under two names (two links: with one, both paths name one entry, a bind mount)
      // is a move back cut between link and unlink: moving it again finishes it.
      const halfBack = source !== null && source.dev === destination.dev && source.ino === destination.ino && destination.nlink >= 2;
      if (source !== null && !halfBack) return { ok: false, reason: 'source_taken', path: file.source, message: `${file.source} is taken by another file` };
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
  const restores: UndoStep[] = [];
  const freed = new Set(files.map((f) => f.destination));
  for (const [i, r] of replaced.entries()) {
    const { original, bin } = held[i] ?? { original: null, bin: null };
    const back = original !== null && unchanged(original, r.held);
    const inBin = bin !== null && unchanged(bin, r.held);
    // Put back by an undo cut short: done, or its bin name still to go (restore finishes that).
    if (back) {
      if (inBin) restores.push({ action: 'restore', held: r });
      continue;
    }
    if (!inBin)
      return { ok: false, reason: 'recycled_changed', path: r.recycled_to, message: `${r.recycled_to} is no longer in the recycle bin as it went in` };
    if (original !== null && !freed.has(r.path)) return { ok: false, reason: 'original_taken', path: r.path, message: `${r.path} is taken by another file` };
    restores.push({ action: 'restore', held: r });
  }
  return { ok: true, steps: [...restores.reverse(), ...steps] };
}
