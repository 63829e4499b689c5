import { relative } from 'node:path';
import { aliasSchema, type Alias, type Config, type JobResult, type ManualImportPayload } from '@mo/shared';
import { AppError } from '../errors.ts';
import { checkManualRequest, downloadSeriesName, nothingImported, resolveManualTarget, seriesFolderOf, withAliases } from './manual-import.ts';
import { runScanPass, type ScanPassOptions } from './run-pass.ts';
import { scanStores, type ScanStores } from './scan-stores.ts';
import { libraryFoldersOf } from './downloads-in-library.ts';

export type ManualImportResult = JobResult<'manual-import'>;

export interface ManualRunOptions extends Omit<ScanPassOptions, 'manual' | 'pass'> {
  payload: ManualImportPayload;
  /** The job's id: its imports are recorded under it, so that a delivery again knows its own. */
  jobId: string;
  /** Saves settings the way POST /api/settings does; given the config as saved at that moment. */
  updateSettings(patch: (saved: Config) => { library: { aliases: Alias[] } }): Promise<unknown>;
}

/** The aliases `remember` asks for: each episode's series name as the download gives it, and the folder it went into. */
function aliasesOf(result: Pick<ManualImportResult, 'moves'>, cfg: Config): Alias[] {
  const out = new Map<string, Alias>();
  for (const m of result.moves) {
    if (m.status !== 'moved' || m.kind !== 'episode') continue;
    const name = downloadSeriesName(relative(cfg.paths.downloads, m.source));
    const series = seriesFolderOf(m.destination, cfg.drives, cfg.library.tv_folders);
    // A file name is anyone's text: one no alias may hold (control or bidi characters) is not
    // remembered, rather than failing the import it follows.
    const alias = aliasSchema.safeParse({ name, series });
    if (alias.success) out.set(`${alias.data.name}\0${alias.data.series}`, alias.data);
  }
  return [...out.values()];
}

/**
 * A manual-import job: the path checked again (it may have gone or been swapped for a link since
 * the API looked), then a pass of just its videos under the pass lock, with the journals, history
 * and transfer mode of any pass, so that it is undone like any import. Nothing to import is a
 * failure with why (409, or 400 where the title fits several folders).
 */
export async function runManualImport(opts: ManualRunOptions): Promise<ManualImportResult> {
  const cfg = opts.config;
  if (cfg.app.dry_run) throw new AppError('conflict', 'dry_run is on: nothing was imported; a preview is POST /api/imports/manual?dry_run=true');
  let target;
  try {
    target = await resolveManualTarget(
      cfg.paths.downloads,
      opts.payload.path,
      libraryFoldersOf(cfg.drives, [...cfg.library.movie_folders, ...cfg.library.tv_folders]),
    );
  } catch (err) {
    // A job delivered again after it imported (move mode): the history holds it, and that is its result.
    // An import by anything else (a pass, another job) is not this job's: the owner's word was not done.
    if (
      err instanceof AppError &&
      err.code === 'not_found' &&
      (await importedFrom(opts.data ?? scanStores(cfg.paths.data), opts.payload.path, manualPass(opts.jobId)))
    ) {
      const at = new Date().toISOString();
      return { dry_run: false, started_at: at, finished_at: at, plans: [], moves: [], skipped: [], remembered: [] };
    }
    throw err;
  }
  checkManualRequest(target, opts.payload.as, cfg.library.video_extensions);
  const result = await runScanPass({ ...opts, manual: { target, as: opts.payload.as, replace: opts.payload.replace === true }, pass: manualPass(opts.jobId) });
  const refusal = nothingImported(result.plans, result.skipped, cfg.library.video_extensions);
  if (refusal) throw refusal;
  let remembered: Alias[] = [];
  if (opts.payload.remember) {
    const wanted = aliasesOf(result, cfg);
    if (wanted.length > 0) {
      await opts.updateSettings((saved) => {
        const next = withAliases(saved.library.aliases, wanted);
        remembered = next.added;
        return { library: { aliases: next.aliases } };
      });
    }
  }
  return { ...result, remembered };
}

/** The history's name for a manual import's imports: the job that made them. */
export const manualPass = (jobId: string) => `manual-import:${jobId}`;

async function importedFrom(data: ScanStores, path: string, pass: string): Promise<boolean> {
  const records = await data.history().read();
  return records.some((r) => r.pass === pass && r.undone_at === null && (r.source === path || r.source.startsWith(`${path.replace(/\/+$/, '')}/`)));
}
