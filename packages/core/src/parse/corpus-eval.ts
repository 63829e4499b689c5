import type { ParsedMedia } from './release-name.ts';
// Scoring of a release-name parser against the hand-written corpus (corpus.json). Used by the
// corpus test and by bench/parse.bench.ts so that both apply exactly the same rules.

export interface CorpusExpected {
  kind: 'movie' | 'episode';
  title: string;
  year: number | null;
  season: number | null;
  episodes: number[];
  air_date: string | null;
  /** Anime absolute numbers; absent means []. */
  absolute_episodes?: number[];
  /** Movie edition; only present where the name carries one that a human would name. */
  edition?: string;
}

export interface CorpusEntry {
  name: string;
  expected: CorpusExpected;
}

/** What a parser under test must produce: ParsedMedia, where the baselines have no edition. */
export type ParsedForScoring = Omit<ParsedMedia, 'edition' | 'country'> & { edition?: string | null; country?: string | null };

export interface Score {
  episodes: number;
  /** Episodes with the right season + episode numbers (daily: air date; anime: absolute numbers). */
  episodeNumbers: number;
  /** Episodes with the exact series title. */
  episodeTitle: number;
  movies: number;
  /** Movies with the right title and year. */
  movieTitleYear: number;
  editions: number;
  editionRight: number;
  failures: { name: string; expected: CorpusExpected; got: ParsedForScoring | null; what: string }[];
}

export const GOALS = { episodeNumbers: 0.95, episodeTitle: 0.9, movieTitleYear: 0.95, usPerName: 20 };

/** "Exact title": case-insensitive after collapsing whitespace, nothing more lenient. */
export function sameTitle(a: string, b: string): boolean {
  return a.replace(/\s+/g, ' ').trim().toLowerCase() === b.replace(/\s+/g, ' ').trim().toLowerCase();
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

export function scoreCorpus(
  corpus: readonly CorpusEntry[],
  parse: (name: string) => ParsedForScoring | null,
): Score {
  const s: Score = {
    episodes: 0,
    episodeNumbers: 0,
    episodeTitle: 0,
    movies: 0,
    movieTitleYear: 0,
    editions: 0,
    editionRight: 0,
    failures: [],
  };
  for (const { name, expected: e } of corpus) {
    const got = parse(name);
    if (e.kind === 'episode') {
      s.episodes++;
      const ok =
        got !== null &&
        got.kind === 'episode' &&
        got.season === e.season &&
        sameNumbers(got.episodes, e.episodes) &&
        got.air_date === e.air_date &&
        sameNumbers(got.absolute_episodes, e.absolute_episodes ?? []);
      const titleOk = got !== null && got.kind === 'episode' && sameTitle(got.title, e.title);
      if (ok) s.episodeNumbers++;
      if (titleOk) s.episodeTitle++;
      if (!ok || !titleOk) {
        s.failures.push({ name, expected: e, got, what: !ok ? (titleOk ? 'numbers' : 'numbers+title') : 'title' });
      }
    } else {
      s.movies++;
      const ok = got !== null && got.kind === 'movie' && sameTitle(got.title, e.title) && got.year === e.year;
      if (ok) s.movieTitleYear++;
      else s.failures.push({ name, expected: e, got, what: 'movie' });
      if (e.edition !== undefined) {
        s.editions++;
        if (got?.edition === e.edition) s.editionRight++;
        else if (ok) s.failures.push({ name, expected: e, got, what: 'edition' });
      }
    }
  }
  return s;
}

export function ratios(s: Score): { episodeNumbers: number; episodeTitle: number; movieTitleYear: number; edition: number } {
  return {
    episodeNumbers: s.episodes === 0 ? 1 : s.episodeNumbers / s.episodes,
    episodeTitle: s.episodes === 0 ? 1 : s.episodeTitle / s.episodes,
    movieTitleYear: s.movies === 0 ? 1 : s.movieTitleYear / s.movies,
    edition: s.editions === 0 ? 1 : s.editionRight / s.editions,
  };
}
