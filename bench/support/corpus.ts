// The public release-name corpus (shared/corpus/release-names.dev.json) and the Markdown tables the
// corpus benchmarks print it with.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CorpusCase } from '@mo/core/parse';

/** The corpus README's categories, in the order the per-category tables list them. */
export const CATEGORY_TAGS = [
  'sxxeyy',
  'nxnn',
  'multi_episode',
  'daily',
  'absolute',
  'anime',
  'season_pack',
  'movie_with_year',
  'title_with_number',
  'foreign',
  'non_ascii',
  'folder',
  'kind_null',
  'episode',
  'movie',
] as const;

/** MO_CORPUS scores another file of the same shape; exits 2 when there is none to read. */
export function loadCorpus(): { path: string; cases: CorpusCase[] } {
  const here = dirname(fileURLToPath(import.meta.url));
  const path = process.env.MO_CORPUS || resolve(here, '../../../shared/corpus/release-names.dev.json');
  if (!existsSync(path)) {
    console.error(`no corpus at ${path}: set MO_CORPUS to shared/corpus/release-names.dev.json`);
    process.exit(2);
  }
  return { path, cases: (JSON.parse(readFileSync(path, 'utf8')) as { cases: CorpusCase[] }).cases };
}

/** The last segment of a name that may be a path with `/` or `\`. */
export function baseName(name: string): string {
  const parts = name.split(/[\\/]/);
  return parts[parts.length - 1] ?? name;
}

export const pct = (n: number, of: number): string => (of === 0 ? '-' : `${((n / of) * 100).toFixed(1)}%`);

/** A Markdown table: the first column left-aligned, the others right-aligned. */
export function table(header: string[], body: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of body) console.log(line(r));
}
