import { rename } from 'node:fs/promises';
import { AppError } from '../errors.ts';
import type { HistoryLog } from '../history/history-log.ts';
import type { ImportRecord, PlacedFile } from '../history/history-record.ts';
import { seenNode } from './organize-apply.ts';
import { planRenameUndo, type RenameUndoFile } from './organize-settle.ts';

const fileOf = (f: PlacedFile, dir: boolean): RenameUndoFile => ({ source: f.source, destination: f.destination, id: { ...f.to, dir } });

/**
 * Takes a rename of POST /api/library/organize back: each file (or the folder) to its old name,
 * last first. Refused (409) before anything changes when a renamed file changed since or an old
 * name is taken (see planRenameUndo). Cut short by a kill, asking again finishes it: what is back
 * already counts as done. Run holding the scanner's pass lock. The index keeps the new names until
 * the next library scan.
 */
export async function undoRename(record: ImportRecord, history: HistoryLog, opts: { dryRun: boolean; now: () => number }) {
  // A folder's record keeps no size or mtime (0): that is how it is told from a file's.
  const folder = record.from.size === 0 && record.from.mtime_ms === 0 && record.sidecars.length === 0;
  const dir = folder && ((await seenNode(record.destination))?.isDir === true || (await seenNode(record.source))?.isDir === true);
  const files = [fileOf(record, dir), ...record.sidecars.map((s) => fileOf(s, false))];
  const seen = await Promise.all(files.map(async (f) => ({ source: await seenNode(f.source), destination: await seenNode(f.destination) })));
  const plan = planRenameUndo(files, seen);
  if (!plan.ok) throw new AppError('conflict', plan.message, { reason: plan.reason, path: plan.path });
  const restored = plan.steps.map((s) => ({ from: s.destination, to: s.source, action: 'moved_back' as const }));
  if (opts.dryRun) return restored;
  for (const step of [...plan.steps].reverse()) {
    // Checked again right before: a rename never lands on a file another process just put there.
    const taken = await seenNode(step.source);
    if (taken !== null && !(taken.dev === step.id.dev && taken.ino === step.id.ino)) {
      throw new AppError('conflict', `${step.source} is taken by another file`, { reason: 'source_taken', path: step.source });
    }
    await rename(step.destination, step.source);
  }
  await history.recordUndo(record.id, new Date(opts.now()).toISOString());
  return restored;
}
