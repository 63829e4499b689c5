import { identityOf, titleKey } from '../parse/title-key.ts';
import { createLimiter } from './limiter.ts';
import { byEpisode, type ProviderStatus, type Release } from './release.ts';
import type { LibrarySeries } from './series-catalogue.ts';
import { tvmazeClient, type TvmazeEpisode, type TvmazeShow } from './tvmaze-client.ts';
import { tvmazeReleases } from './tvmaze-releases.ts';

export interface TvmazeProviderOptions {
  /** How long a show's episode list is reused. */
  ttlMs: number;
  /** How long a failed look-up is left alone before it is tried again. */
  failureTtlMs: number;
  /** Per HTTP request. */
  timeoutMs: number;
  /** HTTP requests at once, over all answers. */
  concurrency: number;
  /** Least time between two HTTP requests: TVmaze allows about 20 calls per 10 s. */
  minIntervalMs: number;
  /** Shows one answer starts looking up; the rest wait for later answers. */
  maxShowsPerRequest: number;
  /** How long one answer waits for its look-ups; those still under way finish for the next one. */
  budgetMs: number;
  now: () => number;
}

export const TVMAZE_DEFAULTS: TvmazeProviderOptions = {
  ttlMs: 6 * 3600_000,
  failureTtlMs: 5 * 60_000,
  timeoutMs: 5000,
  concurrency: 2,
  minIntervalMs: 500,
  maxShowsPerRequest: 10,
  budgetMs: 8000,
  now: Date.now,
};

export interface ProviderAnswer {
  releases: Release[];
  status: ProviderStatus;
}

export interface ProviderSource {
  /** `release_providers.tvmaze.allow_private`: off, only public addresses are connected to. */
  allowPrivate?: boolean;
}

export interface TvmazeProvider {
  /** Missing and upcoming episodes TVmaze knows for these series; never rejects, failures are in `status`. */
  releases(url: string, series: readonly LibrarySeries[], today: string, source?: ProviderSource): Promise<ProviderAnswer>;
}

interface Entry {
  data?: { at: number; show: TvmazeShow | null; episodes: TvmazeEpisode[] };
  error?: { at: number; message: string };
  pending?: Promise<void>;
}

const failing = (e: Entry | undefined): e is Entry & { error: NonNullable<Entry['error']> } => !!e?.error && (!e.data || e.error.at > e.data.at);

/**
 * TVmaze behind an in-memory cache: each series is looked up (show, then its episodes) at most once
 * per `ttlMs`, failures at most once per `failureTtlMs`, with every HTTP request through one
 * limiter. An answer uses whatever the cache holds once its own look-ups are done or its budget is
 * spent, a stale list included while its refresh fails.
 */
export function createTvmazeProvider(options: Partial<TvmazeProviderOptions> = {}): TvmazeProvider {
  const o = { ...TVMAZE_DEFAULTS, ...options };
  const schedule = createLimiter(o);
  const cache = new Map<string, Entry>();
  // Bumped whenever the cache changes, so an answer is rebuilt only when something is new.
  let generation = 0;
  let memo: { origin: string; series: readonly LibrarySeries[]; today: string; generation: number; answer: ProviderAnswer } | undefined;

  // A refusal to connect under one `allowPrivate` says nothing about the other: both are in the key.
  const keyOf = (origin: string, s: LibrarySeries) => JSON.stringify([origin, identityOf(titleKey(s.title)), s.year, s.nfoTitle, s.ids]);

  function due(e: Entry | undefined, now: number): boolean {
    if (!e) return true;
    if (e.pending) return false;
    if (failing(e)) return now - e.error.at >= o.failureTtlMs;
    return !e.data || now - e.data.at >= o.ttlMs;
  }

  function lookUp(client: ReturnType<typeof tvmazeClient>, key: string, s: LibrarySeries): Promise<void> {
    let entry = cache.get(key);
    if (!entry) cache.set(key, (entry = {}));
    const e = entry;
    e.pending = (async () => {
      try {
        const show = await client.findShow({ title: s.nfoTitle ?? s.title, year: s.year, ids: s.ids });
        e.data = { at: o.now(), show, episodes: show ? await client.episodes(show.id) : [] };
      } catch (err) {
        e.error = { at: o.now(), message: (err as Error).message };
      } finally {
        e.pending = undefined;
        generation++;
      }
    })();
    return e.pending;
  }

  function sweep(now: number) {
    for (const [k, e] of cache) {
      const newest = Math.max(e.data?.at ?? -Infinity, e.error?.at ?? -Infinity);
      if (!e.pending && now - newest > 2 * o.ttlMs) cache.delete(k);
    }
  }

  function answer(series: readonly LibrarySeries[], keys: string[], today: string): ProviderAnswer {
    const releases: Release[] = [];
    const status: ProviderStatus = { name: 'tvmaze', ok: true, error: null, shows: series.length, matched: 0, unmatched: 0, failed: 0, pending: 0 };
    series.forEach((s, i) => {
      const e = cache.get(keys[i]!);
      if (e?.data?.show) {
        status.matched++;
        releases.push(...tvmazeReleases(s, e.data.episodes, today));
      } else if (e?.data) status.unmatched++;
      if (failing(e)) {
        status.failed++;
        status.error ??= `${s.title}: ${e.error.message}`;
      } else if (!e?.data) status.pending++;
    });
    status.ok = status.failed === 0;
    return { releases: releases.sort(byEpisode), status };
  }

  return {
    async releases(url, series, today, source = {}) {
      const allowPrivate = source.allowPrivate ?? false;
      const origin = JSON.stringify([url, allowPrivate]);
      const client = tvmazeClient({ baseUrl: url, timeoutMs: o.timeoutMs, schedule, allowPrivate });
      const now = o.now();
      sweep(now);
      const keys = series.map((s) => keyOf(origin, s));
      let started = 0;
      for (let i = 0; i < series.length && started < o.maxShowsPerRequest; i++) {
        if (!due(cache.get(keys[i]!), now)) continue;
        void lookUp(client, keys[i]!, series[i]!);
        started++;
      }
      const waits = keys.flatMap((k) => cache.get(k)?.pending ?? []);
      if (waits.length > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([Promise.all(waits), new Promise((r) => (timer = setTimeout(r, o.budgetMs)))]);
        clearTimeout(timer);
      }
      if (memo?.origin !== origin || memo.series !== series || memo.today !== today || memo.generation !== generation) {
        memo = { origin, series, today, generation, answer: answer(series, keys, today) };
      }
      return memo.answer;
    },
  };
}
