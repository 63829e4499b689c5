import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { dataDir as dataFolder, DATA_FILES } from '../data-dir/data-dir.ts';

export const API_KEY_FILE = DATA_FILES.apiKey.name;
const KEY_BYTES = 32;
const MAX_KEY_LENGTH = 512;

export function generateApiKey(): string {
  return randomBytes(KEY_BYTES).toString('hex');
}

function keyOf(text: string, file: string): string {
  const key = text.trim();
  if (key === '' || key.length > MAX_KEY_LENGTH || /\s/.test(key)) {
    throw new Error(`${file}: expected one line holding the API key (delete the file to have a new one made)`);
  }
  return key;
}

/**
 * The key kept in `<dataDir>/api_key`, made on first use (one line, mode 0600). Written to a temp
 * file and linked into place, so two processes starting together end up with the same key and
 * neither ever reads a half-written one. A file others can read is narrowed to its owner: it is as
 * good as the owner's password.
 */
export async function readOrCreateApiKey(dataDir: string): Promise<string> {
  const file = dataFolder(dataDir).path('apiKey');
  await mkdir(dataDir, { recursive: true });
  const key = generateApiKey();
  const tmp = path.join(path.dirname(file), `.${API_KEY_FILE}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(`${key}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await link(tmp, file);
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await rm(tmp, { force: true });
  }
  const info = await stat(file);
  if ((info.mode & 0o077) !== 0) await chmod(file, 0o600);
  return keyOf(await readFile(file, 'utf8'), file);
}

/** A new key in place of the old one; the old one stops working once callers re-read it. */
export async function replaceApiKey(dataDir: string): Promise<string> {
  const key = generateApiKey();
  await mkdir(dataDir, { recursive: true });
  await writeFileAtomic(dataFolder(dataDir).path('apiKey'), `${key}\n`, { mode: 0o600 });
  return key;
}
