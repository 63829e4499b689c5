import type { IndexItem } from '@mo/shared';
import type { Logger } from '../logging/logger.ts';
import { computeAll, keptItems, reading, retire, type Compute, type Held, type KeptItems, type Outcome } from './cache-compute.ts';
import { itemsAt, type IndexHeader } from './index-store.ts';
import type { LibraryStore } from './library-store.ts';

export type { Compute, IndexPass } from './cache-compute.ts';

export type IndexListener = (header: IndexHeader | null, version: number) => void;

/**
 * The API's view of the library index. The worker replaces the file after each library scan; the
 * cache notices (a stat a second, never a walk of the media) and computes what the routes serve
 * from it once. Values computed by passes never hold the items: at 100,000 files they would be the
 * largest thing in the process, and the answers built from them are much smaller.
 */
export interface LibraryCache {
  /** The current index without its items (scanned_at, truncated, …); null before the first scan. */
  header(): IndexHeader | null;
  /** A value computed from the current index once, then reused until the index changes. */
  derive<T>(key: string, compute: Compute<T>): Promise<T>;
  /**
   * The items whose lines lie in the byte ranges `spans` (start, end, start, end, …) of the index of
   * `version`, as a pass saw them; null once a newer index replaced that one.
   */
  itemsAt(version: number, spans: readonly number[]): Promise<IndexItem[] | null>;
  /** Checks the file now; the timer does this too. */
  refresh(): Promise<void>;
  /** Bumped on every new index, so callers can key their own memos. */
  version(): number;
  /** Called with each new index (null: the file went away), once the views asked for are rebuilt from it. */
  onIndex(listener: IndexListener): () => void;
  close(): void;
}

/**
 * Which values a new index is built with: those asked for under the previous one, so requests
 * keep finding them; what nobody asked for since is forgotten, which bounds the memos.
 */
export function keysToRebuild(asked: ReadonlySet<string>, wanted: ReadonlyMap<string, Compute<unknown>>): [string, Compute<unknown>][] {
  return [...asked].flatMap((key): [string, Compute<unknown>][] => {
    const compute = wanted.get(key);
    return compute ? [[key, compute]] : [];
  });
}

/** The values that were computed, and the keys whose computation failed with why. */
export function valuesOf(outcomes: ReadonlyMap<string, Outcome>): { values: Map<string, unknown>; failed: [string, unknown][] } {
  const values = new Map<string, unknown>();
  const failed: [string, unknown][] = [];
  for (const [key, outcome] of outcomes) {
    if ('value' in outcome) values.set(key, outcome.value);
    else failed.push([key, outcome.error]);
  }
  return { values, failed };
}

/** What the cache holds between two indexes. */
interface CacheState {
  current: Held | null;
  /** The current index file's stamp; '' before the first look. */
  stamp: string;
  version: number;
  memo: Map<string, unknown>;
  /** Every value asked for since the last index: recomputed as soon as a new index arrives. */
  wanted: Map<string, Compute<unknown>>;
  asked: Set<string>;
  closed: boolean;
}

interface CacheOptions {
  index: LibraryStore;
  logger?: Logger;
  pollMs?: number;
  /** How long items stay in memory after the last function of the whole index that needed them. */
  keepItemsMs?: number;
}

function tell(listeners: ReadonlySet<IndexListener>, header: IndexHeader | null, version: number, logger: Logger | undefined) {
  for (const l of listeners) {
    try {
      l(header, version);
    } catch (err) {
      logger?.error({ err }, 'library index listener failed');
    }
  }
}

/**
 * Takes a changed file as the new version once every value asked for under the previous one is
 * rebuilt from it, in one read; until then requests keep getting the previous answers. With
 * nothing asked for, the header alone: the answer to a library scan does not wait for values
 * nobody wants.
 */
async function load(state: CacheState, opts: CacheOptions, kept: KeptItems, listeners: ReadonlySet<IndexListener>) {
  const open = await opts.index.open();
  const now = open?.stamp ?? 'missing';
  if (now === state.stamp) {
    await open?.handle.close();
    return;
  }
  const held: Held | null = open && { open, reads: 0, retired: false };
  const ver = state.version + 1;
  const keys = keysToRebuild(state.asked, state.wanted);
  let rebuilt: Awaited<ReturnType<typeof computeAll>>;
  try {
    rebuilt = await computeAll(keys, held, ver, kept);
  } catch (err) {
    retire(held);
    throw err;
  }
  if (state.closed) {
    retire(held);
    return;
  }
  const { values, failed } = valuesOf(rebuilt.outcomes);
  for (const [key, err] of failed) opts.logger?.error({ err, key }, 'could not compute a view of the library index');
  retire(state.current);
  Object.assign(state, { current: held, stamp: now, version: ver, wanted: new Map(keys), asked: new Set(), memo: values });
  kept.dropOthers(ver);
  opts.logger?.info({ files: rebuilt.files, version: ver, views: values.size }, 'library index loaded');
  tell(listeners, open?.header ?? null, ver, opts.logger);
}

/**
 * `key`'s value computed from the current index, retried on each newer index that arrives while it
 * runs (whose load may have computed it already).
 */
async function computeOne<T>(state: CacheState, kept: KeptItems, key: string, compute: Compute<T>): Promise<T> {
  for (;;) {
    const ver = state.version;
    const { outcomes } = await computeAll([[key, compute]], state.current, ver, kept);
    if (state.version !== ver) {
      if (state.memo.has(key)) return state.memo.get(key) as T;
      continue;
    }
    const outcome = outcomes.get(key)!;
    if ('error' in outcome) throw outcome.error;
    state.memo.set(key, outcome.value);
    return outcome.value as T;
  }
}

export async function createLibraryCache(opts: CacheOptions): Promise<LibraryCache> {
  const state: CacheState = { current: null, stamp: '', version: 0, memo: new Map(), wanted: new Map(), asked: new Set(), closed: false };
  const kept = keptItems(opts.keepItemsMs ?? 5000);
  const computing = new Map<string, Promise<unknown>>();
  const listeners = new Set<IndexListener>();
  let checking: Promise<void> | undefined;

  async function check() {
    if ((await opts.index.stamp()) === state.stamp) return;
    try {
      await load(state, opts, kept, listeners);
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
    header: () => state.current?.open.header ?? null,
    derive<T>(key: string, compute: Compute<T>): Promise<T> {
      state.wanted.set(key, compute);
      state.asked.add(key);
      if (state.memo.has(key)) return Promise.resolve(state.memo.get(key) as T);
      // Concurrent first requests share one computation: each of its own would hold its own
      // copy of the answer's intermediate data at once.
      let pending = computing.get(key) as Promise<T> | undefined;
      if (!pending) {
        pending = computeOne(state, kept, key, compute).finally(() => computing.delete(key));
        computing.set(key, pending);
      }
      return pending;
    },
    async itemsAt(ver, spans) {
      const held = state.current;
      if (ver !== state.version || !held) return null;
      return reading(held, (open) => itemsAt(open, spans));
    },
    refresh,
    version: () => state.version,
    onIndex(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      state.closed = true;
      clearInterval(timer);
      kept.clear();
      state.wanted = new Map();
      retire(state.current);
      state.current = null;
    },
  };
}

/** A pass that feeds every item to an accumulator and makes the value from it at the end. */
export function accumulate<A extends { add(item: IndexItem): void }, T>(make: () => A, finish: (acc: A, header: IndexHeader | null) => T): Compute<T> {
  return {
    pass: () => {
      const acc = make();
      return { add: (item) => acc.add(item), finish: (header) => finish(acc, header) };
    },
  };
}
