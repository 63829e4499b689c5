import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DATA_FILES, dataDir } from './data-dir.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const HOME = 'packages/core/src/data-dir/';

async function sources(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist') continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) found.push(...(await sources(path)));
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !path.includes('test-fixtures') && !path.includes('test-support')) found.push(path);
  }
  return found;
}

describe('dataDir', () => {
  it('puts every entry under the root, folders without their slash', () => {
    const d = dataDir('/data');
    expect(d.path('state')).toBe('/data/state.json');
    expect(d.path('history')).toBe('/data/history/imports.jsonl');
    expect(d.path('passes')).toBe('/data/passes');
    expect(d.passFile('passes/7.json')).toBe('/data/passes/7.json');
    expect(d.scannerFolder()).toBe('/data/scanner');
  });

  it("is the README's map of the data folder, entry for entry", async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const section = readme.split('## Files in the data folder\n')[1]!.split('\n## ')[0]!;
    const block = section.split('```\n')[1]!.trimEnd().split('\n');
    const listed = block.map((line) => {
      const [, name, what] = /^(\S+)\s+(.+)$/.exec(line)!;
      return { name, what };
    });
    expect(listed).toEqual(Object.values(DATA_FILES).map(({ name, what }) => ({ name, what })));
  });

  it('is the only module that names a file under paths.data', async () => {
    const files = (await Promise.all(['apps', 'packages'].map((d) => sources(join(ROOT, d))))).flat();
    const fileNames = Object.values(DATA_FILES)
      .map((f) => f.name.replace(/\/$/, ''))
      .flatMap((name) => [name, name.split('/').pop()!])
      .filter((name) => name.includes('.') || name.includes('/'));
    const offenders: string[] = [];
    for (const file of files) {
      const rel = relative(ROOT, file);
      if (rel.startsWith(HOME)) continue;
      const text = await readFile(file, 'utf8');
      for (const name of fileNames) if (text.includes(`'${name}'`) || text.includes(`"${name}"`)) offenders.push(`${rel}: '${name}'`);
      for (const m of text.matchAll(/join\([^)]*(dataDir|paths\.data)[^)]*\)/g)) offenders.push(`${rel}: ${m[0]}`);
    }
    expect(offenders).toEqual([]);
  });

  it('is opened by the runtime config alone: other modules are handed their store, not a folder to find it in', async () => {
    // Still given `paths.data` and finding their file from it; each goes once it is handed its store.
    const notYetHandedTheirStore = [
      'packages/core/src/history/history-log.ts',
      'packages/core/src/history/pass-lock.ts',
      'packages/core/src/library/index-store.ts',
      // scanLibraryToIndex(root) and readLibraryIndex(root), for the scan-run service and the pass.
      'packages/core/src/library/index-scan.ts',
      // The stores of `paths.data` for a pass or manual import run without DataStores (tests): the services are handed them.
      'packages/core/src/scanner/scan-stores.ts',
      'packages/core/src/scanner/pass-file.ts',
      'packages/core/src/scanner/pass-list.ts',
      // saveDownloadsListing, for the pass, which is given its config rather than the stores.
      'packages/core/src/scanner/downloads-cache.ts',
    ];
    const files = (await Promise.all(['apps', 'packages'].map((d) => sources(join(ROOT, d))))).flat();
    const opening: string[] = [];
    for (const file of files) {
      const rel = relative(ROOT, file);
      if (rel.startsWith(HOME) || rel === 'packages/core/src/config/data-stores.ts' || rel === 'packages/core/src/config/runtime-config.ts') continue;
      const text = await readFile(file, 'utf8');
      if (/import\s*\{[^}]*\b(dataDir|openDataDir|openStateStores)\b[^}]*\}/.test(text.replace(/\btype\s+\w+/g, ''))) opening.push(rel);
    }
    expect(opening.sort()).toEqual(notYetHandedTheirStore.sort());
  });
});
