import { lstatSync, readdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { z } from 'zod';
import type { Config, moveSchema, RecentEntry, scanResultSchema, State, TransferMode } from '@mo/shared';
import { alreadyPlaced } from '../fs/transfer.ts';
import type { ImportRecord } from '../history/history-record.ts';
import { importedLookup, undoneLookup } from '../history/imported.ts';
import { openImportTx, type ImportTx, type RecordMove } from '../import-tx/driver.ts';
import type { Ownership } from '../fs/ownership.ts';
import { linkOnTheWay } from '../fs/real-folder.ts';
import { readLibraryIndex } from '../library/index-store.ts';
import type { Logger } from '../logging/logger.ts';
import type { StateStore } from '../state/state-store.ts';
import { surveyDrives } from './drive-survey.ts';
import { downloadsInLibraryError, libraryFolderHolding, libraryFoldersOf } from './downloads-in-library.ts';
import { isSettled } from './download-rules.ts';
import { buildFolderLookup, foldersOfIndex } from './folder-lookup.ts';
import { planPass, type DestinationState, type DownloadFile, type PlannedMove, type Skipped } from './plan-pass.ts';
import { aliasTable } from './aliases.ts';
import { createIdentifyBudget, seriesIdentifierFor } from '../identify/identify.ts';
import type { TvmazeIdentifier } from '../identify/tvmaze-identify.ts';
import { createAnswerBook } from './provider-answers.ts';
import { manualChoice, type ManualImport } from './manual-import.ts';
import { mergeRecent } from './recent.ts';
import { saveDownloadsListing } from './downloads-cache.ts';
import { walkDownloads } from './walk-downloads.ts';
import { heldProbes, type ProbeFn } from './held-probes.ts';
import { probeFile } from '../media/run.ts';
import { scanStores, type ScanStores } from './scan-stores.ts';

export type ScanResult = z.infer<typeof scanResultSchema>;
export type Move = z.infer<typeof moveSchema>;

export interface ScanPassOptions {
  config: Config;
  state: StateStore<State>;
  owner: Ownership;
  log: Logger;
  signal?: AbortSignal;
  progress?: (value: { moved: number; planned: number }) => void;
  now?: () => number;
  /** A manual import: only its videos, as the owner said they are; the last pass's listing and time stay. */
  manual?: ManualImport;
  /** The process's TVmaze identifier (its cache and rate limit), used where `[metadata] identify` names it. */
  tvmaze?: TvmazeIdentifier;
  /** What the history names this pass's imports by; absent: the time it started. */
  pass?: string;
  /** The data folder's stores (the runtime config's DataStores); absent: those of `config.paths.data`. */
  data?: ScanStores;
  /** A preview, whatever `app.dry_run` says. */
  dryRun?: boolean;
  /** Only these downloads (checked by checkSources): the files of a preview the owner confirmed. */
  sources?: ReadonlySet<string>;
}

/** Rounds of asking the provider: the series first, then its episode list for absolute numbers. */
const PROVIDER_ROUNDS = 3;

/** How often a long pass saves the moves done so far, so that a killed worker's moves are not forgotten. */
const FLUSH_EVERY_MS = 1000;

interface FolderListing {
  files: string[];
  folders: string[];
  /** Every name, lower-cased. */
  lower: Set<string>;
}

/** What a library folder holds, sorted, read once per pass (the plan is made before anything moves); nothing where it cannot be read. */
function folderListings(): (dir: string) => FolderListing {
  const seen = new Map<string, FolderListing>();
  return (dir) => {
    let listing = seen.get(dir);
    if (!listing) {
      listing = { files: [], folders: [], lower: new Set() };
      try {
        for (const e of readdirSync(dir, { withFileTypes: true })) {
          (e.isDirectory() ? listing.folders : listing.files).push(e.name);
          listing.lower.add(e.name.toLowerCase());
        }
      } catch {
        // Not there yet, or not a folder: the destination's own check says which.
      }
      listing.files.sort();
      listing.folders.sort();
      seen.set(dir, listing);
    }
    return listing;
  };
}

/**
 * A name that differs from the destination only in case is taken: the same episode or movie under
 * the download's spelling (`breaking bad - S01E06.mkv` beside `Breaking Bad - S01E06.mkv`), and one
 * file on SMB, exFAT or a Windows client.
 */
function destinationState(mode: TransferMode, listing: (dir: string) => FolderListing) {
  // Once per folder a pass plans into, as the listings are: placing checks again, through open folders.
  const links = new Map<string, string | null>();
  const linkIn = (drive: string, dir: string) => {
    const key = `${drive}\0${dir}`;
    let link = links.get(key);
    if (link === undefined) links.set(key, (link = linkOnTheWay(drive, dir)));
    return link;
  };
  return (path: string, source: DownloadFile, drive: string): DestinationState => {
    try {
      const link = linkIn(drive, dirname(path));
      if (link !== null) return { link };
      const st = lstatSync(path, { throwIfNoEntry: false });
      if (!st) return listing(dirname(path)).lower.has(basename(path).toLowerCase()) ? 'taken' : 'free';
      if (mode === 'move') return st.dev === source.dev && st.ino === source.ino ? 'same' : 'taken';
      // A link a killed pass made before it could record it: done, to be recorded now. Its copy the
      // import journal has recorded already, by the inode it was made on; any other file is taken.
      return st.isFile() && alreadyPlaced(st, { ...source, nlink: lstatSync(source.path).nlink }) ? 'same' : 'taken';
    } catch {
      // ENOTDIR and the like: something that is not a folder stands in the way.
      return 'taken';
    }
  };
}

async function carryOut(p: PlannedMove, mode: TransferMode, tx: ImportTx, pass: string): Promise<Move> {
  const { video, sidecarErrors, replaced } = await tx.importOne(
    { video: p.video, destination: p.plan.destination, drive: p.plan.drive, sidecars: p.sidecars, ...(p.replaces ? { replaces: p.replaces } : {}) },
    pass,
  );
  const base = { ...p.plan, mode, replaced };
  if (!video.ok) return { ...base, status: 'failed', error: video.error };
  return { ...base, method: video.method, status: 'moved', ...(sidecarErrors.length > 0 ? { error: sidecarErrors.join('; ') } : {}) };
}

export interface PlanDownloadsOptions {
  log: Logger;
  signal?: AbortSignal;
  nowMs: number;
  /** The import history: downloads imported (hardlink, copy) or undone are not imported again. */
  records: readonly ImportRecord[];
  manual?: ManualImport;
  onWalked?: (files: DownloadFile[]) => Promise<void>;
  tvmaze?: TvmazeIdentifier;
  /** Only these downloads are planned; the others are neither planned nor reported. */
  sources?: ReadonlySet<string>;
  /** ffprobe, for a held file's picture an upgrade hangs on; absent: probeFile. */
  probe?: ProbeFn;
}

/**
 * Walks the downloads folder (a manual import: only the folder it takes from) and plans each file
 * against the drives, the library's folders and aliases, and the history. Reads only; a plan is
 * carried out by runScanPass, under the lock. The POST /api/imports/manual dry run answers with it.
 */
export async function planDownloads(cfg: Config, opts: PlanDownloadsOptions): Promise<{ files: DownloadFile[]; plans: PlannedMove[]; skipped: Skipped[] }> {
  const mode = cfg.library.transfer;
  const survey = await surveyDrives(cfg.drives, { movies: cfg.library.movie_folders, tv: cfg.library.tv_folders });
  const listing = folderListings();
  const manual = opts.manual;
  const files = await walkDownloads(cfg.paths.downloads, {
    signal: opts.signal,
    exclude: survey.libraryDirs,
    onSkip: (path, error) => opts.log.warn({ path, error }, 'downloads folder skipped'),
    // A file's sidecars lie in its folder or below it (`Subs/`), so its folder is walked.
    ...(manual ? { from: manual.target.folder ? manual.target.rel : dirname(manual.target.rel).replace(/^\.$/, '') } : {}),
  });
  await opts.onWalked?.(files);
  // After the listing is saved: it is of the whole folder. A file that arrived after the preview
  // is not among the sources, nor is a sidecar the preview did not carry.
  const planned = opts.sources ? files.filter((f) => opts.sources!.has(f.path)) : files;
  const index = await readLibraryIndex(cfg.paths.data).catch((err: Error) => {
    opts.log.warn({ err: err.message }, 'library index unreadable; using the drives alone');
    return null;
  });
  const isImported = importedLookup(opts.records);
  const isUndone = undoneLookup(opts.records);
  const choice = manual ? manualChoice(planned, manual, cfg.library.video_extensions) : null;
  const identifier =
    opts.tvmaze && !choice
      ? seriesIdentifierFor(cfg, opts.tvmaze, { budget: createIdentifyBudget(), warn: (message) => opts.log.warn({ provider: 'tvmaze' }, message) })
      : null;
  const answers = identifier ? createAnswerBook() : undefined;
  const aliases = aliasTable(cfg.library.aliases);
  const probes = heldProbes(opts.probe ?? ((path) => probeFile(path, opts.signal ? { signal: opts.signal } : {})));
  const plan = () =>
    planPass(
      planned,
      {
        nowMs: opts.nowMs,
        settleSeconds: cfg.app.settle_seconds,
        sampleMaxBytes: cfg.library.sample_max_bytes,
        movieTemplate: cfg.library.movie_template,
        episodeTemplate: cfg.library.episode_template,
        videoExtensions: cfg.library.video_extensions,
        subtitleExtensions: cfg.library.subtitle_extensions,
        upgrades: cfg.library.upgrades,
      },
      {
        drives: survey.drives,
        // Anew for each plan: a plan adds the folders it is about to create.
        folders: buildFolderLookup(foldersOfIndex(index), survey.folders, survey.listedRoots),
        destination: destinationState(mode, listing),
        imported: (f) => isImported(f) !== null,
        // An undone download is one the owner took back: importing it by hand is the owner's word again.
        undone: (f) => !choice && isUndone(f) !== null,
        subfolders: (dir) => listing(dir).folders,
        files: (dir) => listing(dir).files,
        aliases,
        provider: answers,
        probed: probes.resolution,
        ...(choice ? { only: choice.only, forced: choice.forced, replace: choice.replace } : {}),
      },
    );
  let passPlan = plan();
  // The plan asked the provider about names the library does not settle; with the answers, again.
  for (let round = 0; identifier && answers && round < PROVIDER_ROUNDS && (await answers.fetchAsked(identifier)); round++) passPlan = plan();
  // Held files an upgrade hangs on whose names give no quality: probed, and planned again with their pictures' resolutions.
  if (passPlan.probes.length > 0) {
    await probes.probe(passPlan.probes);
    passPlan = plan();
  }
  const { plans, skipped } = passPlan;
  return { files, plans, skipped: choice ? [...skipped, ...choice.unread].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0)) : skipped };
}

