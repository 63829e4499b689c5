import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { removeStaleTemps, writeFileAtomic } from '../fs/atomic-write.ts';
import type { DataDir } from '../data-dir/data-dir.ts';
import { providerFailureStore, type ProviderFailureStore } from './provider-failure.ts';

/** The most seasons a show's numbering is kept for; a longer list is no anime's. */
export const MAX_CACHED_SEASONS = 200;

const identifiedSchema = z.object({
  provider: z.literal('tvmaze'),
  id: z.number().int().positive(),
  title: z.string(),
  year: z.number().int().nullable(),
});

const answerSchema = z.discriminatedUnion('kind', [
  /** `show` null: the provider knows no show, or several, of that name. */
  z.object({ kind: z.literal('series'), show: identifiedSchema.nullable() }),
  /** Episodes per season, seasons 1, 2, … in order; empty when the list numbers none surely. */
  z.object({ kind: z.literal('seasons'), seasons: z.array(z.number().int().min(1).max(100_000)).max(MAX_CACHED_SEASONS) }),
]);
export type CachedAnswer = z.infer<typeof answerSchema>;

const entrySchema = z.object({ key: z.string(), at: z.number(), answer: answerSchema });
export type CacheEntry = z.infer<typeof entrySchema>;

const fileSchema = z.object({ version: z.literal(1), entries: z.array(entrySchema) });

export interface IdentifyCacheOptions {
  /** Entries kept; past it the oldest written go first. */
  maxEntries: number;
  /** A file larger than this is not one this cache wrote. */
  maxFileBytes: number;
  /** Entries older than this are dropped when the file is written; no answer lives longer. */
  maxAgeMs: number;
  now: () => number;
}

export interface IdentifyCache {
  /**
   * Reads the file, once for the process: a file that cannot be read or is not this cache's is
   * reported through the first caller's `warn` and left to be replaced; the cache starts empty.
   */
  ready(warn: (message: string) => void): Promise<void>;
  get(key: string): CacheEntry | undefined;
  /** Keeps the answer and writes the file; a failed write is reported through `warn`, not thrown. */
  put(key: string, answer: CachedAnswer, warn: (message: string) => void): Promise<void>;
}

/** Where the look-ups are kept (`metadata/tvmaze-cache.json`), as the data folder hands it out (`DataStores.identifyCache()`). */
export interface IdentifyCacheStore {
  readonly file: string;
  /** The cache over that file: it reads the file once, so a process keeps one for as long as it runs. */
  open(opts: IdentifyCacheOptions): IdentifyCache;
  /** Since when the provider fails (`metadata/tvmaze-failing.json`), for the System page. */
  readonly failures: ProviderFailureStore;
}

export function identifyCacheStore(data: DataDir): IdentifyCacheStore {
  const file = data.path('identifyCache');
  return { file, open: (opts) => createIdentifyCache(file, opts), failures: providerFailureStore(data) };
}

/**
 * The look-ups of one provider, in one JSON file written whole and atomically. Several processes
 * sharing the data folder each keep their own copy and the last write wins: an entry lost that way
 * is only looked up again.
 */
export function createIdentifyCache(file: string, opts: IdentifyCacheOptions): IdentifyCache {
  const entries = new Map<string, CacheEntry>();
  let loading: Promise<void> | undefined;
  let writing: Promise<void> = Promise.resolve();

  async function read(): Promise<string | null> {
    await removeStaleTemps(file).catch(() => {});
    let text: string;
    try {
      const handle = await open(file, 'r');
      try {
        const { size } = await handle.stat();
        if (size > opts.maxFileBytes) return `${file}: larger than ${opts.maxFileBytes} bytes; ignored, it will be replaced`;
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      return `${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}; ignored, it will be replaced`;
    }
    let parsed: z.infer<typeof fileSchema>;
    try {
      parsed = fileSchema.parse(JSON.parse(text));
    } catch {
      return `${file}: not a look-up cache; ignored, it will be replaced`;
    }
    for (const e of parsed.entries.slice(-opts.maxEntries)) entries.set(e.key, e);
    return null;
  }

  async function write(): Promise<void> {
    const now = opts.now();
    for (const [key, e] of entries) if (now - e.at > opts.maxAgeMs) entries.delete(key);
    await mkdir(dirname(file), { recursive: true });
    await writeFileAtomic(file, JSON.stringify({ version: 1, entries: [...entries.values()] }));
  }

  return {
    ready(warn) {
      return (loading ??= read().then((problem) => {
        if (problem) warn(problem);
      }));
    },
    get(key) {
      return entries.get(key);
    },
    put(key, answer, warn) {
      // Deleted first so that the map's order stays the order of writing, oldest first.
      entries.delete(key);
      entries.set(key, { key, at: opts.now(), answer });
      for (const old of entries.keys()) {
        if (entries.size <= opts.maxEntries) break;
        entries.delete(old);
      }
      writing = writing.then(write).catch((err: NodeJS.ErrnoException) => warn(`${file}: not written: ${err.code ?? err.message}`));
      return writing;
    },
  };
}
