/** One entry of GET /api/releases (CONTRACT.md). */
export interface Release {
  series: string;
  season: number;
  episode: number;
  status: 'missing' | 'upcoming';
  air_date: string | null;
  title: string | null;
  source: string;
}

/** How a release provider fared for one answer; reported beside the list instead of failing it. */
export interface ProviderStatus {
  name: string;
  ok: boolean;
  /** The first failure, naming the series; null when none failed. */
  error: string | null;
  /** Series asked about. */
  shows: number;
  /** Series the provider knows, and those it does not. */
  matched: number;
  unmatched: number;
  /** Series whose last look-up failed. */
  failed: number;
  /** Series not looked up yet: over this answer's limit or time, or still under way. */
  pending: number;
}

// One collator: localeCompare with options builds one per call, which dominates large sorts.
const collator = new Intl.Collator('en', { sensitivity: 'base' });
export const compareTitles = collator.compare;

export function byEpisode(a: Release, b: Release): number {
  return compareTitles(a.series, b.series) || a.season - b.season || a.episode - b.episode;
}

/** Today's date as air dates are written, YYYY-MM-DD (UTC). */
export function utcToday(now = Date.now()): string {
  return new Date(now).toISOString().slice(0, 10);
}
