import { dataDir as dataFolder } from '../data-dir/data-dir.ts';

// The import's journals, as DataDir names them; a killed pass's notes are found again only there.

export function transferJournalDir(dataDir: string): string {
  return dataFolder(dataDir).path('transferJournal');
}

export function importJournalDir(dataDir: string): string {
  return dataFolder(dataDir).path('importJournal');
}

export function legacySidecarJournalDir(dataDir: string): string {
  return dataFolder(dataDir).path('legacySidecarJournal');
}
