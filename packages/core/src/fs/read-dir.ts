import { readdir } from 'node:fs/promises';

/** The names in a folder, or none when the folder does not exist (yet). */
export async function readdirIfExists(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}
