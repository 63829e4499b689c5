import { historyItem, type ImportRecord } from './history-record.ts';

export const HISTORY_PAGE_DEFAULT = 50;
export const HISTORY_PAGE_MAX = 500;

export interface HistoryQuery {
  limit: number;
  /** Only imports older than this id (the `next` of the page before). */
  before: number | null;
  /** Only imports of this download: the video's path or a sidecar's. */
  source: string | null;
  /** Only imports to this library path: the video's or a sidecar's. */
  destination: string | null;
}

/** One page of the history, newest first; `next` is the `before` of the following page, null on the last. */
export function historyPage(records: readonly ImportRecord[], q: HistoryQuery) {
  const items: ImportRecord[] = [];
  let more = false;
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!;
    if (q.before !== null && r.id >= q.before) continue;
    const files = [r, ...r.sidecars];
    if (q.source !== null && !files.some((f) => f.source === q.source)) continue;
    if (q.destination !== null && !files.some((f) => f.destination === q.destination)) continue;
    if (items.length === q.limit) {
      more = true;
      break;
    }
    items.push(r);
  }
  return { items: items.map(historyItem), next: more ? items[items.length - 1]!.id : null };
}
