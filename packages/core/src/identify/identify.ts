import type { Config } from '@mo/shared';
import type { TvmazeIdentifier } from './tvmaze-identify.ts';

/**
 * A show as the metadata provider names it. `title` is the provider's text as it came: it may hold
 * `/`, `:` or control characters, so a caller must never join it into a path itself but render it
 * through the templates (`renderTemplate` makes each folder and file name `safeName`'s).
 */
export interface IdentifiedSeries {
  provider: 'tvmaze';
  id: number;
  title: string;
  /** The year the show premiered, or null when the provider gives none. */
  year: number | null;
}

/** Where absolute episode numbers fall: one season, its episode numbers in the order asked. */
export interface SeasonEpisodes {
  season: number;
  episodes: number[];
}

/**
 * What the scanner asks a metadata provider. Every answer is sure or 'unknown': a provider that is
 * down, slow, out of time for the pass or unsure (several shows fit) answers 'unknown', never
 * throws, and the library and aliases alone decide.
 */
export interface SeriesIdentifier {
  /** The one show of this title (and premiere year, when given) the provider knows. */
  series(title: string, year: number | null): Promise<IdentifiedSeries | 'unknown'>;
  /** Absolute episode numbers as season and episodes, when all of them fall in one season. */
  absolute(show: IdentifiedSeries, absolute: readonly number[]): Promise<SeasonEpisodes | 'unknown'>;
}

/** The most a pass waits on providers in all (CONTRACT.md: a pass is delayed by 30 s at most). */
export const IDENTIFY_PASS_BUDGET_MS = 30_000;

/**
 * The time one pass may spend waiting on providers. It counts the time during which at least one
 * look-up waits (queued behind the rate limit or on the network), so look-ups run side by side
 * never delay the pass by more than the budget in all.
 */
export interface IdentifyBudget {
  readonly totalMs: number;
  leftMs(): number;
  /** A look-up starts waiting; call what it returns when it stops. */
  begin(): () => void;
}

export function createIdentifyBudget(totalMs = IDENTIFY_PASS_BUDGET_MS, now: () => number = () => performance.now()): IdentifyBudget {
  let spent = 0;
  let waiting = 0;
  let since = 0;
  return {
    totalMs,
    leftMs: () => totalMs - spent - (waiting > 0 ? now() - since : 0),
    begin() {
      if (waiting++ === 0) since = now();
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        if (--waiting === 0) spent += now() - since;
      };
    },
  };
}

export interface PassOptions {
  /** One per pass, made by the caller. */
  budget: IdentifyBudget;
  /** Why a look-up answered 'unknown' when the provider failed, and a cache file that was ignored. */
  warn: (message: string) => void;
}

/** The identifier `[metadata] identify` asks for, or null when it names no provider. */
export function seriesIdentifierFor(cfg: Config, tvmaze: TvmazeIdentifier, pass: PassOptions): SeriesIdentifier | null {
  if (!cfg.metadata.identify.includes('tvmaze')) return null;
  const { url, allow_private: allowPrivate } = cfg.release_providers.tvmaze;
  return tvmaze.forPass({ url, allowPrivate }, pass);
}
