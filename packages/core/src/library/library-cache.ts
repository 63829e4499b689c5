import type { LibraryIndex } from '@mo/shared';
import type { Logger } from '../logging/logger.ts';
import { indexStamp, readLibraryIndex } from './index-store.ts';

/**
 * The API's copy of the library index. The worker replaces the file after each library scan; the
 * cache notices (a stat a second, never a walk of the media), loads it once, and keeps whatever
 * was derived from it until the next index, so requests only read memory.
 */
export interface LibraryCache {
  current(): LibraryIndex | null;
  /** A value computed from the current index once, then reused until the index or `key` changes. */
  derive<T>(key: string, compute: (index: LibraryIndex | null) => T): T;
  /** Checks the file now; the timer does this too. */
  refresh(): Promise<void>;
  /** Bumped on every load, so callers can key their own memos. */
  version(): number;
  close(): void;
}

export async function createLibraryCache(opts: {
  dataDir: () => string;
  logger?: Logger;
  pollMs?: number;
}): Promise<LibraryCache> {
  let index: LibraryIndex | null = null;
  let stamp = '';
  let version = 0;
  let memo = new Map<string, unknown>();
  let loading: Promise<void> | undefined;

  async function load() {
    const dir = opts.dataDir();
    const now = `${dir}|${await indexStamp(dir)}`;
    if (now === stamp) return;
    try {
      index = await readLibraryIndex(dir);
      stamp = now;
      version++;
      memo = new Map();
      opts.logger?.info({ files: index?.items.length ?? 0, version }, 'library index loaded');
    } catch (err) {
      // Keep serving the last good index; the file may be mid-replace on a filesystem without atomic rename.
      opts.logger?.error({ err }, 'library index could not be read; keeping the previous one');
    }
  }

  function refresh(): Promise<void> {
    loading ??= load().finally(() => (loading = undefined));
    return loading;
  }

  await refresh();
  const timer = setInterval(() => void refresh(), opts.pollMs ?? 1000);
  timer.unref();

  return {
    current: () => index,
    derive<T>(key: string, compute: (index: LibraryIndex | null) => T): T {
      if (memo.has(key)) return memo.get(key) as T;
      const value = compute(index);
      memo.set(key, value);
      return value;
    },
    refresh,
    version: () => version,
    close: () => clearInterval(timer),
  };
}
