// Scoring of a release-name parser against a labelled corpus in the shape of
// shared/corpus/release-names.dev.json (and of our own regression corpus, corpus.json): only the
// fields a case labels are scored, and an answer is either right, a refusal (null), or wrong. Used
// by the corpus tests and by bench/parse.bench.ts, so that both apply exactly the same rules.
import type { ParsedMedia } from './release-name.ts';

export interface CaseExpect {
  kind?: 'movie' | 'episode' | null;
  title?: string | null;
  year?: number | null;
  season?: number | null;
  episodes?: number[];
  absolute?: number[];
  air_date?: string | null;
  edition?: string | null;
  country?: string | null;
}

export interface CorpusCase {
  name: string;
  source?: string;
  expect: CaseExpect;
  /** Categories for per-category figures (shared/corpus/README.md lists them). */
  tags?: string[];
}

/** What a parser under test must produce; the baselines have no edition. */
export type ParsedForScoring = Omit<ParsedMedia, 'edition' | 'country' | 'year_after_episode'> & { edition?: string | null; country?: string | null };

export type Verdict = 'right' | 'refused' | 'wrong';

/** The goals of the public corpus (issue "Recognise real-world names"). */
export const GOALS = {
  seasonEpisode: 0.97,
  seriesTitle: 0.95,
  movieTitleYear: 0.96,
  daily: 0.92,
  absolute: 0.9,
  nonVideoRefused: 0.8,
  maxWrong: 0.01,
  usPerName: 10,
} as const;

/** The headline figures, each over the cases that label what it measures. */
export const METRICS = {
  seasonEpisode: 'season/episode',
  seriesTitle: 'series title',
  movieTitleYear: 'movie title+year',
  daily: 'daily air date',
  absolute: 'absolute number',
  nonVideoRefused: 'non-video refused',
} as const;
export type Metric = keyof typeof METRICS;

/**
 * How the corpus's labels and the parser's titles compare: case-insensitively after `.`, `_`, `-`
 * and runs of spaces become one space and `'`, `:`, `!`, `,` are dropped, since sources clean titles
 * differently (`Marvels Agents of S.H.I.E.L.D.` / `Marvel's Agents of S H I E L D`). Stricter than
 * the title key (parse/title-key.ts) on purpose: the parser's title names a new folder, so an
 * article or accent it lost is a wrong answer even where the key would still find the folder.
 */
