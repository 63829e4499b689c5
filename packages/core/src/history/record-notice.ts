import type { Notice } from '../notify/requests.ts';
import { withPassLock } from './pass-lock.ts';
import { openHistoryLog } from './history-log.ts';
import type { ImportRecord, Notified } from './history-record.ts';

/**
 * The imports a notice is about: an undo's, by its id; a pass's, by each file it names, the newest
 * import of that download to that path (the history names a pass by its start, a notice by its job).
 */
export function noticeImportIds(records: readonly ImportRecord[], notice: Notice): number[] {
  if (notice.undone !== undefined) return records.some((r) => r.id === notice.undone) ? [notice.undone] : [];
  const ids: number[] = [];
  for (const i of notice.imports) {
    let id: number | undefined;
    for (const r of records) if (r.source === i.source && r.destination === i.destination) id = r.id;
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/**
 * Records in the history what the targets were told of a notice's imports. Under the scanner's
 * lock, the history's one-writer rule: a pass or an undo running meanwhile is waited for.
 */
export async function recordNotice(dataDir: string, notice: Notice, outcome: Omit<Notified, 'event'>): Promise<number> {
  return withPassLock(dataDir, async () => {
    const history = await openHistoryLog(dataDir);
    const ids = noticeImportIds(history.records(), notice);
    if (ids.length > 0) await history.recordNotified(ids, { event: notice.undone === undefined ? 'imported' : 'undone', ...outcome });
    return ids.length;
  });
}
