import type { RenamedIdentity } from '../import-tx/organize-journal.ts';

/** A path as lstat finds it now, or null where nothing is there. */
export interface SeenNode {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  isFile: boolean;
  isDir: boolean;
}

const sameNode = (seen: SeenNode | null, id: RenamedIdentity) => seen !== null && seen.dev === id.dev && seen.ino === id.ino;

/**
 * The very file or folder that was renamed: the same inode, and for a file the same size and mtime
 * (a rename keeps both); a folder's own size and mtime change with what is put in it, which leaves
 * it the same folder.
 */
export function unchangedNode(seen: SeenNode | null, id: RenamedIdentity): boolean {
  if (seen === null || !sameNode(seen, id)) return false;
  if (id.dir) return seen.isDir;
  return seen.isFile && seen.size === id.size && Math.abs(seen.mtimeMs - id.mtime_ms) < 1;
}

/** Where one noted rename stands: at its new name, at its old one, or at neither (gone, or replaced). */
export type RenameState = 'renamed' | 'not_renamed' | 'missing';

export function renameState(id: RenamedIdentity, seen: { from: SeenNode | null; to: SeenNode | null }): RenameState {
  // A rename that only changes case on a case-insensitive filesystem finds the one file at both names.
  if (sameNode(seen.to, id) && !sameNode(seen.from, id)) return 'renamed';
  if (sameNode(seen.from, id)) return sameNode(seen.to, id) ? 'renamed' : 'not_renamed';
  return 'missing';
}

/**
 * What recovery does with a group a killed job left unrecorded: `record` when every rename was
 * carried out (the group is finished: it becomes its history item); otherwise the renames carried
 * out are taken back (`back`, last first) and the group left as it was. A file found at neither
 * name is someone else's doing and is left where it is.
 */
export function settleGroup(states: readonly RenameState[]): { action: 'record' } | { action: 'back'; indexes: number[] } {
  if (states.length > 0 && states.every((s) => s === 'renamed')) return { action: 'record' };
  const done = states.flatMap((s, i) => (s === 'renamed' ? [i] : []));
  return { action: 'back', indexes: done.reverse() };
}

export interface RenameUndoFile {
  source: string;
  destination: string;
  id: RenamedIdentity;
}

export type RenameUndoPlan =
  { ok: true; steps: RenameUndoFile[] } | { ok: false; reason: 'destination_changed' | 'source_taken'; path: string; message: string };

/**
 * Taking a rename back, file by file (the video then its sidecars, or the folder), or why not: all
 * or nothing. The renamed file must be the very one renamed (see unchangedNode) and its old name
 * free; one an interrupted undo already took back is no step.
 */
export function planRenameUndo(files: readonly RenameUndoFile[], seen: readonly { source: SeenNode | null; destination: SeenNode | null }[]): RenameUndoPlan {
  const steps: RenameUndoFile[] = [];
  for (const [i, file] of files.entries()) {
    const { source, destination } = seen[i]!;
    const back = unchangedNode(source, file.id);
    if (back && !unchangedNode(destination, file.id)) continue;
    if (!unchangedNode(destination, file.id)) {
      const message = destination === null ? `${file.destination} is gone` : `${file.destination} changed since it was renamed`;
      return { ok: false, reason: 'destination_changed', path: file.destination, message };
    }
    if (source !== null && !back) return { ok: false, reason: 'source_taken', path: file.source, message: `${file.source} is taken by another file` };
    steps.push(file);
  }
  return { ok: true, steps };
}
