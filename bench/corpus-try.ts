import { readFileSync } from 'node:fs';
import { parseReleaseName } from '../packages/core/src/parse/release-name.ts';
import { scoreCases, ratio, METRICS, describeResult, fieldVerdicts, type CorpusCase, type Metric } from '../packages/core/src/parse/corpus-score.ts';
const cases = (JSON.parse(readFileSync('/work/shared/corpus/release-names.dev.json', 'utf8')) as { cases: CorpusCase[] }).cases;
const s = scoreCases(cases, parseReleaseName);
for (const m of Object.keys(METRICS) as Metric[]) console.log(METRICS[m].padEnd(20), (ratio(s.metrics[m]) * 100).toFixed(1), s.metrics[m]);
console.log('all', s.all);
const filt = process.argv[2];
const metricCase: Record<string, (c: CorpusCase) => boolean> = {
  se: (c) => c.expect.season != null && (c.expect.episodes?.length ?? 0) > 0,
  title: (c) => c.expect.kind === 'episode' && typeof c.expect.title === 'string',
  abs: (c) => c.expect.absolute !== undefined,
  daily: (c) => typeof c.expect.air_date === 'string',
  movie: (c) => c.expect.kind === 'movie' && typeof c.expect.title === 'string' && typeof c.expect.year === 'number',
};
if (filt) for (const r of s.results) {
  if (filt in metricCase) {
    if (!metricCase[filt]!(r.case)) continue;
    const f = r.got ? fieldVerdicts(r.case.expect, r.got) : null;
    const keys = filt === 'se' ? ['kind', 'season', 'episodes'] : filt === 'title' ? ['kind', 'title'] : filt === 'abs' ? ['kind', 'absolute'] : filt === 'daily' ? ['kind', 'air_date'] : ['kind', 'title', 'year'];
    if (f && keys.every((k) => f[k] !== false)) continue;
    console.log(describeResult(r));
  } else if (r.verdict === filt || (filt === 'notright' && r.verdict !== 'right')) console.log(describeResult(r));
}
