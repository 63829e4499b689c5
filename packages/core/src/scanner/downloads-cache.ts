import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { listedFileSchema, type Config } from '@mo/shared';
import { removeStaleTemps, writeFileAtomic } from '../fs/atomic-write.ts';
import { libraryDirIds } from './drive-survey.ts';
import { downloadsListing, type DownloadListing } from './downloads-listing.ts';
import type { DownloadFile } from './plan-pass.ts';
import { walkDownloads } from './walk-downloads.ts';
import { dataDir as dataFolder, type DataDir } from '../data-dir/data-dir.ts';

/**
 * What the last walk of the downloads folder saw (a scanner pass's, or the worker's refresh of the
 * listing alone), kept in the data folder for GET /api/downloads: the API serves this file and
 * never walks the folder itself.
 */
export const savedListingSchema = z.object({
  /** The downloads folder the pass walked: a listing of another folder is no listing of this one. */
  root: z.string(),
  scanned_at: z.string(),
  truncated: z.boolean(),
  files: z.array(listedFileSchema),
});
export type SavedListing = z.infer<typeof savedListingSchema>;

/** The listing of the downloads folder as the data folder hands it out (`DataStores.downloadsListing()`). */
export interface DownloadsListingStore {
  readonly file: string;
  /**
   * Saves the listing of one pass's walk, bounded (see downloadsListing), whole and atomically:
   * readers see the previous pass's listing or this one. Called under the pass lock, so a temp file
   * left by a killed writer can go.
   */
  save(cfg: Config, files: readonly DownloadFile[], nowMs: number): Promise<DownloadListing>;
  /** See refreshDownloadsListing. */
  refresh(cfg: Config, opts?: { signal?: AbortSignal; now?: () => number }): Promise<boolean>;
  /** The saved listing, or null before the first pass. A file that is not one is an error. */
  read(): Promise<SavedListing | null>;
  /** Changes whenever the listing file is replaced; a stat, for callers that keep what they built from it. */
  stamp(): Promise<string>;
}

export function downloadsListingStore(data: DataDir): DownloadsListingStore {
  const file = data.path('downloadsListing');
  return {
    file,
    async save(cfg, files, nowMs) {
      await removeStaleTemps(file);
      return writeListing(file, cfg, files, nowMs);
    },
    refresh: (cfg, opts) => refreshDownloadsListing(file, cfg, opts),
    read: () => readDownloadsListing(file),
    stamp: () => downloadsListingStamp(file),
  };
}

/** The pass's save (see DownloadsListingStore.save), for the pass, which is handed its config rather than the data folder's stores. */
export function saveDownloadsListing(cfg: Config, files: readonly DownloadFile[], nowMs: number): Promise<DownloadListing> {
  return downloadsListingStore(dataFolder(cfg.paths.data)).save(cfg, files, nowMs);
}

async function writeListing(file: string, cfg: Config, files: readonly DownloadFile[], nowMs: number): Promise<DownloadListing> {
  const listing = downloadsListing(cfg, files, nowMs);
  const saved: SavedListing = { root: cfg.paths.downloads, scanned_at: new Date(nowMs).toISOString(), ...listing };
  await writeFileAtomic(file, JSON.stringify(saved));
  return listing;
}

/**
 * Walks the downloads folder and saves its listing, moving nothing, so that a file dropped there
 * shows without waiting for a pass. Not under the pass lock (a long pass would hold the listing back
 * for its whole length), hence no sweep of temps, which only the lock holder may judge; and the
 * listing is dated when the walk began, so that the files a pass moves meanwhile are still taken off
 * it (GET /api/downloads subtracts moves made since), and it never replaces a newer one.
 * Returns false when a newer listing stood.
 */
async function refreshDownloadsListing(file: string, cfg: Config, opts: { signal?: AbortSignal; now?: () => number } = {}): Promise<boolean> {
  const now = opts.now ?? Date.now;
  const startedMs = now();
  const exclude = await libraryDirIds(cfg.drives, [...cfg.library.movie_folders, ...cfg.library.tv_folders]);
  const files = await walkDownloads(cfg.paths.downloads, { signal: opts.signal, exclude });
  const standing = await readDownloadsListing(file).catch(() => null);
  if (standing && standing.root === cfg.paths.downloads && Date.parse(standing.scanned_at) > startedMs) return false;
  await mkdir(dirname(file), { recursive: true });
  await writeListing(file, cfg, files, startedMs);
  return true;
}

async function readDownloadsListing(file: string): Promise<SavedListing | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return savedListingSchema.parse(JSON.parse(text));
}

async function downloadsListingStamp(file: string): Promise<string> {
  try {
    const s = await stat(file);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return 'missing';
  }
}
