import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { libraryIndexHeaderSchema, type LibraryIndex } from '@mo/shared';
import { writeFileAtomic } from '../fs/atomic-write.ts';

export const INDEX_FILE = 'library-index.json';

export function indexPath(dataDir: string): string {
  return join(dataDir, INDEX_FILE);
}

/** Written whole and atomically: readers see the previous index or this one, never a mix. */
export async function writeLibraryIndex(dataDir: string, index: LibraryIndex): Promise<void> {
  await writeFileAtomic(indexPath(dataDir), JSON.stringify(index));
}

/** The cached index, or null before the first library scan. Items are trusted: only the worker writes them. */
export async function readLibraryIndex(dataDir: string): Promise<LibraryIndex | null> {
  let text: string;
  try {
    text = await readFile(indexPath(dataDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const raw = JSON.parse(text) as LibraryIndex;
  libraryIndexHeaderSchema.parse(raw);
  if (!Array.isArray(raw.items)) throw new Error(`${indexPath(dataDir)}: items is not a list`);
  return raw;
}

export async function indexStamp(dataDir: string): Promise<string> {
  try {
    const s = await stat(indexPath(dataDir));
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return 'missing';
  }
}
