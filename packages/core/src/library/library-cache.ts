import type { IndexItem, LibraryIndex } from '@mo/shared';
import type { Logger } from '../logging/logger.ts';
import { itemsAt, streamItems, type IndexHeader, type OpenIndex } from './index-store.ts';
import type { LibraryStore } from './library-store.ts';

export type IndexListener = (header: IndexHeader | null, version: number) => void;

/**
 * A value built from the index one item at a time: the items stream past and only what the value
 * keeps of them stays in memory. `start` and `end` are where the item's line lies in the file.
 */
export interface IndexPass<T> {
  add(item: IndexItem, start: number, end: number): void;
  /** `header` is null before the first scan; `version` is the cache's version the value belongs to. */
  finish(header: IndexHeader | null, version: number): T;
}

/**
 * How a cached value is computed: a pass over the streamed items, or (for small uses) a function
 * of the whole index, whose items are then held in memory while it runs.
 */
export type Compute<T> = { pass: () => IndexPass<T> } | ((index: LibraryIndex | null) => T);

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
 * Building an answer from 100,000 items leaves tens of megabytes of garbage; collected at once,
 * the next build reuses that heap instead of growing it (and the RSS that never shrinks back).
 * Only where the process was started with --expose-gc, as start:api does.
 */
function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** An open index file, closed once it is replaced and no read of it is under way. */
interface Held {
  open: OpenIndex;
  reads: number;
  retired: boolean;
}

async function reading<T>(held: Held, read: (open: OpenIndex) => Promise<T>): Promise<T> {
  held.reads++;
  try {
    return await read(held.open);
  } finally {
    if (--held.reads === 0 && held.retired) void held.open.handle.close();
  }
}

function retire(held: Held | null) {
  if (!held) return;
  held.retired = true;
  if (held.reads === 0) void held.open.handle.close();
}

type Outcome = { value: unknown } | { error: unknown };

