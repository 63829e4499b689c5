import type { Config, JobPayload, ManualImportPayload, State } from '@mo/shared';
import type { Ownership } from '../fs/ownership.ts';
import type { IdentifyCacheStore } from '../identify/identify-cache.ts';
import { createTvmazeIdentifier, type TvmazeIdentifier } from '../identify/tvmaze-identify.ts';
import { scanIntoIndex } from '../library/index-scan.ts';
import { libraryScanOptions } from '../library/scan-library.ts';
import type { Logger } from '../logging/logger.ts';
import type { StateStore } from '../state/state-store.ts';
import { runManualImport, type ManualImportResult, type ManualRunOptions } from './manual-run.ts';
import { checkSources } from './chosen-sources.ts';
import { passFileName } from './pass-file.ts';
import type { PassesStore } from './pass-list.ts';
import { runScanPass } from './run-pass.ts';
import type { ScanStores } from './scan-stores.ts';
import { TemplateError } from './template.ts';

/** What a scan job's run needs of its job: no queue library's types cross this line. */
export interface ScanJobContext {
  jobId: string;
  log: Logger;
  signal?: AbortSignal;
  progress(value: object): Promise<void>;
}

export interface ScanRunServiceDeps {
  config: () => Config;
  state: StateStore<State>;
  /** PUID/PGID, read once at start: who gets the folders an import makes. */
  owner: Ownership;
  /** The history, the import journals and the library index (`DataStores` is one). */
  data: ScanStores;
  /** Each pass's full result (`DataStores.passes()`). */
  passes: PassesStore;
  /** The provider look-ups kept between passes (`DataStores.identifyCache()`). */
  identifyCache: IdentifyCacheStore;
  updateSettings: ManualRunOptions['updateSettings'];
  /** Queues a notify job; absent where the notify queue cannot be reached (tests). */
  notify?: (payload: JobPayload<'notify'>) => Promise<void>;
  /** The queue's error for a job that fails the same way on every retry. */
  unrecoverable: (message: string) => Error;
  /** The error to throw for one a job failed with: a final one (bad input, a conflict) is not retried. */
  final: (err: unknown) => unknown;
}

/**
 * Queues one notify job for what a pass or a manual import placed, where a media server target is
 * on; the job's failures are its own, never the import's.
 */
async function tellServers(deps: ScanRunServiceDeps, cfg: Config, jobId: string, moves: readonly { source: string; destination: string; status: string }[]) {
  const imports = moves.filter((m) => m.status === 'moved').map((m) => ({ source: m.source, destination: m.destination }));
  if (deps.notify && imports.length > 0 && cfg.notifications.targets.some((t) => t.enabled)) await deps.notify({ pass: jobId, imports });
}

/**
 * The worker's side of the scanner: a pass, a manual import and a library scan, each read against the config of the
 * moment it runs, so that a worker handler is one call. A template that cannot name files fails the
 * same way on every retry; so does a conflict (downloads in a library), whose code the API answers with.
 */
export function scanRunService(deps: ScanRunServiceDeps) {
  // One for the process: its cache and its pace with the provider outlive a pass.
  let tvmaze: TvmazeIdentifier | undefined;
  const identifier = () => (tvmaze ??= createTvmazeIdentifier({ cache: deps.identifyCache }));
  const failure = (err: unknown) => (err instanceof TemplateError ? deps.unrecoverable(err.message) : deps.final(err));

  return {
    /**
     * One pass (a preview with `dry_run`, of the chosen downloads alone with `sources`); its full
     * result goes to a pass file, and the job keeps only the summary.
     */
    async pass(ctx: ScanJobContext, payload: JobPayload<'scan-pass'> = { trigger: 'api' }) {
      try {
        // Before the pass, so that an id that cannot name a file fails with nothing moved.
        passFileName(ctx.jobId);
      } catch (err) {
        throw deps.unrecoverable((err as Error).message);
      }
      const cfg = deps.config();
      let result;
      try {
        const sources = payload.sources ? checkSources(cfg.paths.downloads, payload.sources) : undefined;
        result = await runScanPass({
          dryRun: payload.dry_run === true,
          sources,
          config: cfg,
          state: deps.state,
          owner: deps.owner,
          log: ctx.log,
          signal: ctx.signal,
          progress: (value) => void ctx.progress(value).catch(() => {}),
          tvmaze: identifier(),
          data: deps.data,
        });
      } catch (err) {
        throw failure(err);
      }
      const summary = await deps.passes.write(ctx.jobId, result);
      if (!result.dry_run) await tellServers(deps, cfg, ctx.jobId, result.moves);
      return summary;
    },

    /** What the owner said a download is, imported like a pass's import (and so undone like one). */
    async manualImport(payload: ManualImportPayload, ctx: ScanJobContext): Promise<ManualImportResult> {
      const cfg = deps.config();
      let result;
      try {
        result = await runManualImport({
          config: cfg,
          state: deps.state,
          owner: deps.owner,
          log: ctx.log,
          signal: ctx.signal,
          payload,
          jobId: ctx.jobId,
          updateSettings: deps.updateSettings,
          data: deps.data,
        });
      } catch (err) {
        throw failure(err);
      }
      await tellServers(deps, cfg, ctx.jobId, result.moves);
      return result;
    },

    /** Walks the library folders into the cached index the API reads, and records when. */
    async libraryScan(ctx: ScanJobContext) {
      const cfg = deps.config();
      const { header, summary, folders } = await scanIntoIndex(deps.data.index(), {
        ...libraryScanOptions(cfg),
        signal: ctx.signal,
        onProgress: (files) => void ctx.progress({ files }).catch(() => {}),
        onSkip: (path, error) => ctx.log.warn({ path, error }, 'library folder skipped'),
        onInlineListing: (reason) => ctx.log.warn({ reason }, 'library scan reads its folders without the listing thread from here on (slower, same index)'),
      });
      await deps.state.update((s) => ({ ...s, last_library_scan_at: header.scanned_at }));
      ctx.log.info({ ...summary, folders_read: folders.read, folders_unchanged: folders.reused }, 'library index written');
      // The default limit (500,000) is below a large library's size: say which setting stops it.
      if (header.truncated) {
        ctx.log.warn(
          { library_scan_max_files: cfg.app.library_scan_max_files },
          'library scan stopped at library_scan_max_files: the files past it are not in the index; raise the setting to index them',
        );
      }
      return { summary };
    },
  };
}

export type ScanRunService = ReturnType<typeof scanRunService>;
