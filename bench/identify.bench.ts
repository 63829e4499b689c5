// Identification in context (issue: "an in-context run on shared/corpus"): every episode name of
// the public corpus with a labelled title and season is planned by the real planner (`planPass`,
// dry run) as a settled download, into a library that holds its series among all the others, and
// judged by where it would go:
//
//  - filed right: into its series' folder, with the labelled season and episodes (or air date);
//  - refused: skipped, for any reason (counted per reason);
//  - filed wrongly: planned anywhere else, or with other numbers.
//
// The library holds one TV folder per labelled series, `Title` or `Title (Year)`. Series whose
// folders compare alike (library/title-match.ts) are put into separate rounds, so that every name
// has one folder it belongs in; each name is planned alone, in the library of its series' round.
// Everything else is the configuration's defaults: templates, extension lists, sample size, settle
// time. Season packs (`episodes: []`) are no one file to import and are shown apart: a pass should
// refuse them, and one planned outside its series and season counts as filed wrongly. Names with an
// extension that is surely no video (`.rar`, `.nzb`, `.torrent`) are left out: the corpus keeps
// their labels but says that they are no videos.
//
// Goals: filed wrongly ≤ 0.5 %, filed right ≥ 95 % of the importable names (one or more episodes,
// or an air date). A measurement: it exits 0 whether or not they are met.
//
// Run: pnpm bench identify [--json <file>]   (--json writes every case's outcome, to diff runs)
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_CONFIG, KNOWN_VIDEO_EXTENSIONS } from '@mo/shared';
import { type CorpusCase, nonVideoExtension } from '@mo/core/parse';
import { type DriveSpace, extensionOf, buildFolderLookup, planPass, type DownloadFile, type PlanOptions, type PlanWorld } from '@mo/core/scanner';
import { baseName, CATEGORY_TAGS, loadCorpus, pct, table } from './support/corpus.ts';
import { buildRounds, judgeCase, seriesFolder, type Outcome, type Verdict } from './support/identify-rounds.ts';

const GOALS = { right: 0.95, maxWrong: 0.005 };

const jsonAt = process.argv.indexOf('--json');
const jsonPath = jsonAt === -1 ? null : process.argv[jsonAt + 1];
if (jsonPath === undefined || jsonPath?.startsWith('--')) {
  console.error('--json needs a file name');
  process.exit(2);
}

const { library, app } = DEFAULT_CONFIG;
const TV_ROOT = library.tv_folders[0]!;
const DRIVE: DriveSpace = {
  name: 'disk1',
  path: '/lib/disk1',
  dev: 1,
  free_bytes: 2 ** 50,
  total_bytes: 2 ** 50,
  roots: { movies: library.movie_folders[0]!, tv: TV_ROOT },
};
const opts: PlanOptions = {
  nowMs: Date.now(),
  settleSeconds: app.settle_seconds,
  sampleMaxBytes: library.sample_max_bytes,
  movieTemplate: library.movie_template,
  episodeTemplate: library.episode_template,
  videoExtensions: library.video_extensions,
  subtitleExtensions: library.subtitle_extensions,
  upgrades: library.upgrades,
};
// The size of an episode, far above the sample limit.
const VIDEO_BYTES = library.sample_max_bytes * 20;

interface EpisodeCase {
  case: CorpusCase;
  folder: string;
  pack: boolean;
}

const { path: corpusPath, cases } = loadCorpus();
const labelled = cases.filter((c) => {
  const e = c.expect;
  return (e.kind === 'episode' || e.kind === undefined) && typeof e.title === 'string' && e.title !== '' && typeof e.season === 'number';
});
const notVideos = labelled.filter((c) => nonVideoExtension(baseName(c.name)) !== null);
const judged: EpisodeCase[] = [];
let unnumbered = 0;
for (const c of labelled) {
  if (notVideos.includes(c)) continue;
  const { episodes, air_date } = c.expect;
  const importable = (episodes !== undefined && episodes.length > 0) || typeof air_date === 'string';
  if (!importable && episodes === undefined) {
    unnumbered++;
    continue;
  }
  judged.push({ case: c, folder: seriesFolder({ title: c.expect.title!, year: c.expect.year }), pack: !importable });
}

const { rounds, roundOf } = buildRounds(judged.map((c) => c.folder));
const worlds: PlanWorld[] = rounds.map((folders) => {
  const lookup = buildFolderLookup(
    [],
    folders.map((name) => ({ drive: DRIVE.name, section: 'tv' as const, root: TV_ROOT, name })),
    new Set(),
  );
  return {
    drives: [DRIVE],
    // A pass of one file: a folder it would create could only draw later files of the same pass,
    // and the round's library must stay as it is for the next name.
    folders: { find: (section, media) => lookup.find(section, media), near: (section, media) => lookup.near(section, media), add: () => {} },
    destination: () => 'free',
  };
});

/** A download of the name: a path stays a path (below the downloads folder), a bare name becomes an .mkv. */
function downloadOf(name: string, i: number): DownloadFile {
  const path = name.replace(/\\/g, '/').replace(/^\/+/, '');
  const rel = KNOWN_VIDEO_EXTENSIONS.has(extensionOf(baseName(path))) ? path : `${path}.mkv`;
  return { path: `/downloads/${rel}`, rel, size: VIDEO_BYTES, mtimeMs: 0, dev: 1000 + i, ino: 1 + i };
}