export async function createLibraryCache(opts: {
  index: LibraryStore;
  logger?: Logger;
  pollMs?: number;
  /** How long items stay in memory after the last function of the whole index that needed them. */
  keepItemsMs?: number;
}): Promise<LibraryCache> {
  let current: Held | null = null;
  let stamp = '';
  let version = 0;
  let memo = new Map<string, unknown>();
  /** Every value asked for since the last index: recomputed as soon as a new index arrives. */
  let wanted = new Map<string, Compute<unknown>>();
  let asked = new Set<string>();
  const computing = new Map<string, Promise<unknown>>();
  /** The current index's items, kept a while for functions of the whole index. */
  let items: { version: number; items: IndexItem[] } | undefined;
  let checking: Promise<void> | undefined;
  let dropTimer: NodeJS.Timeout | undefined;
  const listeners = new Set<IndexListener>();
  let closed = false;

  function dropItemsLater() {
    clearTimeout(dropTimer);
    dropTimer = setTimeout(() => {
      items = undefined;
      collect();
    }, opts.keepItemsMs ?? 5000);
    dropTimer.unref();
  }

  /** Every value of `keys` from one read of the index (none when `held` is null: no index yet). */
  async function computeAll(
    keys: [string, Compute<unknown>][],
    held: Held | null,
    ver: number,
  ): Promise<{ outcomes: Map<string, Outcome>; files: number | null }> {
    const outcomes = new Map<string, Outcome>();
    const passes: [string, IndexPass<unknown>][] = [];
    const whole: [string, (index: LibraryIndex | null) => unknown][] = [];
    for (const [key, compute] of keys) {
      if (typeof compute === 'function') whole.push([key, compute]);
      else {
        try {
          passes.push([key, compute.pass()]);
        } catch (error) {
          outcomes.set(key, { error });
        }
      }
    }
    const reuse = items?.version === ver ? items.items : undefined;
    const gather: IndexItem[] | undefined = whole.length > 0 && !reuse && held ? [] : undefined;
    let files: number | null = null;
    if (held && (passes.length > 0 || gather)) {
      files = 0;
      const live = [...passes];
      await reading(held, (open) =>
        streamItems(open, (item, start, end) => {
          files!++;
          for (let i = 0; i < live.length; i++) {
            try {
              live[i]![1].add(item, start, end);
            } catch (error) {
              outcomes.set(live[i]![0], { error });
              live.splice(i--, 1);
            }
          }
          gather?.push(item);
        }),
      );
    }
    const header = held?.open.header ?? null;
    for (const [key, pass] of passes) {
      if (outcomes.has(key)) continue;
      try {
        outcomes.set(key, { value: pass.finish(header, ver) });
      } catch (error) {
        outcomes.set(key, { error });
      }
      collect();
    }
    if (whole.length > 0) {
      if (gather) items = { version: ver, items: gather };
      const index = held ? { ...held.open.header, items: reuse ?? gather! } : null;
      for (const [key, compute] of whole) {
        try {
          outcomes.set(key, { value: compute(index) });
        } catch (error) {
          outcomes.set(key, { error });
        }
        collect();
      }
      dropItemsLater();
    }
    return { outcomes, files };
  }

  /**
   * Takes a changed file as the new version once every value asked for under the previous one is
   * rebuilt from it, in one read; until then requests keep getting the previous answers. With
   * nothing asked for, the header alone: the answer to a library scan does not wait for values
   * nobody wants.
   */
  async function load() {
    const open = await opts.index.open();
    const now = open?.stamp ?? 'missing';
    if (now === stamp) {
      await open?.handle.close();
      return;
    }
    const held: Held | null = open && { open, reads: 0, retired: false };
    const ver = version + 1;
    const keys = [...asked].flatMap((key): [string, Compute<unknown>][] => {
      const compute = wanted.get(key);
      return compute ? [[key, compute]] : [];
    });
    let rebuilt: Awaited<ReturnType<typeof computeAll>>;
    try {
      rebuilt = await computeAll(keys, held, ver);
    } catch (err) {
      retire(held);
      throw err;
    }
    if (closed) {
      retire(held);
      return;
    }
    // What was asked for under the previous index is ready now, so requests keep finding it;
    // what nobody asked for since is forgotten, which bounds the memos.
    const next = new Map<string, unknown>();
    for (const [key, outcome] of rebuilt.outcomes) {
      if ('value' in outcome) next.set(key, outcome.value);
      else opts.logger?.error({ err: outcome.error, key }, 'could not compute a view of the library index');
    }
    retire(current);
    current = held;
    stamp = now;
    version = ver;
    if (items && items.version !== ver) items = undefined;
    wanted = new Map(keys);
    asked = new Set();
    memo = next;
    opts.logger?.info({ files: rebuilt.files, version, views: next.size }, 'library index loaded');
    for (const l of listeners) {
      try {
        l(open?.header ?? null, version);
      } catch (err) {
        opts.logger?.error({ err }, 'library index listener failed');
      }
    }
  }

  async function check() {
    if ((await opts.index.stamp()) === stamp) return;
    try {
      await load();
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
    header: () => current?.open.header ?? null,
    derive<T>(key: string, compute: Compute<T>): Promise<T> {
      wanted.set(key, compute);
      asked.add(key);
      if (memo.has(key)) return Promise.resolve(memo.get(key) as T);
      // Concurrent first requests share one computation: each of its own would hold its own
      // copy of the answer's intermediate data at once.
      let pending = computing.get(key) as Promise<T> | undefined;
      if (!pending) {
        pending = (async () => {
          for (;;) {
            const ver = version;
            const { outcomes } = await computeAll([[key, compute]], current, ver);
            // A newer index arrived meanwhile: its load computed this key, or it is computed again from it.
            if (version !== ver) {
              if (memo.has(key)) return memo.get(key) as T;
              continue;
            }
            const outcome = outcomes.get(key)!;
            if ('error' in outcome) throw outcome.error;
            memo.set(key, outcome.value);
            return outcome.value as T;
          }
        })().finally(() => computing.delete(key));
        computing.set(key, pending);
      }
      return pending;
    },
    async itemsAt(ver, spans) {
      const held = current;
      if (ver !== version || !held) return null;
      return reading(held, (open) => itemsAt(open, spans));
    },
    refresh,
    version: () => version,
    onIndex(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      clearInterval(timer);
      clearTimeout(dropTimer);
      items = undefined;
      wanted = new Map();
      retire(current);
      current = null;
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
