import type { DataDir } from '../data-dir/data-dir.ts';
import { withPassLock } from '../history/pass-lock.ts';
import { createImportJournal, type ImportJournal } from './import-journal.ts';
import { createOrganizeJournal, type OrganizeJournal } from './organize-journal.ts';
import { legacySidecarNotes, type LegacySidecarNotes } from './legacy-sidecar-notes.ts';
import { createTransferJournal, type FileTransferJournal } from './transfer-journal.ts';

/**
 * The import's notes and the lock they are written under, as the data folder hands them out
 * (`DataStores.journals()`): a killed pass's notes are found again only where DataDir names them.
 */
export interface JournalsStore {
  /** One record per import in flight (`scanner/imports/`). */
  imports(): ImportJournal;
  /** One note per copy in flight, shared by imports and undo (`scanner/transfers/`). */
  copies(): FileTransferJournal;
  /** One note per library rename group in flight (`scanner/organize/`). */
  organize(): OrganizeJournal;
  /** The sidecar notes older versions left (`scanner/sidecars/`), migrated by recovery. */
  legacySidecars(): LegacySidecarNotes;
  /** Runs `fn` holding the scanner's pass lock (`scanner.lock`); see withPassLock. */
  locked<T>(fn: (held: () => void) => Promise<T>, opts?: { waitMs?: number }): Promise<T>;
}

export function journalsStore(data: DataDir): JournalsStore {
  const imports = createImportJournal(data.path('importJournal'));
  const copies = createTransferJournal(data.path('transferJournal'));
  const legacy = legacySidecarNotes(data.path('legacySidecarJournal'));
  const organize = createOrganizeJournal(data.path('organizeJournal'));
  return {
    organize: () => organize,
    imports: () => imports,
    copies: () => copies,
    legacySidecars: () => legacy,
    locked: (fn, opts) => withPassLock(data.root, fn, opts),
  };
}
