import { readFileSync } from 'node:fs';
import { parseReleaseName } from '../packages/core/src/parse/release-name.ts';
import { nonVideoReason } from '../packages/core/src/parse/non-video.ts';
import { prepare } from '../packages/core/src/parse/prepare.ts';
import { FORMS } from '../packages/core/src/parse/forms/index.ts';
import { firstJunk, tokenize } from '../packages/core/src/parse/vocabulary.ts';
const cases: string[] = JSON.parse(readFileSync('/work/shared/corpus/release-names.dev.json', 'utf8')).cases.map((c: any) => c.name);
function time(label: string, fn: (n: string) => unknown) {
  for (let i = 0; i < 10; i++) for (const n of cases) fn(n);
  const t0 = process.hrtime.bigint();
  const P = 20;
  for (let i = 0; i < P; i++) for (const n of cases) fn(n);
  console.log(label.padEnd(20), (Number(process.hrtime.bigint() - t0) / 1000 / (P * cases.length)).toFixed(2), 'µs');
}
time('all', parseReleaseName);
time('nonVideo', nonVideoReason);
time('prepare', prepare);
const prepped = cases.map((c) => prepare(c).s);
let i = 0;
time('tokenize', () => tokenize(prepped[i++ % prepped.length]! + ' '));
i = 0;
time('firstJunk', () => firstJunk(prepped[i++ % prepped.length]! + '  '));
for (const f of FORMS) {
  i = 0;
  time(f.name, () => f.find(prepped[i++ % prepped.length]!, { group: null, checksum: false }));
}
