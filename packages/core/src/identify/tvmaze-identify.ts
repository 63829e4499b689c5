import { z } from 'zod';
import { titleKey, type TitleKey } from '../parse/title-key.ts';
import { seriesCountryOfIso } from '../parse/countries.ts';
import { MAX_SEGMENT } from '../parse/prepare.ts';
import { createLimiter } from '../releases/limiter.ts';
import { tvmazeGet, type TvmazeGet } from '../releases/tvmaze-client.ts';
import { MAX_CACHED_SEASONS, type CacheEntry, type IdentifyCacheStore } from './identify-cache.ts';
import type { IdentifiedSeries, PassOptions, SeasonEpisodes, SeriesIdentifier } from './identify.ts';

// Only what the rules read; TVmaze sends much more, which zod drops.
const countrySchema = z.object({ code: z.string() }).nullish();
const showSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  premiered: z.string().nullish(),
  network: z.object({ country: countrySchema }).nullish(),
  webChannel: z.object({ country: countrySchema }).nullish(),
});
type Show = z.infer<typeof showSchema>;
const searchSchema = z.array(z.object({ show: showSchema }));
const akasSchema = z.array(z.object({ name: z.string() }));
const episodesSchema = z.array(
  z.object({
    season: z.number().int(),
    /** Null for specials, which TVmaze numbers apart from the seasons. */
    number: z.number().int().nullable(),
    type: z.string().nullish(),
  }),
);

/** Search results weighed: TVmaze answers ten at most. */
const MAX_RESULTS = 10;
/** Results whose other names are asked for: each is a request, and the show meant ranks near the top. */
const AKA_LOOKUPS = 3;
// A search or a list of other names is a few kilobytes; an episode list keeps the client's bound.
const SEARCH_MAX_BYTES = 1024 * 1024;
const AKAS_MAX_BYTES = 256 * 1024;
/** Absolute numbers asked at once: an episode file holds a few. */
const MAX_ABSOLUTE = 16;
const MAX_EPISODE_NUMBER = 100_000;
/** Far above what the entry bound lets the cache write; a larger file is someone else's. */
const CACHE_MAX_BYTES = 16 * 1024 * 1024;

export interface TvmazeIdentifyOptions {
  /** Where answers are kept (`DataStores.identifyCache()`). */
  cache: IdentifyCacheStore;
  /** How long a show found, or an episode list, is reused. */
  hitTtlMs: number;
  /** How long "no show", "several shows" or a number past the list's end is believed. */
  missTtlMs: number;
  /** Per HTTP request; the pass's budget may cut it shorter. */
  timeoutMs: number;
  /** Least time between two requests: TVmaze allows about 20 calls per 10 s. */
  minIntervalMs: number;
  maxCacheEntries: number;
  /** The clock cache entries are dated by. */
  now: () => number;
}

export const TVMAZE_IDENTIFY_DEFAULTS: Omit<TvmazeIdentifyOptions, 'cache'> = {
  hitTtlMs: 7 * 24 * 3600_000,
  missTtlMs: 24 * 3600_000,
  timeoutMs: 5000,
  minIntervalMs: 500,
  maxCacheEntries: 2000,
  now: Date.now,
};

/** `release_providers.tvmaze`: `url`, and `allow_private` to let it reach a private address. */
export interface IdentifySource {
  url: string;
  allowPrivate: boolean;
}

export interface TvmazeIdentifier {
  /** The identifier one pass uses, against the provider URL of that pass's config. */
  forPass(source: IdentifySource, pass: PassOptions): SeriesIdentifier;
}

function premieredYear(show: Show): number | null {
  const m = /^(\d{4})-/.exec(show.premiered ?? '');
  return m ? Number(m[1]) : null;
}

function showCountry(show: Show): string | null {
  const code = show.network?.country?.code ?? show.webChannel?.country?.code ?? null;
  return code === null ? null : seriesCountryOfIso(code);
}

/**
 * Whether `name`, one of the show's names, is the title asked: the same key as titles compare
 * (case, accents, punctuation, leading article), and when the title gives a year or a country the
 * show must be known to have the same; not knowing it is no fit.
 */