const started = performance.now();
const results = judged.map((c, i) => {
  const file = downloadOf(c.case.name, i);
  const round = roundOf.get(c.folder)!;
  const pass = planPass([file], opts, worlds[round]!);
  const planned = pass.plans[0];
  const skipped = pass.skipped[0];
  if (!planned && !skipped) throw new Error(`planPass gave neither a plan nor a skip for ${file.rel}`);
  const outcome: Outcome = planned ? { plan: planned.plan } : { skipped: skipped! };
  const verdict = judgeCase(outcome, c.case.expect, join(DRIVE.path, TV_ROOT, c.folder));
  return { ...c, rel: file.rel, round, outcome, verdict };
});
const elapsedMs = performance.now() - started;

type Result = (typeof results)[number];
const count = (rs: readonly Result[], v: Verdict) => rs.filter((r) => r.verdict === v).length;
const episodes = results.filter((r) => !r.pack);
const packs = results.filter((r) => r.pack);

console.log(`corpus: ${cases.length} names from ${corpusPath}`);
console.log(
  `${labelled.length} episode names with a title and season; left out: ${notVideos.length} no videos ` +
    `(${[...new Set(notVideos.map((c) => `.${nonVideoExtension(baseName(c.name))}`))].join(', ')}), ${unnumbered} with no episode label`,
);
console.log(
  `library: ${roundOf.size} series folders; ${rounds.length} rounds of ${rounds[0]?.length ?? 0}, one per spelling of a title key; ` +
    `${results.length} names planned one by one in ${(elapsedMs / 1000).toFixed(2)} s\n`,
);

const right = count(episodes, 'right');
const wrong = count(episodes, 'wrong');
console.log(`Importable names: one or more episodes, or an air date (${episodes.length}):`);
table(
  ['verdict', 'names', 'share', 'goal'],
  [
    ['filed right', String(right), pct(right, episodes.length), `≥${GOALS.right * 100}%`],
    ['refused', String(count(episodes, 'refused')), pct(count(episodes, 'refused'), episodes.length), ''],
    ['filed wrongly', String(wrong), pct(wrong, episodes.length), `≤${GOALS.maxWrong * 100}%`],
  ],
);
const goal = (met: boolean, text: string) => console.log(`goal ${met ? 'met' : 'missed'}: ${text}`);
goal(right >= GOALS.right * episodes.length, `filed right ${pct(right, episodes.length)}, ${right}/${episodes.length} (goal ≥${GOALS.right * 100}%)`);
goal(wrong <= GOALS.maxWrong * episodes.length, `filed wrongly ${pct(wrong, episodes.length)}, ${wrong}/${episodes.length} (goal ≤${GOALS.maxWrong * 100}%)`);

console.log(
  `\nseason packs (${packs.length}, no one file to import): refused ${count(packs, 'refused')}, ` +
    `planned into their series and season ${count(packs, 'right')}, filed wrongly ${count(packs, 'wrong')}`,
);

console.log('\nPer category (importable names):');
const row = (label: string, rs: readonly Result[]) => [
  label,
  String(rs.length),
  pct(count(rs, 'right'), rs.length),
  pct(count(rs, 'refused'), rs.length),
  pct(count(rs, 'wrong'), rs.length),
];
table(
  ['category', 'names', 'right', 'refused', 'wrong'],
  [
    ...CATEGORY_TAGS.map((tag) => episodes.filter((r) => r.case.tags?.includes(tag))).flatMap((rs, i) => (rs.length > 0 ? [row(CATEGORY_TAGS[i]!, rs)] : [])),
    row('all', episodes),
  ],
);

const why = new Map<string, { episodes: number; packs: number }>();
for (const r of results) {
  if (!('skipped' in r.outcome)) continue;
  const { reason, detail } = r.outcome.skipped;
  const key = detail === undefined ? reason : `${reason}: ${detail}`;
  const n = why.get(key) ?? { episodes: 0, packs: 0 };
  if (r.pack) n.packs++;
  else n.episodes++;
  why.set(key, n);
}
console.log('\nRefusals by reason:');
table(
  ['reason: detail', 'episodes', 'packs'],
  [...why].sort((a, b) => b[1].episodes - a[1].episodes || b[1].packs - a[1].packs).map(([key, n]) => [key, String(n.episodes), String(n.packs)]),
);

const misfiled = results.filter((r) => r.verdict === 'wrong');
console.log(`\nFiled wrongly (${misfiled.length}):`);
for (const r of misfiled) {
  const plan = 'plan' in r.outcome ? r.outcome.plan : null;
  console.log(`  ${r.case.name}${r.pack ? '   (season pack)' : ''}`);
  console.log(`    filed as ${plan?.destination.slice(DRIVE.path.length + 1)}`);
  console.log(`    label    ${JSON.stringify(r.case.expect)} → ${TV_ROOT}/${r.folder}`);
}

if (jsonPath !== null) {
  const out = resolve(jsonPath);
  const rows = results.map((r) => ({
    name: r.case.name,
    rel: r.rel,
    tags: r.case.tags ?? [],
    pack: r.pack,
    folder: join(DRIVE.path, TV_ROOT, r.folder),
    round: r.round,
    verdict: r.verdict,
    ...r.outcome,
    label: r.case.expect,
  }));
  writeFileSync(out, `${JSON.stringify(rows, null, 1)}\n`);
  console.log(`\nper-case results: ${out}`);
}
