// What one trial of test/faults/kill-upgrade.test.ts carries out, in the killed child (upgrade-child.ts) or, for the
// recovery and the undo asked again, in the test itself: the same driver, the same folders.
import { lstatSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TransferMode } from '@mo/shared';
import { dataDir } from '../../data-dir/data-dir.ts';
import { openHistoryLog } from '../../history/history-log.ts';
import { openImportTx, openUndoTx, type ImportPlan } from '../driver.ts';
import { journalsStore } from '../journals.ts';
import { createLogger } from '../../logging/logger.ts';

/** The child that runs a job and kills itself at a chosen change to the disk (see upgrade-child.ts). */
export const UPGRADE_CHILD = fileURLToPath(new URL('./upgrade-child.ts', import.meta.url));

export interface UpgradeWorld {
  data: string;
  downloads: string;
  drive: string;
  mode: TransferMode;
  /** The library's video and sidecar the download replaces; the new video and sidecar go to their paths. */
  held: { video: string; srt: string };
  dl: { video: string; srt: string };
}

export interface UpgradeJob extends UpgradeWorld {
  job: 'import' | 'recover' | 'undo';
}

const file = (path: string) => {
  const st = lstatSync(path);
  return { path, size: st.size, mtimeMs: st.mtimeMs, dev: st.dev, ino: st.ino };
};

export async function runUpgradeJob(w: UpgradeJob): Promise<void> {
  const history = await openHistoryLog(w.data);
  const journals = journalsStore(dataDir(w.data));
  const drives = [{ name: 'd', path: w.drive }];
  const log = createLogger({ name: 'kill-upgrade', level: 'silent' });
  if (w.job === 'undo') {
    const undo = openUndoTx({ journals, downloads: w.downloads, history, now: Date.now, drives });
    await undo.recover();
    await undo.undoOne(history.records().find((r) => r.id === 1)!);
    return;
  }
  const tx = openImportTx({
    journals,
    mode: w.mode,
    drives,
    owner: { uid: null, gid: null },
    history,
    log,
    record: () => {},
    now: Date.now,
    settled: () => true,
  });
  // Without the pass lock the service takes around these: one process at a time here, and a killed
  // holder's lock would keep the next one waiting for it to go stale.
  if (w.job === 'recover') return tx.recover();
  const plan: ImportPlan = {
    video: file(w.dl.video),
    destination: w.held.video,
    drive: 'd',
    sidecars: [{ file: file(w.dl.srt), destination: w.held.srt }],
    replaces: { video: w.held.video, sidecars: [w.held.srt] },
  };
  const r = await tx.importOne(plan, 'kill-upgrade');
  if (!r.video.ok) throw new Error(r.video.error);
}
