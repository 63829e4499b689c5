import { readFileSync } from 'node:fs';
import { parseReleaseName } from '../packages/core/src/parse/release-name.ts';
const cases: string[] = JSON.parse(readFileSync('/work/shared/corpus/release-names.dev.json', 'utf8')).cases.map((c: any) => c.name);
for (let i = 0; i < 20; i++) for (const n of cases) parseReleaseName(n);
let best = Infinity;
for (let r = 0; r < 7; r++) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < 15; i++) for (const n of cases) parseReleaseName(n);
  best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1000 / (15 * cases.length));
}
console.log('best µs/name', best.toFixed(2));
