import { lstat, rmdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isInside } from '../fs/real-path.ts';
import { AppError } from '../errors.ts';
import { fsyncPath } from '../fs/fsync.ts';
import type { Ownership } from '../fs/ownership.ts';
import { LinkOnTheWayError, linkOnTheWay } from '../fs/real-folder.ts';
import { moveFile, throughFolder } from '../fs/transfer.ts';
import { copyJournal } from '../import-tx/driver.ts';
import type { TransferJournal } from '../fs/transfer.ts';
import { openHistoryLog } from '../history/history-log.ts';
import { PassBusyError, withPassLock } from '../history/pass-lock.ts';
import { planUndo, type SeenPath, type UndoStep } from '../history/undo-plan.ts';

export interface UndoOptions {
  dataDir: string;
  /** paths.downloads: a file goes back only through real folders below it, no symbolic link on the way. */
  downloads: string;
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
  /** The pass that made the import, for the notice to the media servers. */
  pass: string;
}

async function seen(path: string): Promise<SeenPath | null> {
  const st = await lstat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
    throw err;
  });
  return st && { dev: st.dev, ino: st.ino, nlink: st.nlink, size: st.size, mtimeMs: st.mtimeMs, isFile: st.isFile() };
}

async function carryOut(step: UndoStep, opts: UndoOptions, journal: TransferJournal): Promise<void> {
  const { file } = step;
  if (step.action === 'remove') {
    // Through its folder held open, as the very file the plan checked: a library folder swapped for
    // a link meanwhile would have the unlink remove another file of the same name.
    await throughFolder(file.destination, file.to, (name) => unlink(name));
    await fsyncPath(dirname(file.destination));
    return;
  }
  // The download's folder may have gone since: moveFile makes it again, as the import made the library's.
  const r = await moveFile(file.destination, file.source, {
    owner: opts.owner,
    expect: { size: file.to.size, mtimeMs: file.to.mtime_ms, dev: file.to.dev, ino: file.to.ino },
    journal,
    within: opts.downloads,
  }).catch((err: unknown) => {
    // A link put on the way since the check below: refused as that check refuses it.
    if (err instanceof LinkOnTheWayError) throw linkConflict(file.source, err.link);
    throw err;
  });
  if (r.status === 'exists') throw new AppError('conflict', `${file.source} is taken by another file`, { path: file.source });
}

const linkConflict = (source: string, link: string) =>
  new AppError('conflict', `${link}, on the way to ${source}, is a symbolic link now; nothing is moved through one`, { reason: 'source_taken', path: source });

/**
 * The first download path with a symbolic link on its way from the downloads folder (a folder
 * replaced by a link since the import), with that link, or null: a file moved back there would land
 * wherever the link points.
 */
function linkedSource(steps: readonly UndoStep[], downloads: string): { source: string; link: string } | null {
  for (const { action, file } of steps) {
    if (action !== 'move_back') continue;
    // The downloads folder moved in the settings since the import.
    if (!isInside(file.source, downloads)) return { source: file.source, link: dirname(file.source) };
    const link = linkOnTheWay(downloads, dirname(file.source));
    if (link !== null) return { source: file.source, link };
  }
  return null;
}

/** Removes the folders the import made, deepest first, while they are empty. */
async function removeEmptyDirs(dirs: readonly string[]): Promise<void> {
  for (const dir of [...dirs].reverse()) {
    try {
      await rmdir(dir);
      await fsyncPath(dirname(dir));
    } catch {
      return;
    }
  }
}

/**
 * Takes one import back (see planUndo), under the scanner's lock so that no pass moves files
 * meanwhile. Refused (409, 404) before anything changes. Cut short by a kill, it is completed by
 * asking again: a copy back in flight is settled from the transfer journal, and what was taken back
 * already counts as done. Recorded in the history once every file is back.
 */
export async function undoImport(opts: UndoOptions): Promise<UndoResult> {
  const now = opts.now ?? Date.now;
  return withPassLock(
    opts.dataDir,
    async () => {
      const journal = copyJournal(opts.dataDir);
      // A copy an earlier undo (or pass) was killed in the middle of is settled first, as the next
      // pass would: its temp goes, and a copy already in place has the library file removed, so
      // that asking again finds that file taken back rather than its download path taken.
      if (!opts.dryRun) await journal.recover();
      const history = await openHistoryLog(opts.dataDir);
      const record = history.records().find((r) => r.id === opts.id);
      if (!record) throw new AppError('not_found', `no import ${opts.id} in the history`);
      const files = [record, ...record.sidecars];
      const plan = planUndo(record, await Promise.all(files.map(async (f) => ({ destination: await seen(f.destination), source: await seen(f.source) }))));
      if (!plan.ok) throw new AppError('conflict', plan.message, { reason: plan.reason, path: plan.path });
      const linked = linkedSource(plan.steps, opts.downloads);
      if (linked !== null) throw linkConflict(linked.source, linked.link);
      const restored = plan.steps.map((s) => ({
        from: s.file.destination,
        to: s.file.source,
        action: s.action === 'remove' ? ('removed' as const) : ('moved_back' as const),
      }));
      if (opts.dryRun) return { dry_run: true, id: record.id, restored, pass: record.pass };
      // Sidecars first: a video back in the downloads without them would be planned alone.
      for (const step of [...plan.steps].reverse()) await carryOut(step, opts, journal);
      await removeEmptyDirs(record.created_dirs);
      await history.recordUndo(record.id, new Date(now()).toISOString());
      return { dry_run: false, id: record.id, restored, pass: record.pass };
    },
    { waitMs: opts.lockWaitMs ?? 5000 },
  ).catch((err: unknown) => {
    if (err instanceof PassBusyError) throw new AppError('conflict', 'a scanner pass is running; try again once it is done');
    throw err;
  });
}
