// Runs every bench/<name>.bench.ts (or only the names given) one after another, each in its own
// process so that one benchmark's heap and JIT state cannot colour the next one's figures.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const all = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.slice(0, -'.bench.ts'.length))
  .sort();
// `pnpm bench library --files 1000000`: names first, then flags, which go to every benchmark run.
const args = process.argv.slice(2);
const firstFlag = args.findIndex((a) => a.startsWith('--'));
const wanted = firstFlag === -1 ? args : args.slice(0, firstFlag);
const flags = firstFlag === -1 ? [] : args.slice(firstFlag);
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${all.join(', ')}`);
  process.exit(2);
}
let failed = 0;
for (const name of wanted.length > 0 ? wanted : all) {
  console.log(`\n== ${name} ==`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', join(here, `${name}.bench.ts`), ...flags], {
    stdio: 'inherit',
  });
  if (r.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
