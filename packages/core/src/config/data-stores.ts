import { historyStore, type HistoryStore } from '../history/history-log.ts';
import { passesStore, type PassesStore } from '../scanner/pass-list.ts';
import { dataDir, type DataDir } from '../data-dir/data-dir.ts';
import { journalsStore, type JournalsStore } from '../import-tx/journals.ts';

/**
 * The data folder with its typed stores: a process opens it once (the runtime config does) and
 * every caller takes its store from there instead of naming a file under `paths.data`.
 */
export interface DataStores extends DataDir {
  /** The import history (`history/imports.jsonl`). */
  history(): HistoryStore;
  /** The full result of each recent scanner pass (`passes/<job id>.json`). */
  passes(): PassesStore;
  /** The import records, the copy journal and the pass lock (`scanner/`, `scanner.lock`). */
  journals(): JournalsStore;
}

export function openDataDir(root: string): DataStores {
  const data = dataDir(root);
  const history = historyStore(data);
  const passes = passesStore(data);
  const journals = journalsStore(data);
  return { ...data, history: () => history, passes: () => passes, journals: () => journals };
}