function fits(show: Show, name: string, asked: TitleKey): boolean {
  if (name.length > MAX_SEGMENT) return false;
  const k = titleKey(name);
  if (k.key !== asked.key) return false;
  if (asked.year !== null && (k.year ?? premieredYear(show)) !== asked.year) return false;
  return asked.country === null || (k.country ?? showCountry(show)) === asked.country;
}

/**
 * The one show the title names, or null. The search's top results are weighed by their names, and
 * the first few of them by their other names too (`Sousou no Frieren` is TVmaze's
 * `Frieren: Beyond Journey's End`): exactly one show must fit, else null. Throws what the provider
 * failed with.
 */
async function lookUpSeries(get: TvmazeGet, title: string, asked: TitleKey, signal: AbortSignal): Promise<IdentifiedSeries | null> {
  const results = (await get(`/search/shows?q=${encodeURIComponent(title.trim())}`, searchSchema, { maxBytes: SEARCH_MAX_BYTES, signal })) ?? [];
  const shows = results.slice(0, MAX_RESULTS).map((r) => r.show);
  const fitting = new Map(shows.filter((s) => fits(s, s.name, asked)).map((s) => [s.id, s]));
  for (const show of shows.slice(0, AKA_LOOKUPS)) {
    if (fitting.size > 1) break;
    if (fitting.has(show.id)) continue;
    const akas = (await get(`/shows/${show.id}/akas`, akasSchema, { maxBytes: AKAS_MAX_BYTES, signal })) ?? [];
    if (akas.some((a) => fits(show, a.name, asked))) fitting.set(show.id, show);
  }
  if (fitting.size !== 1) return null;
  const [show] = fitting.values();
  return { provider: 'tvmaze', id: show!.id, title: show!.name, year: premieredYear(show!) };
}

/**
 * Episodes per season, for as many seasons from the first as number their regular episodes
 * surely: seasons 1, 2, 3, … each with episodes 1, 2, 3, … and no gap or repeat. Counting past a
 * season that is not so (a missing episode, a season 0 or one skipped) would shift every later
 * number, so the count stops before it. Specials (no number, or a type other than regular) are not
 * counted, as absolute numbering leaves them out.
 */
export function seasonCounts(episodes: readonly { season: number; number: number | null; type?: string | null }[]): number[] {
  const bySeason = new Map<number, number[]>();
  for (const e of episodes) {
    if (e.number === null || (e.type ?? 'regular') !== 'regular') continue;
    const numbers = bySeason.get(e.season);
    if (numbers) numbers.push(e.number);
    else bySeason.set(e.season, [e.number]);
  }
  const counts: number[] = [];
  for (let season = 1; season <= MAX_CACHED_SEASONS; season++) {
    const numbers = bySeason.get(season)?.sort((a, b) => a - b);
    if (!numbers || numbers.some((n, i) => n !== i + 1)) break;
    counts.push(numbers.length);
  }
  return counts;
}

/** The one season all the numbers fall in, or null: across seasons, or past the last one counted. */
export function mapAbsolute(counts: readonly number[], absolute: readonly number[]): SeasonEpisodes | null {
  let first = 1;
  for (const [i, count] of counts.entries()) {
    const last = first + count - 1;
    if (absolute.every((n) => n >= first && n <= last)) return { season: i + 1, episodes: absolute.map((n) => n - first + 1) };
    first = last + 1;
  }
  return null;
}

/**
 * Series names and absolute numbers through TVmaze, for the scanner. Answers are kept in
 * `<paths.data>/metadata/tvmaze-cache.json`: a show found and an episode list for `hitTtlMs`, an
 * answer of no show or several for `missTtlMs`; a failure (down, slow, refused, an answer that is
 * not TVmaze's) is never kept. All requests go through one rate limit, over every pass.
 */
