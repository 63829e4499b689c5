import type { Config, JobPayload } from '@mo/shared';
import type { Ownership } from '../fs/ownership.ts';
import type { Logger } from '../logging/logger.ts';
import { historyPage, type HistoryQuery } from '../history/history-page.ts';
import { undoImport } from './undo-import.ts';
import type { ScanStores } from './scan-stores.ts';

export interface UndoServiceDeps {
  config: () => Config;
  /** The data folder's stores, asked for when used: declaring the routes (the OpenAPI document) touches none. */
  data: () => ScanStores;
  owner?: Ownership;
  /** Queues the notice to the media servers; never throws: the files are back whatever happens there. */
  notify: (payload: JobPayload<'notify'>, log: Logger) => Promise<void>;
  /** Queues a library scan, so that the index follows a rename taken back; never throws. */
  rescan?: (log: Logger) => Promise<void>;
}

/** The import history and taking an import back, for the API's history routes. */
export function undoService(deps: UndoServiceDeps) {
  return {
    async list(query: HistoryQuery) {
      return historyPage(await deps.data().history().read(), query);
    },

    /** Takes import `id` back (see undoImport); once files are back, the enabled media servers are told. */
    async undo(id: number, log: Logger) {
      const cfg = deps.config();
      const { pass, renamed, ...result } = await undoImport({
        data: deps.data(),
        downloads: cfg.paths.downloads,
        drives: cfg.drives,
        id,
        dryRun: cfg.app.dry_run,
        ...(deps.owner ? { owner: deps.owner } : {}),
      });
      if (!result.dry_run && result.restored.length > 0 && deps.config().notifications.targets.some((t) => t.enabled)) {
        await deps.notify({ pass, undone: result.id, imports: result.restored.map((r) => ({ source: r.to, destination: r.from })) }, log);
      }
      if (renamed && !result.dry_run && result.restored.length > 0) await deps.rescan?.(log);
      return result;
    },
  };
}
