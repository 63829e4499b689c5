import { join } from 'node:path';

// The import's journals under paths.data, named in this one place so that whoever owns that folder
// can move them; a killed pass's notes are found again only under these names.

export function transferJournalDir(dataDir: string): string {
  return join(dataDir, 'scanner', 'transfers');
}

export function importJournalDir(dataDir: string): string {
  return join(dataDir, 'scanner', 'imports');
}

export function sidecarJournalDir(dataDir: string): string {
  return join(dataDir, 'scanner', 'sidecars');
}
