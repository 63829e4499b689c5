import type { LibraryIndex } from '@mo/shared';
import type { Logger } from '../logging/logger.ts';
import { indexStamp, readLibraryIndex, readLibraryIndexHeader, type IndexHeader } from './index-store.ts';

export type IndexListener = (header: IndexHeader | null, version: number) => void;

/**
 * The API's view of the library index. The worker replaces the file after each library scan; the
 * cache notices (a stat a second, never a walk of the media) and computes what the routes serve
 * from it once. The per-file items are held only while something is being computed: at 100,000
 * files they are the largest thing in the process, and the answers built from them are much smaller.
 */
export interface LibraryCache {
  /** The current index without its items (scanned_at, truncated, …); null before the first scan. */
  header(): IndexHeader | null;
  /** A value computed from the current index once, then reused until the index changes. */
  derive<T>(key: string, compute: (index: LibraryIndex | null) => T): Promise<T>;
  /** Checks the file now; the timer does this too. */
  refresh(): Promise<void>;
  /** Bumped on every new index, so callers can key their own memos. */
  version(): number;
  /** Called with each new index (null: the file went away), once the views asked for are rebuilt from it. */
  onIndex(listener: IndexListener): () => void;
  close(): void;
}

/**
 * Building an answer from 100,000 items leaves tens of megabytes of garbage; collected at once,
 * the next build reuses that heap instead of growing it (and the RSS that never shrinks back).
 * Only where the process was started with --expose-gc, as start:api does.
 */
function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

const headerOf = ({ items: _, ...head }: LibraryIndex): IndexHeader => head;

export async function createLibraryCache(opts: {
  dataDir: () => string;
  logger?: Logger;
  pollMs?: number;
  /** How long items stay in memory after the last computation that needed them. */
  keepItemsMs?: number;
}): Promise<LibraryCache> {
  let header: IndexHeader | null = null;
  let stamp = '';
  let version = 0;
  let memo = new Map<string, unknown>();
  /** Every value asked for since the last index: recomputed as soon as a new index arrives. */
  let wanted = new Map<string, (index: LibraryIndex | null) => unknown>();
  let asked = new Set<string>();
  const computing = new Map<string, Promise<unknown>>();
  let items: LibraryIndex | null | undefined;
  let loading: Promise<LibraryIndex | null | undefined> | undefined;
  let checking: Promise<void> | undefined;
  let dropTimer: NodeJS.Timeout | undefined;
  const listeners = new Set<IndexListener>();

  function dropItemsLater() {
    clearTimeout(dropTimer);
    dropTimer = setTimeout(() => {
      items = undefined;
      collect();
    }, opts.keepItemsMs ?? 5000);
    dropTimer.unref();
  }

  function computeInto(target: Map<string, unknown>, key: string, compute: (index: LibraryIndex | null) => unknown, index: LibraryIndex | null) {
    try {
      target.set(key, compute(index));
    } catch (err) {
      opts.logger?.error({ err, key }, 'could not compute a view of the library index');
    }
  }

  /**
   * Reads the index; a changed file becomes the new version, with every wanted view rebuilt. With
   * nothing to rebuild and no request waiting for items, the header alone (answering undefined):
   * the answer to a library scan does not wait for items nobody asked for.
   */
  function loadItems(needItems = true): Promise<LibraryIndex | null | undefined> {
    loading ??= (async () => {
      const dir = opts.dataDir();
      const now = `${dir}|${await indexStamp(dir)}`;
      if (!needItems && now !== stamp) {
        const head = await readLibraryIndexHeader(dir);
        if (asked.size === 0) {
          // The first request that needs items reads them; the old ones are stale now.
          items = undefined;
          changed(now, head, null);
          return undefined;
        }
      }
      const index = await readLibraryIndex(dir);
      if (now !== stamp) changed(now, index && headerOf(index), index);
      items = index;
      dropItemsLater();
      return index;
    })().finally(() => (loading = undefined));
    return loading;
  }

  /** A new index (`index` holds its items when some view asked for is to be rebuilt from them). */
  function changed(now: string, head: IndexHeader | null, index: LibraryIndex | null) {
    stamp = now;
    version++;
    header = head;
    // What was asked for under the previous index is rebuilt now, so requests keep finding it
    // ready; what nobody asked for since is forgotten, which bounds the memos.
    const next = new Map<string, unknown>();
    const keep = new Map<string, (index: LibraryIndex | null) => unknown>();
    for (const key of asked) {
      const compute = wanted.get(key);
      if (!compute) continue;
      keep.set(key, compute);
      computeInto(next, key, compute, index);
      collect();
    }
    wanted = keep;
    asked = new Set();
    memo = next;
    opts.logger?.info({ files: index?.items.length ?? null, version, views: next.size }, 'library index loaded');
    for (const l of listeners) {
      try {
        l(header, version);
      } catch (err) {
        opts.logger?.error({ err }, 'library index listener failed');
      }
    }
  }

  async function check() {
    const dir = opts.dataDir();
    if (`${dir}|${await indexStamp(dir)}` === stamp) return;
    try {
      await loadItems(asked.size > 0);
    } catch (err) {
      // Keep serving the last good answers; the file may be mid-replace on a filesystem without atomic rename.
      opts.logger?.error({ err }, 'library index could not be read; keeping the previous one');
    }
  }

  function refresh(): Promise<void> {
    checking ??= check().finally(() => (checking = undefined));
    return checking;
  }

  await refresh();
  const timer = setInterval(() => void refresh(), opts.pollMs ?? 1000);
  timer.unref();

  return {
    header: () => header,
    derive<T>(key: string, compute: (index: LibraryIndex | null) => T): Promise<T> {
      wanted.set(key, compute);
      asked.add(key);
      if (memo.has(key)) return Promise.resolve(memo.get(key) as T);
      // Concurrent first requests share one computation: each of its own would hold its own
      // copy of the answer's intermediate data at once.
      let pending = computing.get(key) as Promise<T> | undefined;
      if (!pending) {
        pending = (async () => {
          const seen = version;
          let index = items;
          // A header-only load under way gives no items; the next load reads them.
          while (index === undefined) index = await loadItems();
          // A newer index may have arrived meanwhile; its load computed this key already.
          if (version !== seen && memo.has(key)) return memo.get(key) as T;
          const value = compute(index);
          memo.set(key, value);
          collect();
          dropItemsLater();
          return value;
        })().finally(() => computing.delete(key));
        computing.set(key, pending);
      }
      return pending;
    },
    refresh,
    version: () => version,
    onIndex(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      clearInterval(timer);
      clearTimeout(dropTimer);
      items = undefined;
      wanted = new Map();
    },
  };
}
