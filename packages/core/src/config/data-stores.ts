import { authStore, type AuthStore } from '../auth/auth-store.ts';
import { historyStore, type HistoryStore } from '../history/history-log.ts';
import { libraryStore, type LibraryStore } from '../library/library-store.ts';
import { passesStore, type PassesStore } from '../scanner/pass-list.ts';
import { downloadsListingStore, type DownloadsListingStore } from '../scanner/downloads-cache.ts';
import { dataDir, type DataDir } from '../data-dir/data-dir.ts';
import { openStateStores, type StateStores } from '../data-dir/state-stores.ts';
import { identifyCacheStore, type IdentifyCacheStore } from '../identify/identify-cache.ts';
import { workJournal, type WorkJournal } from '../media/work-journal.ts';
import { journalsStore, type JournalsStore } from '../import-tx/journals.ts';

/**
 * The data folder with its typed stores: a process opens it once (the runtime config does) and
 * every caller takes its store from there instead of naming a file under `paths.data`.
 */
export interface DataStores extends DataDir {
  /**
   * state.json and the transcode log (see openStateStores): the first call moves the records an
   * older version left in state.json, and every call answers the same stores.
   */
  stateStores(): Promise<StateStores>;
  /** The import history (`history/imports.jsonl`). */
  history(): HistoryStore;
  /** The full result of each recent scanner pass (`passes/<job id>.json`). */
  passes(): PassesStore;
  /** Notes of the transcode and track-edit temps in flight (`media-work/`). */
  mediaWork(): WorkJournal;
  /** The provider look-ups the scanner keeps between passes (`metadata/tvmaze-cache.json`). */
  identifyCache(): IdentifyCacheStore;
  /** The owner account, its sessions and the generated API key (`auth.json`, `api_key`). */
  auth(): AuthStore;
  /** The last listing of the downloads folder (`downloads-listing.json`). */
  downloadsListing(): DownloadsListingStore;
  /** The library index and its per-folder stamps (`library-index.ndjson`, `library-folders.ndjson`). */
  index(): LibraryStore;
  /** The import records, the copy journal and the pass lock (`scanner/`, `scanner.lock`). */
  journals(): JournalsStore;
}

export function openDataDir(root: string): DataStores {
  const data = dataDir(root);
  const history = historyStore(data);
  const passes = passesStore(data);
  const mediaWork = workJournal(data);
  const identifyCache = identifyCacheStore(data);
  const auth = authStore(data);
  const downloadsListing = downloadsListingStore(data);
  const index = libraryStore(data);
  const journals = journalsStore(data);
  let stateStores: Promise<StateStores> | undefined;
  return {
    ...data,
    stateStores: () => (stateStores ??= openStateStores(data)),
    history: () => history,
    passes: () => passes,
    mediaWork: () => mediaWork,
    identifyCache: () => identifyCache,
    auth: () => auth,
    downloadsListing: () => downloadsListing,
    index: () => index,
    journals: () => journals,
  };
}