export function createTvmazeIdentifier(options: Partial<TvmazeIdentifyOptions> & { cache: IdentifyCacheStore }): TvmazeIdentifier {
  const o: TvmazeIdentifyOptions = { ...TVMAZE_IDENTIFY_DEFAULTS, ...options };
  const schedule = createLimiter({ concurrency: 1, minIntervalMs: o.minIntervalMs });
  const cache = o.cache.open({ maxEntries: o.maxCacheEntries, maxFileBytes: CACHE_MAX_BYTES, maxAgeMs: o.hitTtlMs, now: o.now });

  const age = (e: CacheEntry) => o.now() - e.at;
  // An entry dated in the future (a clock set back) is as good as none.
  const within = (e: CacheEntry, ttl: number) => age(e) >= 0 && age(e) < ttl;

  return {
    forPass(source, { budget, warn }) {
      const get = tvmazeGet({ baseUrl: source.url, timeoutMs: o.timeoutMs, schedule, allowPrivate: source.allowPrivate });
      let toldSpent = false;
      const record = o.cache.failures.record(warn, o.now);

      /** Runs one look-up inside what is left of the pass's budget; undefined when it failed or ran out. */
      async function budgeted<T>(lookUp: (signal: AbortSignal) => Promise<T>): Promise<{ value: T } | undefined> {
        const left = budget.leftMs();
        if (left <= 0) {
          if (!toldSpent) warn(`tvmaze: the pass's ${budget.totalMs} ms for provider look-ups are spent; further names are left to the library and aliases`);
          toldSpent = true;
          return undefined;
        }
        const stop = new AbortController();
        const end = budget.begin();
        let timer: NodeJS.Timeout | undefined;
        // The request may still sit behind the rate limit: the answer must not wait for it.
        const outOfTime = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            const why = new Error(`the pass's ${budget.totalMs} ms for provider look-ups ran out`);
            stop.abort(why);
            reject(why);
          }, left);
        });
        const work = lookUp(stop.signal);
        try {
          const value = await Promise.race([work, outOfTime]);
          await record.succeeded();
          return { value };
        } catch (err) {
          const message = (err as Error).message.startsWith('tvmaze ') ? (err as Error).message : `tvmaze: ${(err as Error).message}`;
          warn(message);
          // The pass's budget running out says nothing of the provider.
          if (!stop.signal.aborted) await record.failed(message);
          return undefined;
        } finally {
          clearTimeout(timer);
          end();
          // Cut off by the budget, it fails later still; that is answered already.
          work.catch(() => {});
        }
      }

      return {
        async series(title, year) {
          const asked = titleKey(title, year);
          if (asked.key === '' || title.length > MAX_SEGMENT) return 'unknown';
          await cache.ready(warn);
          const key = JSON.stringify(['series', source.url, asked.key, asked.year, asked.country]);
          const hit = cache.get(key);
          if (hit?.answer.kind === 'series' && within(hit, hit.answer.show ? o.hitTtlMs : o.missTtlMs)) return hit.answer.show ?? 'unknown';
          const found = await budgeted((signal) => lookUpSeries(get, title, asked, signal));
          if (!found) return 'unknown';
          await cache.put(key, { kind: 'series', show: found.value }, warn);
          return found.value ?? 'unknown';
        },

        async absolute(show, absolute) {
          if (absolute.length === 0 || absolute.length > MAX_ABSOLUTE) return 'unknown';
          if (!absolute.every((n) => Number.isInteger(n) && n >= 1 && n <= MAX_EPISODE_NUMBER)) return 'unknown';
          if (show.provider !== 'tvmaze' || !Number.isInteger(show.id) || show.id < 1) return 'unknown';
          await cache.ready(warn);
          const key = JSON.stringify(['seasons', source.url, show.id]);
          const hit = cache.get(key);
          let counts: readonly number[] | undefined;
          if (hit?.answer.kind === 'seasons' && within(hit, hit.answer.seasons.length > 0 ? o.hitTtlMs : o.missTtlMs)) {
            const total = hit.answer.seasons.reduce((a, b) => a + b, 0);
            // A number past the list's end may be a new episode: the list is asked again once a miss would be.
            if (Math.max(...absolute) <= total || within(hit, o.missTtlMs)) counts = hit.answer.seasons;
          }
          if (!counts) {
            const listed = await budgeted(async (signal) => seasonCounts((await get(`/shows/${show.id}/episodes`, episodesSchema, { signal })) ?? []));
            if (!listed) return 'unknown';
            counts = listed.value;
            await cache.put(key, { kind: 'seasons', seasons: [...counts] }, warn);
          }
          return mapAbsolute(counts, absolute) ?? 'unknown';
        },
      };
    },
  };
}
