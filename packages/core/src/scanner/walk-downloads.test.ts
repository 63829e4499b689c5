import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { walkDownloads } from './walk-downloads.ts';

const root = mkdtempSync(join(tmpdir(), 'mo-walk-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function put(rel: string, content = 'x') {
  const p = join(root, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, content);
  return p;
}

describe('walkDownloads', () => {
  it('lists every regular file, recursively, sorted, with size, mtime and device', async () => {
    put('b.mkv', 'abc');
    put('a/deep/er/c.srt');
    put('a/.hidden');
    const when = new Date('2022-01-01T00:00:00Z');
    utimesSync(join(root, 'b.mkv'), when, when);
    const files = await walkDownloads(root);
    expect(files.map((f) => f.rel)).toEqual(['a/.hidden', 'a/deep/er/c.srt', 'b.mkv']);
    expect(files[2]).toMatchObject({ path: join(root, 'b.mkv'), size: 3, mtimeMs: when.getTime() });
    expect(files[2]!.dev).toBeGreaterThan(0);
    expect(files[2]!.ino).toBeGreaterThan(0);
  });

  it('walks only the folder `from` names, and nothing when a link or a library folder is on its way', async () => {
    const base = mkdtempSync(join(tmpdir(), 'mo-walk-from-'));
    try {
      mkdirSync(join(base, 'dl/Pack.S01'), { recursive: true });
      writeFileSync(join(base, 'dl/Pack.S01/e1.mkv'), 'x');
      writeFileSync(join(base, 'dl/other.mkv'), 'x');
      mkdirSync(join(base, 'outside'));
      writeFileSync(join(base, 'outside/secret.mkv'), 'x');
      symlinkSync(join(base, 'outside'), join(base, 'dl/Swapped'));
      expect((await walkDownloads(join(base, 'dl'), { from: 'Pack.S01' })).map((f) => f.rel)).toEqual(['Pack.S01/e1.mkv']);
      expect(await walkDownloads(join(base, 'dl'), { from: 'Swapped' })).toEqual([]);
      const lib = statSync(join(base, 'dl/Pack.S01'));
      expect(await walkDownloads(join(base, 'dl'), { from: 'Pack.S01', exclude: new Set([`${lib.dev}:${lib.ino}`]) })).toEqual([]);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('neither follows nor lists symbolic links, and skips pipes', async () => {
    const dir = join(root, 'links');
    mkdirSync(dir);
    symlinkSync(root, join(dir, 'loop'));
    symlinkSync(join(root, 'b.mkv'), join(dir, 'link.mkv'));
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    const files = await walkDownloads(dir);
    expect(files).toEqual([]);
  });

  it('a missing downloads folder is empty, not an error', async () => {
    const skipped: string[] = [];
    expect(await walkDownloads(join(root, 'nope'), { onSkip: (p) => skipped.push(p) })).toEqual([]);
    expect(skipped).toEqual([]);
  });

  // Root reads anything, so the walk runs as nobody.
  it.skipIf(process.getuid?.() !== 0)('reports and leaves out a folder it cannot read', async () => {
    const dir = join(root, 'locked');
    put('locked/inner/x.mkv');
    put('locked/y.mkv');
    chmodSync(join(dir, 'inner'), 0o000);
    chmodSync(dir, 0o755);
    chmodSync(root, 0o755);
    const out = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('${join(import.meta.dirname, 'walk-downloads.ts')}').then(async (m) => { const skipped = []; const f = await m.walkDownloads(${JSON.stringify(dir)}, { onSkip: (p, e) => skipped.push([p, e]) }); console.log(JSON.stringify({ files: f.map((x) => x.rel), skipped })); })`,
      ],
      { encoding: 'utf8', uid: 65534, gid: 65534 },
    );
    chmodSync(join(dir, 'inner'), 0o755);
    expect(JSON.parse(out)).toEqual({ files: ['y.mkv'], skipped: [[join(dir, 'inner'), 'EACCES']] });
  });
});

describe('walkDownloads with excluded folders', () => {
  it('does not enter a folder named by device and inode, wherever it is', async () => {
    const dir = join(root, 'excl');
    put('excl/media/Movies/Heat (1995)/Heat (1995).mkv');
    put('excl/Heat.1995.mkv');
    const st = statSync(join(dir, 'media', 'Movies'));
    expect((await walkDownloads(dir, { exclude: new Set([`${st.dev}:${st.ino}`]) })).map((f) => f.rel)).toEqual(['Heat.1995.mkv']);
  });
});
