import type { Config, RecentEntry } from '@mo/shared';
import type { HistoryStore } from '../history/history-log.ts';
import type { ImportRecord } from '../history/history-record.ts';
import { importedLookup } from '../history/imported.ts';
import type { Logger } from '../logging/logger.ts';
import type { DownloadsListingStore, SavedListing } from './downloads-cache.ts';
import { recentUnder } from './downloads-listing.ts';

/**
 * GET /api/downloads from what the last walk of the folder saw (`scanned_at`: a pass's, or the
 * worker's refresh of the listing alone), minus the files a pass has moved since: the downloads
 * folder itself is never walked here, so a request costs a stat and, when nothing changed, writing
 * out bytes built once. Before the first walk of this downloads folder: no files, `scanned_at` null.
 */
export function downloadsAnswer(listing: SavedListing | null, downloads: string, recent: readonly RecentEntry[], history: readonly ImportRecord[]) {
  const ours = listing !== null && listing.root.replace(/\/+$/, '') === downloads.replace(/\/+$/, '') ? listing : null;
  const entries = recentUnder(downloads, recent);
  const movedSince = new Set(entries.filter((e) => e.type === 'move' && e.status === 'moved' && ours && e.at >= ours.scanned_at).map((e) => e.source));
  const imported = importedLookup(history);
  const importOf = (f: SavedListing['files'][number]) => {
    const r = imported({ path: f.path, size: f.bytes, mtimeMs: Date.parse(f.modified_at) });
    return r && { id: r.id, destination: r.source === f.path ? r.destination : r.sidecars.find((s) => s.source === f.path)!.destination, at: r.at };
  };
  return {
    // A download linked or copied (hardlink, copy mode) is still there, though a move names it.
    files: ours ? ours.files.map((f) => ({ ...f, imported: importOf(f) })).filter((f) => f.imported !== null || !movedSince.has(f.path)) : [],
    scanned_at: ours?.scanned_at ?? null,
    truncated: ours?.truncated ?? false,
    recent: entries,
  };
}

export type DownloadsAnswer = ReturnType<typeof downloadsAnswer>;

export interface DownloadsViewDeps {
  config: () => Config;
  /** `DataStores.downloadsListing()`, asked for when used: declaring the route (the OpenAPI document) touches no store. */
  listing: () => DownloadsListingStore;
  /** `DataStores.history()`, likewise. */
  history: () => HistoryStore;
  /** The recent plans and moves as this process last read them from the state. */
  recent: () => readonly RecentEntry[];
  /** Re-reads the state, so that a pass that just finished in the worker shows at once. */
  refresh: () => Promise<void>;
}

/**
 * The downloads answer, encoded once by `encode` (the API's cached JSON bytes) and kept while the
 * listing, the history and the recent entries stay as they were.
 */
export function downloadsView<T>(deps: DownloadsViewDeps, encode: (answer: DownloadsAnswer) => T) {
  let memo: { key: string; recent: readonly RecentEntry[]; encoded: T } | undefined;
  return async (log: Logger): Promise<T> => {
    await deps.refresh();
    const cfg = deps.config();
    const recent = deps.recent();
    const key = `${cfg.paths.downloads}|${await deps.listing().stamp()}|${await deps.history().stamp()}`;
    if (memo?.key === key && memo.recent === recent) return memo.encoded;
    let listing: SavedListing | null;
    let history: ImportRecord[];
    try {
      [listing, history] = await Promise.all([deps.listing().read(), deps.history().read()]);
    } catch (err) {
      // Unknown rather than wrong: no files, scanned_at null; the next request reads it again.
      log.error({ err: (err as Error).message }, 'the downloads listing or the import history could not be read; answering without them');
      return encode(downloadsAnswer(null, cfg.paths.downloads, recent, []));
    }
    memo = { key, recent, encoded: encode(downloadsAnswer(listing, cfg.paths.downloads, recent, history)) };
    return memo.encoded;
  };
}
