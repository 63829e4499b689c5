// Library folder names on the public corpus (shared/corpus/release-names.dev.json): each name
// with a labelled title, taken as the name of a movie or series folder (its last path segment,
// without a video or subtitle extension, which a folder has not), read as the library index reads
// folder names (`titleYearOfFolder`). A title is right when it is the labelled one as the corpus
// README compares titles; left as it is when the reader gave the name back unchanged (what the
// index did before it read release words); wrong otherwise. Titles with a labelled year are also
// scored on the year: a folder's year decides which movie a download joins.
//
// Run: pnpm bench folder-names   (MO_CORPUS=<path> to score another file of the same shape)
import { DEFAULT_CONFIG } from '@mo/shared';
import { titleYearOfFolder } from '@mo/core';
import { baseName, loadCorpus, pct, table } from './support/corpus.ts';

const EXTENSIONS = new Set([...DEFAULT_CONFIG.library.video_extensions, ...DEFAULT_CONFIG.library.subtitle_extensions]);

/** The corpus README's comparison: case, `.`, `_`, `-` and runs of spaces, and `'`, `:`, `!`, `,` aside. */
function labelForm(title: string): string {
  return title
    .toLowerCase()
    .replace(/['’:!,]/g, '')
    .replace(/[._\-\s]+/g, ' ')
    .trim();
}

function folderName(name: string): string {
  const base = baseName(name);
  const dot = base.lastIndexOf('.');
  return dot > 0 && EXTENSIONS.has(base.slice(dot).toLowerCase()) ? base.slice(0, dot) : base;
}

type Verdict = 'right' | 'left as it is' | 'wrong';

const { path, cases } = loadCorpus();
const counts = new Map<string, Record<Verdict, number>>();
const wrong: string[] = [];
const count = (row: string, v: Verdict) => {
  const c = counts.get(row) ?? { right: 0, 'left as it is': 0, wrong: 0 };
  c[v]++;
  counts.set(row, c);
};

for (const c of cases) {
  const expected = c.expect.title;
  if (typeof expected !== 'string' || (c.expect.kind !== 'movie' && c.expect.kind !== 'episode')) continue;
  const name = folderName(c.name);
  const got = titleYearOfFolder(name);
  const raw = got.title === name.trim() && got.year === null;
  const titleRight = labelForm(got.title) === labelForm(expected);
  const verdict: Verdict = titleRight ? 'right' : raw ? 'left as it is' : 'wrong';
  count(`${c.expect.kind} title`, verdict);
  count('all titles', verdict);
  if (verdict === 'wrong') wrong.push(`${JSON.stringify(name)} → ${JSON.stringify(got.title)} (labelled ${JSON.stringify(expected)})`);
  if (typeof c.expect.year === 'number' && c.expect.kind === 'movie') {
    count('movie title+year', titleRight && got.year === c.expect.year ? 'right' : raw ? 'left as it is' : 'wrong');
  }
}

console.log(`corpus: ${path}\n`);
table(
  ['names as folder names', 'cases', 'right', 'left as it is', 'wrong'],
  [...counts].map(([row, c]) => {
    const n = c.right + c['left as it is'] + c.wrong;
    return [row, String(n), pct(c.right, n), pct(c['left as it is'], n), pct(c.wrong, n)];
  }),
);
if (process.argv.includes('--wrong')) console.log(`\n${wrong.join('\n')}`);
