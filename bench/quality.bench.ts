// Quality read from names (parseQuality) on the public corpus, against @ctrl/video-filename-parser
// (a port of Radarr/Sonarr's parser) as the reference. The corpus labels no quality, so this
// measures agreement: per field, names where both read a value and agree or differ, and names
// only one of them reads. Each difference is listed for a person to judge; the Sonarr forms the
// unit tests pin (quality.test.ts) are where ours is held right.
//
// Run: pnpm bench quality   (MO_CORPUS=<path> to read another file of the same shape)
import { loadCorpus, pct, table } from './support/corpus.ts';
import { FIELDS, qualityAgreement } from './support/quality-agreement.ts';

const { path, cases } = loadCorpus();
const agreement = qualityAgreement(cases.map((c) => c.name));

console.log(`${cases.length} names from ${path}\n`);
table(
  ['field', 'both, agree', 'both, differ', 'only ours', 'only reference', 'agreement'],
  FIELDS.map((f) => {
    const n = agreement[f];
    return [f, String(n.agree), String(n.differ), String(n.onlyOurs), String(n.onlyTheirs), pct(n.agree, n.agree + n.differ)];
  }),
);
for (const f of FIELDS) {
  const n = agreement[f];
  if (n.differences.length > 0) console.log(`\n${f}, read differently:\n  ${n.differences.join('\n  ')}`);
  if (n.ours.length > 0) console.log(`\n${f}, read by ours alone:\n  ${n.ours.join('\n  ')}`);
}
