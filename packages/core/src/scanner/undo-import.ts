import { dirname } from 'node:path';
import { isInside } from '../fs/real-path.ts';
import { AppError } from '../errors.ts';
import type { Ownership } from '../fs/ownership.ts';
import { linkOnTheWay } from '../fs/real-folder.ts';
import type { Config } from '@mo/shared';
import { linkConflict, openUndoTx, undoHeldSeen, undoSeen } from '../import-tx/driver.ts';
import { PassBusyError } from '../history/pass-lock.ts';
import type { ImportRecord } from '../history/history-record.ts';
import { planUndo, type UndoStep } from '../history/undo-plan.ts';
import { undoRename } from './organize-undo.ts';
import type { ScanStores } from './scan-stores.ts';

export interface UndoOptions {
  data: ScanStores;
  /** paths.downloads: a file goes back only through real folders below it, no symbolic link on the way. */
  downloads: string;
  /** The drives, whose recycle bins an upgrade's replaced files come back from. */
  drives: Config['drives'];
  id: number;
  dryRun: boolean;
  owner?: Ownership;
  now?: () => number;
  /** How long to wait for a scanner pass to end. */
  lockWaitMs?: number;
}

export interface UndoResult {
  dry_run: boolean;
  id: number;
  /** `from` the library path `to` the download path: moved back, or (a link or copy) removed while the download stays. */
  restored: { from: string; to: string; action: 'moved_back' | 'removed' }[];
  /** An upgrade's replaced files, `from` the recycle bin `to` their library paths. */
  from_recycle_bin: { from: string; to: string }[];
  /** The pass that made the import, for the notice to the media servers. */
  pass: string;
  /** A rename of POST /api/library/organize was taken back: the index still holds the new names. */
  renamed?: true;
}

/**
 * A rename of POST /api/library/organize, made after `record` (an import or an earlier rename) and
 * not taken back, that moved one of its library files (or a folder above one), with that file; or
 * null. Such a file is no longer at the path the record names: a link or copy import would look
 * taken back already (the download is there, the library path empty) and be marked undone with its
 * library file kept; a rename's undo would only find its file gone.
 */
export function renamedSince(record: ImportRecord, records: readonly ImportRecord[]): { rename: ImportRecord; path: string } | null {
  const paths = [record.destination, ...record.sidecars.map((s) => s.destination)];
  for (const r of records) {
    if (r.mode !== 'rename' || r.id <= record.id || r.undone_at !== null) continue;
    const moved = [r, ...r.sidecars];
    const path = paths.find((p) => moved.some((m) => p === m.source || p.startsWith(`${m.source}/`)));
    if (path !== undefined) return { rename: r, path };
  }
  return null;
}

/**
 * The first download path with a symbolic link on its way from the downloads folder (a folder
 * replaced by a link since the import), with that link, or null: a file moved back there would land
 * wherever the link points.
 */
function linkedSource(steps: readonly UndoStep[], downloads: string): { source: string; link: string } | null {
  for (const step of steps) {
    if (step.action !== 'move_back') continue;
    const { file } = step;
    // The downloads folder moved in the settings since the import.
    if (!isInside(file.source, downloads)) return { source: file.source, link: dirname(file.source) };
    const link = linkOnTheWay(downloads, dirname(file.source));
    if (link !== null) return { source: file.source, link };
  }
  return null;
}

/**
 * Takes one import back (see planUndo), under the scanner's lock so that no pass moves files
 * meanwhile. Refused (409, 404) before anything changes; the moves are the import driver's
 * (openUndoTx). Cut short by a kill, it is completed by asking again: a copy back in flight is
 * settled from the copy journal, and what was taken back already counts as done. Recorded in the
 * history once every file is back.
 */
export async function undoImport(opts: UndoOptions): Promise<UndoResult> {
  const now = opts.now ?? Date.now;
  const journals = opts.data.journals();
  return journals
    .locked(
      async () => {
        const history = await opts.data.history().open();
        const tx = openUndoTx({
          journals,
          downloads: opts.downloads,
          history,
          now,
          ...(opts.owner ? { owner: opts.owner } : {}),
          drives: opts.drives,
        });
        // A copy an earlier undo (or pass) was killed in the middle of is settled first, as the next
        // pass would: its temp goes, and a copy already in place has the library file removed, so
        // that asking again finds that file taken back rather than its download path taken.
        if (!opts.dryRun) await tx.recover();
        const record = history.records().find((r) => r.id === opts.id);
        if (!record) throw new AppError('not_found', `no import ${opts.id} in the history`);
        // Before anything else: a file moved by a later rename is no longer where this record says.
        const renamed = record.undone_at === null ? renamedSince(record, history.records()) : null;
        if (renamed !== null) {
          const { rename, path } = renamed;
          const message = `${path} was renamed since (history item ${rename.id}: ${rename.source} to ${rename.destination}): take that rename back first`;
          throw new AppError('conflict', message, { reason: 'destination_changed', path });
        }
        if (record.mode === 'rename') {
          if (record.undone_at !== null)
            throw new AppError('conflict', `rename ${record.id} was undone at ${record.undone_at}`, { reason: 'undone', path: record.destination });
          const restored = await undoRename(record, history, { dryRun: opts.dryRun, now });
          return { dry_run: opts.dryRun, id: record.id, restored, from_recycle_bin: [], pass: record.pass, renamed: true as const };
        }
        // Checked whole before anything moves: refused, nothing changes.
        const plan = planUndo(record, await undoSeen(record), await undoHeldSeen(record));
        if (!plan.ok) throw new AppError('conflict', plan.message, { reason: plan.reason, path: plan.path });
        const linked = linkedSource(plan.steps, opts.downloads);
        if (linked !== null) throw linkConflict(linked.source, linked.link);
        const restored = plan.steps.flatMap((s) =>
          s.action === 'restore'
            ? []
            : [{ from: s.file.destination, to: s.file.source, action: s.action === 'remove' ? ('removed' as const) : ('moved_back' as const) }],
        );
        const from_recycle_bin = plan.steps.flatMap((s) => (s.action === 'restore' ? [{ from: s.held.recycled_to, to: s.held.path }] : []));
        if (opts.dryRun) return { dry_run: true, id: record.id, restored, from_recycle_bin, pass: record.pass };
        await tx.undoOne(record);
        return { dry_run: false, id: record.id, restored, from_recycle_bin, pass: record.pass };
      },
      { waitMs: opts.lockWaitMs ?? 5000 },
    )
    .catch((err: unknown) => {
      if (err instanceof PassBusyError) throw new AppError('conflict', 'a scanner pass is running; try again once it is done');
      throw err;
    });
}