/**
 * One scanner pass: walk the downloads, plan, and (dry_run off) carry the plans out, recording
 * them in state.json's `recent`. Runs under the pass lock; a dry run changes nothing on disk.
 */
export async function runScanPass(opts: ScanPassOptions): Promise<ScanResult> {
  const now = opts.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();
  const cfg = opts.config;
  const started_at = iso();
  const dry_run = opts.dryRun === true || cfg.app.dry_run;

  const data = opts.data ?? scanStores(cfg.paths.data);

  return data.journals().locked(async (held) => {
    // Before anything moves, the settling of an interrupted pass's files included.
    const holder = await libraryFolderHolding(cfg.paths.downloads, libraryFoldersOf(cfg.drives, [...cfg.library.movie_folders, ...cfg.library.tv_folders]));
    if (holder !== null) throw downloadsInLibraryError(cfg.paths.downloads, holder);
    const mode = cfg.library.transfer;
    const history = await data.history().open();
    /** Oldest first; saved newest first. */
    const pending: RecentEntry[] = [];
    const record: RecordMove = (source, destination, error) =>
      pending.push({ type: 'move', source, destination, at: iso(), status: error === null ? 'moved' : 'failed', ...(error === null ? {} : { error }) });
    const flush = async (final: boolean) => {
      const entries = pending.splice(0).reverse();
      if (entries.length === 0 && !final) return;
      await opts.state.update((s) => ({ ...s, ...(final ? { last_scan_at: started_at } : {}), recent: mergeRecent(s.recent, entries) }));
    };

    const tx = openImportTx({
      journals: data.journals(),
      mode,
      drives: cfg.drives,
      owner: opts.owner,
      history,
      log: opts.log,
      record,
      now,
      settled: (mtimeMs) => isSettled(mtimeMs, now(), cfg.app.settle_seconds),
    });
    if (!dry_run) await tx.recover();
    const { plans, skipped, files } = await planDownloads(cfg, {
      log: opts.log,
      signal: opts.signal,
      nowMs: now(),
      records: history.records(),
      manual: opts.manual,
      tvmaze: opts.tvmaze,
      sources: opts.sources,
      // A manual import walks one folder: the listing stays the last pass's.
      onWalked: opts.manual
        ? undefined
        : (walked) =>
            saveDownloadsListing(cfg, walked, now()).then(
              () => {},
              (err: Error) => opts.log.warn({ err: err.message }, 'the downloads listing could not be saved'),
            ),
    });

    const moves: Move[] = [];
    if (dry_run) {
      for (const { plan } of plans) {
        for (const f of [plan, ...plan.sidecars]) {
          pending.push({ type: 'plan', source: f.source, destination: f.destination, at: started_at, status: 'planned' });
        }
      }
    } else {
      let flushedAt = now();
      try {
        for (const p of plans) {
          held();
          opts.signal?.throwIfAborted();
          moves.push(await carryOut(p, mode, tx, opts.pass ?? started_at));
          opts.progress?.({ moved: moves.length, planned: plans.length });
          if (now() - flushedAt >= FLUSH_EVERY_MS) {
            await flush(false);
            flushedAt = now();
          }
        }
      } catch (err) {
        await flush(false).catch(() => {});
        throw err;
      }
    }
    await flush(!opts.manual);
    const failed = moves.filter((m) => m.status === 'failed').length;
    opts.log.info(
      { dry_run, files: files.length, plans: plans.length, moved: moves.length - failed, failed, skipped: skipped.length },
      opts.manual ? 'manual import done' : 'scanner pass done',
    );
    return { dry_run, started_at, finished_at: iso(), plans: plans.map((p) => p.plan), moves, skipped, ...(opts.sources ? { chosen: true as const } : {}) };
  });
}
