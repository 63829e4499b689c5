import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import type { DataDir } from '../data-dir/data-dir.ts';

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
 * The key kept in `file` (`api_key` in the data folder), made on first use (one line, mode 0600). Written to a temp
 * file and linked into place, so two processes starting together end up with the same key and
 * neither ever reads a half-written one. A file others can read is narrowed to its owner: it is as
 * good as the owner's password.
 */
async function readOrCreateApiKey(file: string): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  const key = generateApiKey();
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
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
async function replaceApiKey(file: string): Promise<string> {
  const key = generateApiKey();
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, `${key}\n`, { mode: 0o600 });
  return key;
}

/** The generated API key as the data folder hands it out (`DataStores.auth().apiKey`). */
export interface ApiKeyFile {
  readonly file: string;
  readOrCreate(): Promise<string>;
  replace(): Promise<string>;
}

export function apiKeyFile(data: DataDir): ApiKeyFile {
  const file = data.path('apiKey');
  return { file, readOrCreate: () => readOrCreateApiKey(file), replace: () => replaceApiKey(file) };
}
