import type { z } from 'zod';
import type { Alias, aliasRemoveBody, Config, ErrorCode, JobPayload, JobState, manualImportBody } from '@mo/shared';
import { AppError } from '../errors.ts';
import type { HistoryStore } from '../history/history-log.ts';
import type { Logger } from '../logging/logger.ts';
import { checkSources } from './chosen-sources.ts';
import { fileType } from './download-rules.ts';
import { libraryFoldersOf } from './downloads-in-library.ts';
import { checkManualRequest, nothingImported, resolveManualTarget } from './manual-import.ts';
import type { PassesStore } from './pass-list.ts';
import { readPendingImports } from './pending-imports.ts';
import { planDownloads } from './run-pass.ts';

export type ScanJobName = 'scan-pass' | 'library-scan' | 'manual-import';

export type ScanJobOutcome =
  | { kind: 'completed'; job: { id: string; queue: string; state: JobState }; result: unknown }
  /** `code`: the AppError code the handler failed with, when a retry would not have fixed it. */
  | { kind: 'failed'; job: { id: string; queue: string; state: JobState }; error: string; code: ErrorCode | null }
  | { kind: 'pending'; job: { id: string; queue: string; state: JobState } };

/** The scan queue as the service needs it: no queue library's types cross this line. */
export interface ScanJobs {
  /** Adds a job (or joins the one waiting or running, for a pass) and waits up to `waitSeconds` for it. */
  submit<N extends ScanJobName>(name: N, payload: JobPayload<N>, opts: { waitSeconds: number }): Promise<ScanJobOutcome>;
}

export interface ScannerServiceDeps {
  config: () => Config;
  /**
   * `DataStores.passes()`: each pass's full result. Asked for when used, so that declaring the routes
   * (the OpenAPI document, built without a data folder) touches no store.
   */
  passes: () => PassesStore;
  /** `DataStores.history()`: what was imported, so that it is not imported again. */
  history: () => HistoryStore;
  jobs: ScanJobs;
  /** Re-reads the cached library index, so that a client that waited for a library scan sees it in its next request. */
  refreshLibrary: () => Promise<void>;
  /** Saves settings under the settings lock, given the config as saved at that moment. */
  updateSettings(patch: (saved: Config) => { library: { aliases: Alias[] } }): Promise<Config>;
}

/**
 * What the scanner does for the API's routes: passes, the library scan, manual imports and the
 * aliases they remember, over ports, so that a route is its schema and one call.
 */
export function scannerService(deps: ScannerServiceDeps) {
  return {
    /**
     * One pass; a finished one's result read back whole from its pass file (Redis keeps only the
     * summary). `dryRun`: a preview whatever the config says; `sources`: those downloads alone,
     * checked here so that a refusal answers at once (the worker checks again).
     */
    async pass(wait: number, opts: { dryRun?: boolean; sources?: string[] } = {}): Promise<ScanJobOutcome> {
      if (opts.sources) checkSources(deps.config().paths.downloads, opts.sources);
      const payload = { trigger: 'api' as const, ...(opts.dryRun ? { dry_run: true as const } : {}), ...(opts.sources ? { sources: opts.sources } : {}) };
      const outcome = await deps.jobs.submit('scan-pass', payload, { waitSeconds: wait });
      if (outcome.kind !== 'completed') return outcome;
      return { ...outcome, result: await deps.passes().full(outcome.job.id, outcome.result) };
    },

    /** From the pass files alone: it answers while Redis is down, and for passes Redis no longer keeps. */
    recentPasses(limit: number) {
      return deps.passes().recent(limit);
    },

    async libraryScan(wait: number): Promise<ScanJobOutcome> {
      const outcome = await deps.jobs.submit('library-scan', { trigger: 'api' }, { waitSeconds: wait });
      if (outcome.kind === 'completed') await deps.refreshLibrary();
      return outcome;
    },

    pendingImports() {
      return readPendingImports(deps.config(), { passes: deps.passes(), history: deps.history() });
    },

    /**
     * The owner's word on a download, checked and planned here so that a refusal answers at once;
     * a preview when `dryRun` or the config's dry_run says so, otherwise a manual-import job.
     */
    async manualImport(req: z.infer<typeof manualImportBody>, opts: { dryRun: boolean; wait: number; log: Logger }) {
      const cfg = deps.config();
      if (req.remember && req.as.kind !== 'episode')
        throw new AppError('bad_request', "remember: only an episode's series name can be remembered", { key: 'remember' });
      const target = await resolveManualTarget(
        cfg.paths.downloads,
        req.path,
        libraryFoldersOf(cfg.drives, [...cfg.library.movie_folders, ...cfg.library.tv_folders]),
      );
      checkManualRequest(target, req.as, cfg.library.video_extensions);
      const planned = await planDownloads(cfg, {
        log: opts.log,
        nowMs: Date.now(),
        records: await deps.history().read(),
        manual: { target, as: req.as, replace: req.replace },
      });
      const refusal = nothingImported(planned.plans, planned.skipped, cfg.library.video_extensions);
      if (refusal) throw refusal;
      // Replace asked for, and a video of a pack whose held file cannot be replaced (it holds other
      // episodes too, or several files hold it): importing the rest would ignore the request.
      const types = { videoExtensions: new Set(cfg.library.video_extensions), subtitleExtensions: new Set<string>() };
      const held = planned.skipped.find((k) => k.reason === 'exists' && fileType(k.source, types) === 'video');
      if (req.replace && held) {
        throw new AppError('conflict', `${held.source} cannot replace the library's file of it${held.detail ? ` (${held.detail})` : ''}`, {
          reason: 'exists',
          path: held.source,
          ...(held.detail ? { detail: held.detail } : {}),
        });
      }
      const plans = planned.plans.map((p) => p.plan);
      if (opts.dryRun || cfg.app.dry_run) {
        const preview = target.folder
          ? { dry_run: true as const, plans, skipped: planned.skipped }
          : { dry_run: true as const, plan: plans[0]!, skipped: planned.skipped };
        return { kind: 'preview' as const, preview };
      }
      const payload = { path: req.path, as: req.as, remember: req.remember, ...(req.replace ? { replace: true } : {}) };
      return await deps.jobs.submit('manual-import', payload, { waitSeconds: opts.wait });
    },

    /** Under the settings lock: an alias a manual import remembered meanwhile stays. Returns the aliases left. */
    async removeAlias(gone: z.infer<typeof aliasRemoveBody>): Promise<Alias[]> {
      const same = (a: Alias) => a.name.toLowerCase() === gone.name.toLowerCase() && a.series === gone.series;
      let found = false;
      const saved = await deps.updateSettings((now) => {
        found = now.library.aliases.some(same);
        return { library: { aliases: now.library.aliases.filter((a) => !same(a)) } };
      });
      if (!found) throw new AppError('not_found', `no alias "${gone.name}" for ${gone.series}`, { key: 'name' });
      return saved.library.aliases;
    },
  };
}

export type ScannerService = ReturnType<typeof scannerService>;
