// Release-name parsing: accuracy on the hand-written corpus and speed, for our parser
// (packages/core/src/parse/release-name.ts) and two baselines measured in the same run:
//
//  - @ctrl/video-filename-parser (Radarr/Sonarr-style). It needs to be told TV or movie. We call
//    `filenameParse(name, true)` first and accept it as an episode when it found episode numbers or
//    an air date. A doubtful TV result (season*100+episode reads as a year, the classic misparse of
//    "Title.1999.1080p" as S19E99, or numbers without a season) is dropped when
//    `filenameParse(name, false)` finds a year; that movie parse is also the fallback. Episode
//    numbers without a season are taken as absolute numbers (anime).
//  - parse-torrent-title: `parse(name)`; an episode when it reports a season or an episode (an
//    episode without a season counts as an absolute number), else a movie.
//
// Both baselines get the last path segment (they do not understand folders); ours gets the whole
// relative path. Their output is mapped to our shape as kindly as possible: trailing separators are
// trimmed from titles and a trailing "(YYYY)" / "YYYY" on a series title becomes the series year,
// since neither library has a separate series-year field.
//
// Run: node --import tsx --expose-gc bench/parse.bench.ts   (or: pnpm bench parse)
// Exits 1 when our parser misses a goal (≥95 % episode numbers, ≥90 % episode titles, ≥95 % movie
// title+year, ≤20 µs per name).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filenameParse } from '@ctrl/video-filename-parser';
import ptt from 'parse-torrent-title';
import { parseReleaseName } from '../packages/core/src/parse/release-name.ts';
import {
  GOALS,
  ratios,
  scoreCorpus,
  type CorpusEntry,
  type ParsedForScoring,
} from '../packages/core/src/parse/corpus-eval.ts';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = JSON.parse(
  readFileSync(join(here, '../packages/core/src/parse/corpus.json'), 'utf8'),
) as CorpusEntry[];
const names = corpus.map((c) => c.name);

function baseName(name: string): string {
  const parts = name.split(/[\\/]/);
  return parts[parts.length - 1] ?? name;
}

function tidy(title: string): string {
  return title.replace(/[\s._\-([]+$/, '').replace(/^[\s._\-\])]+/, '').trim();
}

function splitSeriesYear(title: string): { title: string; year: number | null } {
  const m = /^(.*\S)\s*[([]?((?:19|20)\d{2})[)\]]?$/.exec(title);
  if (m && m[1] !== undefined) return { title: tidy(m[1]), year: Number(m[2]) };
  return { title, year: null };
}

function viaVideoFilenameParser(name: string): ParsedForScoring | null {
  const file = baseName(name);
  const tv = filenameParse(file, true);
  let movie: ReturnType<typeof filenameParse> | undefined;
  const movieYear = (): number | null => {
    movie ??= filenameParse(file, false);
    return movie.year ? Number(movie.year) : null; // absent (undefined) when not found
  };
  if ('isTv' in tv && tv.isTv && (tv.episodeNumbers.length > 0 || tv.airDate !== null)) {
    const season = tv.seasons[0] ?? null;
    const first = tv.episodeNumbers[0];
    // Only doubtful TV results need the (second) movie parse: numbers that read as a year
    // ("Blade Runner 2049 (2017)" → S20E49) or a season-less number ("(1080p x265 10bit)" → 10).
    const asYear = season !== null && first !== undefined ? season * 100 + first : 0;
    const doubtful = (asYear >= 1900 && asYear <= 2099) || (season === null && tv.airDate === null);
    if (!doubtful || movieYear() === null) {
      const { title, year } = splitSeriesYear(tidy(tv.title));
      const absolute = season === null && tv.airDate === null;
      return {
        kind: 'episode',
        title,
        year,
        season,
        episodes: absolute || tv.airDate !== null ? [] : tv.episodeNumbers,
        air_date: tv.airDate === null ? null : tv.airDate.toISOString().slice(0, 10),
        absolute_episodes: absolute ? tv.episodeNumbers : [],
      };
    }
  }
  const year = movieYear();
  if (movie === undefined || movie.title === '') return null;
  return {
    kind: 'movie',
    title: tidy(movie.title),
    year,
    season: null,
    episodes: [],
    air_date: null,
    absolute_episodes: [],
    edition: null,
  };
}

function viaParseTorrentTitle(name: string): ParsedForScoring | null {
  const r = ptt.parse(baseName(name));
  if (!r.title) return null;
  if (r.season !== undefined || r.episode !== undefined) {
    const eps = r.episodelist ?? (r.episode === undefined ? [] : [r.episode]);
    const { title, year } = splitSeriesYear(tidy(r.title));
    return {
      kind: 'episode',
      title,
      year: r.year ?? year,
      season: r.season ?? null,
      episodes: r.season === undefined ? [] : eps,
      air_date: null,
      absolute_episodes: r.season === undefined ? eps : [],
    };
  }
  return {
    kind: 'movie',
    title: tidy(r.title),
    year: r.year ?? null,
    season: null,
    episodes: [],
    air_date: null,
    absolute_episodes: [],
    edition: null,
  };
}

