import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeResult, ratio, scoreCases, type CorpusCase } from './corpus-score.ts';
import { parseReleaseName } from './release-name.ts';

const here = dirname(fileURLToPath(import.meta.url));
const own = JSON.parse(readFileSync(join(here, 'corpus.json'), 'utf8')) as CorpusCase[];

/** The public development corpus (shared/corpus/README.md): beside the checkout, or where MO_CORPUS says. */
function publicCorpusPath(): string | null {
  const candidates = [process.env.MO_CORPUS, resolve(here, '../../../../../shared/corpus/release-names.dev.json')];
  return candidates.find((p): p is string => p !== undefined && p !== '' && existsSync(p)) ?? null;
}

function report(score: ReturnType<typeof scoreCases>, verdict: 'wrong' | 'refused'): string {
  return score.results
    .filter((r) => r.verdict === verdict)
    .map(describeResult)
    .join('\n');
}

describe('our own corpus (regression)', () => {
  const score = scoreCases(own, parseReleaseName);

  it('is big and varied enough', () => {
    expect(own.length).toBeGreaterThanOrEqual(700);
    expect(own.filter((c) => /[\\/]/.test(c.name)).length).toBeGreaterThanOrEqual(30);
    expect(own.filter((c) => typeof c.expect.air_date === 'string').length).toBeGreaterThanOrEqual(15);
    expect(own.filter((c) => (c.expect.absolute ?? []).length > 0).length).toBeGreaterThanOrEqual(15);
    expect(new Set(own.map((c) => c.name)).size).toBe(own.length);
  });

  it('keeps its accuracy', () => {
    expect(ratio(score.metrics.seasonEpisode), report(score, 'wrong')).toBeGreaterThanOrEqual(0.97);
    expect(ratio(score.metrics.seriesTitle), report(score, 'wrong')).toBeGreaterThanOrEqual(0.94);
    expect(ratio(score.metrics.movieTitleYear), report(score, 'wrong')).toBeGreaterThanOrEqual(0.97);
    expect(score.all.wrong / score.all.cases, report(score, 'wrong')).toBeLessThanOrEqual(0.01);
  });
});

const publicPath = publicCorpusPath();

describe.skipIf(publicPath === null)('the public corpus (../shared/corpus)', () => {
  const cases = publicPath === null ? [] : (JSON.parse(readFileSync(publicPath, 'utf8')) as { cases: CorpusCase[] }).cases;
  const score = scoreCases(cases, parseReleaseName);

  it('gives at most 1% wrong answers', () => {
    expect(score.all.wrong / score.all.cases, report(score, 'wrong')).toBeLessThanOrEqual(0.01);
  });

  // Floors at what the parser measured when these were set; `pnpm bench parse` shows the goals.
  it('keeps its accuracy per form', () => {
    expect(ratio(score.metrics.movieTitleYear)).toBeGreaterThanOrEqual(0.96);
    expect(ratio(score.metrics.daily)).toBeGreaterThanOrEqual(0.94);
    expect(ratio(score.metrics.nonVideoRefused)).toBeGreaterThanOrEqual(0.8);
    expect(ratio(score.metrics.seasonEpisode)).toBeGreaterThanOrEqual(0.93);
    expect(ratio(score.metrics.seriesTitle)).toBeGreaterThanOrEqual(0.93);
    expect(ratio(score.metrics.absolute)).toBeGreaterThanOrEqual(0.81);
  });
});
