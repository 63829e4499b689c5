// The process test/faults/kill-upgrade.test.ts kills: one upgrade (or its undo) carried out by the import driver,
// SIGKILLed by itself just before or just after its KILL_AT-th change to the disk (a link, unlink,
// rename, folder made or removed, file written). Bundled by the test into one plain .mjs so that each
// of the many trials starts in a fraction of a second. Prints the number of kill points it passed.
import { constants } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';

type Fn = (...args: unknown[]) => Promise<unknown>;
const fsp = createRequire(import.meta.url)('node:fs/promises') as Record<string, Fn>;
const killAt = Number(process.env.KILL_AT ?? 0);
let points = 0;
const point = () => {
  if (++points === killAt) process.kill(process.pid, 'SIGKILL');
};
const wrap = (name: string, changes: (args: unknown[]) => boolean) => {
  const orig = fsp[name]!;
  fsp[name] = async (...args: unknown[]) => {
    if (!changes(args)) return orig(...args);
    point();
    const r = await orig(...args);
    point();
    return r;
  };
};
for (const name of ['link', 'unlink', 'rename', 'rm', 'mkdir', 'rmdir', 'copyFile', 'writeFile', 'symlink']) wrap(name, () => true);
const WRITES = constants.O_WRONLY | constants.O_RDWR | constants.O_CREAT | constants.O_APPEND;
wrap('open', ([, flags]) => (typeof flags === 'number' ? (flags & WRITES) !== 0 : flags !== undefined && flags !== 'r'));
// The driver's modules import these functions by name: their bindings follow the wrapped ones.
syncBuiltinESMExports();

const { runUpgradeJob } = await import('./upgrade-job.ts');
await runUpgradeJob(JSON.parse(process.env.UPGRADE_JOB!));
console.log(`points ${points}`);
