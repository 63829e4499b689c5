import { join } from 'node:path';

/**
 * Everything kept under `paths.data`, in one table: no other module names a file there, so the
 * README's map (checked against this table by a test) and the code cannot drift apart.
 */
export const DATA_FILES = {
  state: { name: 'state.json', what: 'saved settings, recent plans and moves, scan times' },
  stateLock: { name: 'state.json.lock', what: 'lock held while state.json is rewritten' },
  transcodes: { name: 'transcodes.jsonl', what: 'transcode records and the pause flag, a line per change (compacted now and then)' },
  transcodesLock: { name: 'transcodes.jsonl.lock', what: 'lock held while a change is added to transcodes.jsonl' },
  auth: { name: 'auth.json', what: 'the owner account and its sessions (mode 0600)' },
  authLock: { name: 'auth.json.lock', what: 'lock held while auth.json is rewritten' },
  apiKey: { name: 'api_key', what: 'the generated API key when app.api_key is not set (mode 0600)' },
  libraryIndex: { name: 'library-index.ndjson', what: 'the cached library index' },
  libraryFolders: { name: 'library-folders.ndjson', what: 'per-folder stamps, so a library scan re-reads only changed folders' },
  downloadsListing: { name: 'downloads-listing.json', what: 'the last listing of the downloads folder' },
  passes: { name: 'passes/', what: 'the full result of each recent scanner pass, one file a job' },
  history: { name: 'history/imports.jsonl', what: 'the import history that undo works from' },
  identifyCache: { name: 'metadata/tvmaze-cache.json', what: 'cached TVmaze look-ups' },
  providerFailure: { name: 'metadata/tvmaze-failing.json', what: 'since when TVmaze look-ups fail, and why; absent while they succeed' },
  scannerLock: { name: 'scanner.lock', what: 'lock held by the one scanner pass, import or undo running' },
  transferJournal: { name: 'scanner/transfers/', what: 'a note per file copy in flight, so a killed pass is cleaned up' },
  importJournal: { name: 'scanner/imports/', what: 'a note per import in flight, so a killed pass is recorded and its sidecars placed' },
  organizeJournal: { name: 'scanner/organize/', what: 'a note per library rename in flight (organize), so a killed one is finished or taken back' },
  legacySidecarJournal: { name: 'scanner/sidecars/', what: 'left by older versions: read once by recovery, then removed' },
  recycleTotals: { name: 'recycle-bin.json', what: "the drives' recycle bins: files and bytes, as last counted" },
  mediaWork: { name: 'media-work/', what: 'a note per transcode or track-edit temp in flight' },
} as const;

export type DataFile = keyof typeof DATA_FILES;

/** The folder proper-lockfile locks for a scanner pass; its lock lives at `scannerLock`. */
const SCANNER_FOLDER = 'scanner';

export interface DataDir {
  readonly root: string;
  /** The absolute path of one entry of DATA_FILES (a folder's without the trailing slash). */
  path(file: DataFile): string;
  /** The folder locked for a scanner pass. */
  scannerFolder(): string;
  /** A pass job's file, from the name passFileName gives it (relative to the data folder). */
  passFile(relative: string): string;
}

export function dataDir(root: string): DataDir {
  return {
    root,
    path: (file) => join(root, DATA_FILES[file].name.replace(/\/$/, '')),
    scannerFolder: () => join(root, SCANNER_FOLDER),
    passFile: (relative) => join(root, relative),
  };
}