function labelForm(title: string): string {
  return title
    .toLowerCase()
    .replace(/['’:!,]/g, '')
    .replace(/[._\-\s]+/g, ' ')
    .trim();
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * Sources that keep a country suffix in the series title (`Riverdale US`) label what a parser with
 * a country field answers as title and country (`Riverdale`, `US`); the corpus README lists this
 * among the conventions its sources differ on. Either spelling names the folder `Riverdale (US)`.
 */
function sameSeriesTitle(expected: string, got: ParsedForScoring): boolean {
  if (labelForm(expected) === labelForm(got.title)) return true;
  // The code as a code, in capitals: a label `This Is Us` is no `This Is` of country US.
  const suffix = got.country == null ? null : new RegExp(`^(.*\\S)[\\s.]+\\(?${got.country}\\)?$`).exec(expected);
  return suffix !== null && labelForm(suffix[1]!) === labelForm(got.title);
}

/** Each labelled field of one case: right or wrong (only when the parser answered). */
export function fieldVerdicts(e: CaseExpect, got: ParsedForScoring): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  if (e.kind !== undefined) out.kind = e.kind === got.kind;
  if (e.title !== undefined) out.title = e.title !== null && sameSeriesTitle(e.title, got);
  if (e.year !== undefined) out.year = e.year === got.year;
  if (e.air_date !== undefined) out.air_date = e.air_date === got.air_date;
  const seasonless = got.season === null;
  if (e.season !== undefined) out.season = e.season === got.season;
  if (e.episodes !== undefined) {
    // A season-less number is the same fact whether a parser calls it an episode or an absolute
    // number: sources that label it as an episode (`episodes: [n]`, no season) label no absolute.
    const asAbsolute = e.absolute === undefined && e.episodes.length > 0 && (e.season ?? null) === null;
    const eps = asAbsolute && seasonless && got.episodes.length === 0 ? got.absolute_episodes : got.episodes;
    out.episodes = sameNumbers(e.episodes, eps);
  }
  if (e.absolute !== undefined) {
    out.absolute = sameNumbers(e.absolute, got.absolute_episodes) || (seasonless && sameNumbers(e.absolute, got.episodes));
  }
  if (e.edition !== undefined) out.edition = (e.edition ?? null) === (got.edition ?? null);
  if (e.country !== undefined) out.country = (e.country ?? null) === (got.country ?? null);
  return out;
}

export interface CaseResult {
  case: CorpusCase;
  got: ParsedForScoring | null;
  verdict: Verdict;
  /** The labelled fields the answer got wrong. */
  wrong: string[];
}

export function judge(c: CorpusCase, got: ParsedForScoring | null): CaseResult {
  if (got === null) return { case: c, got, verdict: c.expect.kind === null ? 'right' : 'refused', wrong: [] };
  if (c.expect.kind === null) return { case: c, got, verdict: 'wrong', wrong: ['kind'] };
  const fields = fieldVerdicts(c.expect, got);
  const wrong = Object.keys(fields).filter((k) => !fields[k]);
  return { case: c, got, verdict: wrong.length === 0 ? 'right' : 'wrong', wrong };
}

/** Which headline figures a case counts towards, and whether it is right for each. */
function metricsOf(r: CaseResult): [Metric, boolean][] {
  const e = r.case.expect;
  const f = r.got === null ? null : fieldVerdicts(e, r.got);
  const ok = (...keys: string[]) => f !== null && keys.every((k) => f[k] !== false);
  const out: [Metric, boolean][] = [];
  if (e.kind === null) out.push(['nonVideoRefused', r.got === null]);
  if (e.season !== undefined && e.season !== null && e.episodes !== undefined && e.episodes.length > 0) {
    out.push(['seasonEpisode', ok('kind', 'season', 'episodes')]);
  }
  if (e.kind === 'episode' && typeof e.title === 'string') out.push(['seriesTitle', ok('kind', 'title')]);
  if (e.kind === 'movie' && typeof e.title === 'string' && typeof e.year === 'number') {
    out.push(['movieTitleYear', ok('kind', 'title', 'year')]);
  }
  if (typeof e.air_date === 'string') out.push(['daily', ok('kind', 'air_date')]);
  if (e.absolute !== undefined) out.push(['absolute', ok('kind', 'absolute')]);
  return out;
}

/** The headline figures a case counts towards and misses. */
export function missedMetrics(r: CaseResult): Metric[] {
  return metricsOf(r)
    .filter(([, ok]) => !ok)
    .map(([m]) => m);
}

export interface Tally {
  cases: number;
  right: number;
  refused: number;
  wrong: number;
}

export interface CorpusScore {
  results: CaseResult[];
  all: Tally;
  byTag: Map<string, Tally>;
  metrics: Record<Metric, { right: number; of: number }>;
  /** The same figures without the cases `refusedByRule` names: those the project's rules say to refuse. */
  answerable: Record<Metric, { right: number; of: number }>;
}

const emptyTally = (): Tally => ({ cases: 0, right: 0, refused: 0, wrong: 0 });

function count(t: Tally, v: Verdict): void {
  t.cases++;
  t[v]++;
}

const emptyMetrics = (): CorpusScore['metrics'] => Object.fromEntries(Object.keys(METRICS).map((k) => [k, { right: 0, of: 0 }])) as CorpusScore['metrics'];

export function scoreCases(
  cases: readonly CorpusCase[],
  parse: (name: string) => ParsedForScoring | null,
  refusedByRule: (c: CorpusCase) => boolean = () => false,
): CorpusScore {
  const results = cases.map((c) => judge(c, parse(c.name)));
  const all = emptyTally();
  const byTag = new Map<string, Tally>();
  const metrics = emptyMetrics();
  const answerable = emptyMetrics();
  for (const r of results) {
    count(all, r.verdict);
    for (const tag of r.case.tags ?? []) {
      let t = byTag.get(tag);
      if (!t) byTag.set(tag, (t = emptyTally()));
      count(t, r.verdict);
    }
    const byRule = refusedByRule(r.case);
    for (const [m, ok] of metricsOf(r)) {
      for (const into of byRule ? [metrics] : [metrics, answerable]) {
        into[m].of++;
        if (ok) into[m].right++;
      }
    }
  }
  return { results, all, byTag, metrics, answerable };
}

export function ratio(x: { right: number; of: number }): number {
  return x.of === 0 ? 1 : x.right / x.of;
}

/** The goals a score misses, in words; empty when it meets them all. */
export function missedGoals(s: CorpusScore, which: 'metrics' | 'answerable' = 'metrics'): string[] {
  const out: string[] = [];
  for (const m of Object.keys(METRICS) as Metric[]) {
    const r = ratio(s[which][m]);
    if (r < GOALS[m]) out.push(`${METRICS[m]} ${(r * 100).toFixed(1)}% < ${GOALS[m] * 100}%`);
  }
  const wrong = s.all.wrong / Math.max(1, s.all.cases);
  if (wrong > GOALS.maxWrong) out.push(`wrong answers ${(wrong * 100).toFixed(2)}% > ${GOALS.maxWrong * 100}%`);
  return out;
}

/** One line per answer, for reading misses: what was expected and what came back. */
export function describeResult(r: CaseResult): string {
  const g = r.got;
  const got =
    g === null
      ? 'null'
      : `${g.kind} "${g.title}" y=${g.year ?? '-'} S${g.season ?? '-'} E[${g.episodes.join(',')}]` +
        ` abs[${g.absolute_episodes.join(',')}] ${g.air_date ?? ''}`;
  return `${r.verdict}${r.wrong.length ? ` (${r.wrong.join(',')})` : ''}: ${JSON.stringify(r.case.name)}\n    want ${JSON.stringify(r.case.expect)}\n    got  ${got}`;
}
