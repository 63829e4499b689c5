import { readFileSync } from 'node:fs';
import { parseReleaseName } from '../packages/core/src/parse/release-name.ts';
const cases: string[] = JSON.parse(readFileSync('/work/shared/corpus/release-names.dev.json', 'utf8')).cases.map((c: any) => c.name);
for (let i = 0; i < 100; i++) for (const n of cases) parseReleaseName(n);
