// Run inside a private mount namespace by hardlinks.test.ts: prints what the probe answers for the
// given downloads folder and drive, and what link(2) and rename(2) between them really do there.
import { linkSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkHardlinks } from '../hardlinks.ts';

const [downloads, drive] = process.argv.slice(2) as [string, string];
const [probe] = await checkHardlinks({ paths: { downloads, config: '/nonexistent', data: '/nonexistent' }, drives: [{ name: 'disk1', path: drive }] });
const attempt = (f: () => void) => {
  try {
    f();
    return 'ok';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? 'error';
  }
};
writeFileSync(join(downloads, 'a.mkv'), 'video');
writeFileSync(join(downloads, 'b.mkv'), 'video');
const link = attempt(() => linkSync(join(downloads, 'a.mkv'), join(drive, 'a.mkv')));
const rename = attempt(() => renameSync(join(downloads, 'b.mkv'), join(drive, 'b.mkv')));
console.log(JSON.stringify({ problem: probe!.problem, downloadsMount: probe!.downloadsMount, driveMount: probe!.driveMount, link, rename }));
