// Each workspace package is used through its public name (@mo/core/<folder>, @mo/shared, @mo/api/test-support/…),
// never by a relative path into its files or a deep import of its src/: its barrels and package.json
// "exports" are then the whole of what others may rely on, and moving a file inside it breaks no one
// else. Test and bench code are held to the same line as the apps.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CHECKED = ['test', 'bench', 'scripts', 'apps', 'packages'];
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs)$/;
const SPECIFIER = /(?:\bfrom|\bimport|\bvi\.mock|\bvi\.importActual)\s*\(?\s*['"]([^'"\n]+)['"]/g;

/** The workspace package a repository path belongs to: apps/<name>, packages/<name>, or '.' for the root package. */
function packageOf(path: string): string {
  const [top, name] = path.split('/');
  return (top === 'apps' || top === 'packages') && name !== undefined ? `${top}/${name}` : '.';
}

/** The imports in `text` (of the file at repository path `file`) that cross into another package other than by its name. */
function crossings(file: string, text: string): string[] {
  const found: string[] = [];
  for (const [, spec] of text.matchAll(SPECIFIER)) {
    if (spec!.startsWith('.')) {
      const target = relative(ROOT, resolve(ROOT, dirname(file), spec!));
      // A package's manifest is read for its version, not its code.
      if (packageOf(target) !== packageOf(file) && !target.endsWith('package.json')) found.push(spec!);
    } else if (/^@mo\/[^/]+\/src(\/|$)/.test(spec!)) found.push(spec!);
  }
  return found;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) sourceFiles(path, out);
    else if (SOURCE.test(e.name)) out.push(path);
  }
  return out;
}

describe('package boundaries', () => {
  it('sees a relative path into another package and a deep import of src/, and lets the package names and its own files through', () => {
    expect(crossings('test/faults/x.test.ts', "import { makeClip } from '../../packages/core/src/media/test-fixtures/clips.ts';")).toHaveLength(1);
    expect(crossings('packages/core/src/library/x.test.ts', "const { rng } = await import('../../../../test/faults/support/prng.ts');")).toHaveLength(1);
    expect(crossings('apps/api/src/routes/x.test.ts', "import type { H } from '../../../worker/src/handlers/h.ts';")).toHaveLength(1);
    expect(crossings('bench/x.bench.ts', "import { planPass } from '@mo/core/src/scanner/plan-pass.ts';")).toHaveLength(1);
    expect(crossings('bench/x.bench.ts', "import { planPass } from '@mo/core/scanner';\nimport { corpus } from './support/corpus.ts';")).toEqual([]);
    expect(crossings('packages/core/src/scanner/x.ts', "import { moveFile } from '../fs/transfer.ts';")).toEqual([]);
  });

  it('no file under test/, bench/, scripts/, apps/ or packages/ imports another package but by its name', () => {
    // This file's own examples of crossings are strings, not imports.
    const self = relative(ROOT, fileURLToPath(import.meta.url));
    const files = CHECKED.flatMap((dir) => sourceFiles(dir)).filter((file) => file !== self);
    expect(files.length).toBeGreaterThan(500);
    const found = files.flatMap((file) => crossings(file, readFileSync(join(ROOT, file), 'utf8')).map((spec) => `${file}: ${spec}`));
    expect(found).toEqual([]);
  });
});
