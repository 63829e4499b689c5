import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleOptions } from '../../scripts/bundle-options.mjs';

// The thread that lists folders ahead of a first library scan runs its functions' own source
// text, so it depends on what the bundler makes of them. Tests under vitest run them as tsx
// compiles them; this one builds them as the production worker is built and runs them in plain
// node, as the worker runs.
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const listing = join(repo, 'packages/core/src/library/folder-listing.ts');
const run = promisify(execFile);

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mo-listing-bundle-'));
  const put = async (rel: string, content = '') => {
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await writeFile(join(root, rel), content);
  };
  for (let i = 0; i < 40; i++) await put(`lib/Movies/Film ${i} é (2001)/Film ${i} (2001).mkv`);
  await put('lib/Movies/Heat (1995)/movie.nfo', '<movie><title>Heat</title></movie>');
  await put('lib/TV/Lost/Season 01/Lost - S01E01.mkv');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const entry = `
import { ENTRY_DIR, FIGURES, inlineLister, prefetchingLister } from ${JSON.stringify(listing)};
const roots = process.argv.slice(2);
async function walk(lister) {
  const out = [];
  for (const r of roots) {
    const stack = [r];
    while (stack.length > 0) {
      const l = await lister.list(stack.pop());
      out.push(l);
      const subdirs = l.names.filter((_, i) => l.figures[i * FIGURES] === ENTRY_DIR).map((n) => l.dir + '/' + n);
      stack.push(...subdirs.reverse());
    }
  }
  lister.close();
  return out;
}
const plain = (l) => ({ dir: l.dir, error: l.error, names: l.names, figures: Array.from(l.figures), errors: l.errors, heads: l.heads });
const fellBack = [];
const lister = prefetchingLister(roots, true, (reason) => fellBack.push(reason));
// Time for the thread to start and send its first batch, on a busy machine too.
await new Promise((r) => setTimeout(r, 3000));
const ahead = await walk(lister);
const inline = await walk(inlineLister(true));
console.log(JSON.stringify({
  fellBack,
  // A batch's listings share the one buffer the thread transferred; inline ones each have their own.
  fromThread: ahead.length > 1 && ahead.every((l) => l.figures.buffer === ahead[0].figures.buffer),
  folders: ahead.length,
  same: JSON.stringify(ahead.map(plain)) === JSON.stringify(inline.map(plain)),
}));
`;

describe('the listing thread in a production bundle', () => {
  it('lists from its thread what an inline walk lists', async () => {
    const source = join(root, 'entry.ts');
    const out = join(root, 'entry.mjs');
    await writeFile(source, entry);
    await build({ ...bundleOptions, entryPoints: [source], outfile: out, logLevel: 'error' });
    const { stdout } = await run(process.execPath, [out, join(root, 'lib/Movies'), join(root, 'lib/TV')]);
    expect(JSON.parse(stdout)).toEqual({ fellBack: [], fromThread: true, folders: 45, same: true });
  });
});
