import type { IndexItem, LibraryIndex } from '@mo/shared';
import { streamItems, type IndexHeader, type OpenIndex } from './index-store.ts';

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

export type Outcome = { value: unknown } | { error: unknown };

/**
 * Building an answer from 100,000 items leaves tens of megabytes of garbage; collected at once,
 * the next build reuses that heap instead of growing it (and the RSS that never shrinks back).
 * Only where the process was started with --expose-gc, as start:api does.
 */
export function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** An open index file, closed once it is replaced and no read of it is under way. */
export interface Held {
  open: OpenIndex;
  reads: number;
  retired: boolean;
}

export async function reading<T>(held: Held, read: (open: OpenIndex) => Promise<T>): Promise<T> {
  held.reads++;
  try {
    return await read(held.open);
  } finally {
    if (--held.reads === 0 && held.retired) void held.open.handle.close();
  }
}

export function retire(held: Held | null) {
  if (!held) return;
  held.retired = true;
  if (held.reads === 0) void held.open.handle.close();
}

/** The current index's items, kept a while after a function of the whole index needed them, for the next such function. */
export interface KeptItems {
  /** The items of index `version`, if they are kept. */
  of(version: number): IndexItem[] | undefined;
  keep(version: number, items: IndexItem[]): void;
  /** Drops them `ms` after the last function of the whole index that needed them. */
  dropLater(): void;
  /** Drops items kept for any index but `version`. */
  dropOthers(version: number): void;
  clear(): void;
}

export function keptItems(ms: number): KeptItems {
  let kept: { version: number; items: IndexItem[] } | undefined;
  let timer: NodeJS.Timeout | undefined;
  return {
    of: (version) => (kept?.version === version ? kept.items : undefined),
    keep(version, items) {
      kept = { version, items };
    },
    dropLater() {
      clearTimeout(timer);
      timer = setTimeout(() => {
        kept = undefined;
        collect();
      }, ms);
      timer.unref();
    },
    dropOthers(version) {
      if (kept && kept.version !== version) kept = undefined;
    },
    clear() {
      clearTimeout(timer);
      kept = undefined;
    },
  };
}

type Keyed<T> = [string, T];

/** The values to compute, by kind: passes started (a pass that fails to start is an outcome already), and functions of the whole index. */
export function sortComputes(keys: readonly Keyed<Compute<unknown>>[]): {
  passes: Keyed<IndexPass<unknown>>[];
  whole: Keyed<(index: LibraryIndex | null) => unknown>[];
  outcomes: Map<string, Outcome>;
} {
  const outcomes = new Map<string, Outcome>();
  const passes: Keyed<IndexPass<unknown>>[] = [];
  const whole: Keyed<(index: LibraryIndex | null) => unknown>[] = [];
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
  return { passes, whole, outcomes };
}

/** Each value's outcome: what `make` returns, or what it throws. The garbage of each is collected before the next. */
function settle<T>(outcomes: Map<string, Outcome>, entries: readonly Keyed<T>[], make: (t: T) => unknown): void {
  for (const [key, t] of entries) {
    if (outcomes.has(key)) continue;
    try {
      outcomes.set(key, { value: make(t) });
    } catch (error) {
      outcomes.set(key, { error });
    }
    collect();
  }
}

/**
 * Every item of the index past each pass (a pass that throws is dropped with its error) and into
 * `gather` when given; how many items there were.
 */
async function streamPasses(
  held: Held,
  passes: readonly Keyed<IndexPass<unknown>>[],
  outcomes: Map<string, Outcome>,
  gather: IndexItem[] | undefined,
): Promise<number> {
  let files = 0;
  const live = [...passes];
  await reading(held, (open) =>
    streamItems(open, (item, start, end) => {
      files++;
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
  return files;
}

/**
 * Every value of `keys` of index `version` from one read of it (none when `held` is null: no index
 * yet): the passes see the items stream past, the functions of the whole index get the items kept
 * for it or gathered on the way.
 */
export async function computeAll(
  keys: readonly Keyed<Compute<unknown>>[],
  held: Held | null,
  version: number,
  kept: KeptItems,
): Promise<{ outcomes: Map<string, Outcome>; files: number | null }> {
  const { passes, whole, outcomes } = sortComputes(keys);
  const reuse = kept.of(version);
  const gather: IndexItem[] | undefined = whole.length > 0 && !reuse && held ? [] : undefined;
  const files = held && (passes.length > 0 || gather) ? await streamPasses(held, passes, outcomes, gather) : null;
  const header = held?.open.header ?? null;
  settle(outcomes, passes, (pass) => pass.finish(header, version));
  if (whole.length > 0) {
    if (gather) kept.keep(version, gather);
    const index = held ? { ...held.open.header, items: reuse ?? gather! } : null;
    settle(outcomes, whole, (compute) => compute(index));
    kept.dropLater();
  }
  return { outcomes, files };
}
