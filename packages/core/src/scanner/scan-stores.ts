import { dataDir } from '../data-dir/data-dir.ts';
import { historyStore, type HistoryStore } from '../history/history-log.ts';
import { journalsStore, type JournalsStore } from '../import-tx/journals.ts';
import { libraryStore, type LibraryStore } from '../library/library-store.ts';

/** What a pass, a manual import and an undo take of the data folder: `DataStores` is one. */
export interface ScanStores {
  history(): HistoryStore;
  journals(): JournalsStore;
  index(): LibraryStore;
}

/** The stores of the data folder at `root`, for a caller that holds only the config (DataStores lives in config, above scanner). */
export function scanStores(root: string): ScanStores {
  const data = dataDir(root);
  const history = historyStore(data);
  const journals = journalsStore(data);
  const index = libraryStore(data);
  return { history: () => history, journals: () => journals, index: () => index };
}