const parsers: { name: string; parse: (n: string) => ParsedForScoring | null }[] = [
  { name: 'ours (release-name.ts)', parse: parseReleaseName },
  { name: '@ctrl/video-filename-parser', parse: viaVideoFilenameParser },
  { name: 'parse-torrent-title', parse: viaParseTorrentTitle },
];

const gc = (globalThis as { gc?: () => void }).gc;

/** Average µs per name: warm-up passes, then timed passes over the whole corpus (best of 5 runs). */
function microsPerName(parse: (n: string) => unknown): number {
  let sink = 0;
  for (let i = 0; i < 30; i++) for (const n of names) if (parse(n) !== null) sink++;
  // Size the timed runs to roughly 200 ms each.
  let t0 = process.hrtime.bigint();
  for (const n of names) if (parse(n) !== null) sink++;
  const onePassNs = Number(process.hrtime.bigint() - t0);
  const passes = Math.max(5, Math.ceil(200e6 / Math.max(onePassNs, 1)));
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    gc?.();
    t0 = process.hrtime.bigint();
    for (let p = 0; p < passes; p++) for (const n of names) if (parse(n) !== null) sink++;
    const ns = Number(process.hrtime.bigint() - t0);
    best = Math.min(best, ns / (passes * names.length) / 1000);
  }
  if (sink < 0) console.log(sink);
  return best;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const rows = parsers.map((p) => {
  const score = scoreCorpus(corpus, p.parse);
  return { name: p.name, score, r: ratios(score), us: microsPerName(p.parse) };
});

const first = rows[0]!;
console.log(
  `corpus: ${corpus.length} names (${first.score.episodes} episodes, ${first.score.movies} movies, ` +
    `${corpus.filter((c) => /[\\/]/.test(c.name)).length} with folders, ${first.score.editions} with an edition)`,
);
console.log('');
const header = ['parser', 'ep. numbers', 'ep. title', 'movie title+year', 'edition', 'µs/name'];
const table = rows.map((row) => [
  row.name,
  `${pct(row.r.episodeNumbers)} (${row.score.episodeNumbers}/${row.score.episodes})`,
  `${pct(row.r.episodeTitle)} (${row.score.episodeTitle}/${row.score.episodes})`,
  `${pct(row.r.movieTitleYear)} (${row.score.movieTitleYear}/${row.score.movies})`,
  row.name.startsWith('ours') ? pct(row.r.edition) : 'n/a',
  row.us.toFixed(2),
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i]!.length)));
const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const t of table) console.log(line(t));
console.log('');
for (const base of rows.slice(1)) {
  const ratio = (a: number, b: number): string => (b === 0 ? '∞' : (a / b).toFixed(2));
  console.log(
    `ours/${base.name}: ep. numbers ×${ratio(first.r.episodeNumbers, base.r.episodeNumbers)}, ` +
      `ep. title ×${ratio(first.r.episodeTitle, base.r.episodeTitle)}, ` +
      `movie ×${ratio(first.r.movieTitleYear, base.r.movieTitleYear)}, ` +
      `time ×${ratio(first.us, base.us)} (${(base.us / first.us).toFixed(1)}× faster)`,
  );
}

const misses: string[] = [];
if (first.r.episodeNumbers < GOALS.episodeNumbers) misses.push(`episode numbers ${pct(first.r.episodeNumbers)} < ${pct(GOALS.episodeNumbers)}`);
if (first.r.episodeTitle < GOALS.episodeTitle) misses.push(`episode titles ${pct(first.r.episodeTitle)} < ${pct(GOALS.episodeTitle)}`);
if (first.r.movieTitleYear < GOALS.movieTitleYear) misses.push(`movie title+year ${pct(first.r.movieTitleYear)} < ${pct(GOALS.movieTitleYear)}`);
if (first.us > GOALS.usPerName) misses.push(`${first.us.toFixed(2)} µs/name > ${GOALS.usPerName} µs`);

const failures = first.score.failures;
if (failures.length > 0) {
  console.log(`\nours: ${failures.length} miss(es) on the corpus:`);
  for (const f of failures.slice(0, 20)) {
    const got = f.got === null ? 'null' : `${f.got.kind} "${f.got.title}" ${f.got.year ?? ''} S${f.got.season ?? '-'} E[${f.got.episodes.join(',')}] ${f.got.air_date ?? ''} abs[${f.got.absolute_episodes.join(',')}] ${f.got.edition ?? ''}`;
    console.log(`  [${f.what}] ${f.name}\n      got ${got.replace(/\s+/g, ' ')}`);
  }
}
if (misses.length > 0) {
  console.error(`\nFAIL: ${misses.join('; ')}`);
  process.exit(1);
}
console.log('\nOK: all goals met (≥95% ep. numbers, ≥90% ep. titles, ≥95% movie title+year, ≤20 µs/name)');
