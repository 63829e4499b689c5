import { createRoute } from '@hono/zod-openapi';
import { downloadsResponse, type RecentEntry } from '@mo/shared';
import { downloadsListingStamp, readDownloadsListing, recentUnder, type SavedListing } from '@mo/core/scanner';
import { importedLookup, type ImportRecord } from '@mo/core/history';
import type { AppDeps } from '../http/env.ts';
import { cacheJson, sendJson, type CachedJson } from '../http/cached-json.ts';
import { json, router, NOT_MODIFIED } from '../openapi/route.ts';

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

const getDownloads = createRoute({
  method: 'get',
  path: '/downloads',
  operationId: 'getDownloads',
  summary: 'Files under the downloads folder and recent plans and moves',
  tags: ['scanner'],
  responses: { ...NOT_MODIFIED, 200: json(downloadsResponse) },
});

export function downloadsRoutes({ config }: AppDeps) {
  let memo: { key: string; recent: readonly RecentEntry[]; answer: CachedJson<ReturnType<typeof downloadsAnswer>> } | undefined;
  return router().openapi(getDownloads, async (c) => {
    // A pass that just finished in the worker shows at once, not at the next poll of state.json.
    await config.refresh();
    const cfg = config.current();
    const imports = config.data.history();
    const recent = config.currentState().recent;
    const key = `${cfg.paths.data}|${cfg.paths.downloads}|${await downloadsListingStamp(cfg.paths.data)}|${await imports.stamp()}`;
    if (memo?.key === key && memo.recent === recent) return sendJson(c, memo.answer);
    let listing: SavedListing | null;
    let history: ImportRecord[];
    try {
      [listing, history] = await Promise.all([readDownloadsListing(cfg.paths.data), imports.read()]);
    } catch (err) {
      // Unknown rather than wrong: no files, scanned_at null; the next request reads it again.
      c.get('log').error({ err: (err as Error).message }, 'the downloads listing or the import history could not be read; answering without them');
      return sendJson(c, cacheJson(downloadsAnswer(null, cfg.paths.downloads, recent, [])));
    }
    memo = { key, recent, answer: cacheJson(downloadsAnswer(listing, cfg.paths.downloads, recent, history)) };
    return sendJson(c, memo.answer);
  });
}
