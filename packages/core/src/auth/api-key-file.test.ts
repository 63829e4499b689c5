import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataDir } from '../data-dir/data-dir.ts';
import { apiKeyFile } from './api-key-file.ts';

/** The key file of the data folder `data`. */
const keyIn = (data: string) => apiKeyFile(dataDir(data));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mo-key-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the generated API key', () => {
  it('is made on first use as one line of 64 hex digits, readable by its owner only, and kept', async () => {
    const key = await keyIn(path.join(dir, 'data')).readOrCreate();
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const file = path.join(dir, 'data', 'api_key');
    expect(await readFile(file, 'utf8')).toBe(`${key}\n`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await keyIn(path.join(dir, 'data')).readOrCreate()).toBe(key);
  });

  it('is the same key for processes that start together', async () => {
    const keys = await Promise.all(Array.from({ length: 20 }, () => keyIn(dir).readOrCreate()));
    expect(new Set(keys).size).toBe(1);
    expect((await readFile(path.join(dir, 'api_key'), 'utf8')).trim()).toBe(keys[0]);
  });

  it('keeps a key the owner wrote, narrowing a file others could read', async () => {
    await writeFile(path.join(dir, 'api_key'), 'my-own-key\n');
    await chmod(path.join(dir, 'api_key'), 0o644);
    expect(await keyIn(dir).readOrCreate()).toBe('my-own-key');
    expect((await stat(path.join(dir, 'api_key'))).mode & 0o777).toBe(0o600);
  });

  it('refuses a file that holds no key rather than letting an empty key in', async () => {
    await writeFile(path.join(dir, 'api_key'), '\n', { mode: 0o600 });
    await expect(keyIn(dir).readOrCreate()).rejects.toThrow(/one line holding the API key/);
    await writeFile(path.join(dir, 'api_key'), 'two words\n', { mode: 0o600 });
    await expect(keyIn(dir).readOrCreate()).rejects.toThrow(/one line/);
  });

  it('is replaced by a new one in place, still readable by its owner only', async () => {
    const old = await keyIn(dir).readOrCreate();
    const next = await keyIn(dir).replace();
    expect(next).not.toBe(old);
    expect(await keyIn(dir).readOrCreate()).toBe(next);
    expect((await stat(path.join(dir, 'api_key'))).mode & 0o777).toBe(0o600);
  });
});
