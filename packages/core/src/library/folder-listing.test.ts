import { statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENTRY_DIR, FIGURES, inlineLister, prefetchingLister, type FolderLister, type FolderListing } from './folder-listing.ts';

let root: string;

async function put(rel: string, bytes = 10) {
  const p = join(root, rel);
  await mkdir(dirname(p), { recursive: true });
  await writeFile(p, Buffer.alloc(bytes));
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mo-listing-'));
  await put('Movies/Alien (1979)/Alien (1979).mkv', 100);
  await put('Movies/Alien (1979)/Featurettes/Making Of.mkv', 5);
  await writeFile(join(root, 'Movies/Alien (1979)/movie.NFO'), '<movie><title>Alien</title></movie>');
  await put('Movies/Line\nBreak (2001)/a "quoted" \\ name.mkv', 7);
  await put('Movies/Ünïcødé (2002)/Ünïcødé (2002).mkv', 8);
  await put('TV/Lost (2004)/Season 01/Lost - S01E01.mkv', 9);
  await put('elsewhere/Heat (1995)/Heat (1995).mkv', 10);
  await symlink(join(root, 'elsewhere/Heat (1995)'), join(root, 'Movies/Heat (1995)'));
  await symlink(join(root, 'TV'), join(root, 'TV/Lost (2004)/loop'));
  await symlink('self', join(root, 'Movies/self'));
  await symlink(join(root, 'gone'), join(root, 'Movies/dangling'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The walk a scan makes, in its order: every folder's listing, folders entered once by device and
 * inode. `pause` lets the thread's messages in between folders, as the scan's yields do.
 */
async function walk(lister: FolderLister, roots: string[], pause = false): Promise<FolderListing[]> {
  const seen = new Set<string>();
  const out: FolderListing[] = [];
  try {
    for (const r of roots) {
      const st = statSync(r);
      seen.add(`${st.dev}:${st.ino}`);
      const stack = [r];
      while (stack.length > 0) {
        if (pause) await settle(5);
        const listing = await lister.list(stack.pop()!);
        out.push({ ...listing, figures: Float64Array.from(listing.figures) });
        const subdirs: string[] = [];
        listing.names.forEach((name, i) => {
          const f = listing.figures.subarray(i * FIGURES, (i + 1) * FIGURES);
          const key = `${f[4]}:${f[5]}`;
          if (f[0] === ENTRY_DIR && !seen.has(key)) {
            seen.add(key);
            subdirs.push(`${listing.dir}/${name}`);
          }
        });
        stack.push(...subdirs.reverse());
      }
    }
  } finally {
    lister.close();
  }
  return out;
}

describe('prefetchingLister', () => {
  it('hands over, from its thread, the listings an inline walk reads: hostile names, links out of the library, loops and errors alike', async () => {
    const roots = [join(root, 'Movies'), join(root, 'TV')];
    const inline = await walk(inlineLister(true), roots);
    const fellBack: string[] = [];
    const lister = prefetchingLister(roots, true, (reason) => fellBack.push(reason));
    // Started: every listing comes from the thread (one that failed would say so).
    await settle(1000);
    const prefetched = await walk(lister, roots);
    expect(fellBack).toEqual([]);
    expect(prefetched).toEqual(inline);
    const movies = inline.find((l) => l.dir === join(root, 'Movies'))!;
    expect(movies.names).toContain('Line\nBreak (2001)');
    expect(movies.errors[movies.names.indexOf('self')]).toBe('ELOOP');
    expect(inline.some((l) => l.dir === join(root, 'Movies/Heat (1995)'))).toBe(true);
    const alien = inline.find((l) => l.dir === join(root, 'Movies/Alien (1979)'))!;
    expect(alien.heads[alien.names.indexOf('movie.NFO')]).toBe('<movie><title>Alien</title></movie>');
    expect(alien.heads[alien.names.indexOf('Alien (1979).mkv')]).toBeUndefined();
  });

  it('keeps handing over batches cut short by their .nfo heads: a scan taking them one folder at a time never waits on the thread', async () => {
    // 40 folders of one 300 KB .nfo each: batches end on the heads' budget, a few folders each.
    await rm(join(root, 'Movies'), { recursive: true, force: true });
    for (let i = 0; i < 40; i++) await put(`Movies/Big ${i} (2000)/movie.nfo`, 300_000);
    const roots = [join(root, 'Movies')];
    const inline = await walk(inlineLister(true), roots);
    const fellBack: string[] = [];
    const lister = prefetchingLister(roots, true, (reason) => fellBack.push(reason));
    await settle(1000);
    expect(await walk(lister, roots)).toEqual(inline);
    expect(fellBack).toEqual([]);
    expect(inline.filter((l) => l.heads.some((h) => typeof h === 'string' && h.length > 0))).toHaveLength(40);
  }, 20_000);

  it("reads folders itself while the thread starts, and drops the thread's listings of them when they come", async () => {
    for (let i = 0; i < 50; i++) await put(`Movies/Film ${i} (2000)/Film ${i} (2000).mkv`);
    const roots = [join(root, 'Movies'), join(root, 'TV')];
    const inline = await walk(inlineLister(true), roots);
    const fellBack: string[] = [];
    // Right away, and giving the thread's messages a turn between folders.
    expect(
      await walk(
        prefetchingLister(roots, true, (reason) => fellBack.push(reason)),
        roots,
        true,
      ),
    ).toEqual(inline);
    expect(fellBack).toEqual([]);
  });

  it('reads inline from the first folder asked for out of its order, and says so', async () => {
    const roots = [join(root, 'Movies'), join(root, 'TV')];
    const fellBack: string[] = [];
    const lister = prefetchingLister(roots, true, (reason) => fellBack.push(reason));
    try {
      await settle(1000);
      const first = await lister.list(join(root, 'TV'));
      expect(first.dir).toBe(join(root, 'TV'));
      expect(first.names).toEqual(['Lost (2004)']);
      expect((await lister.list(join(root, 'Movies'))).names).toContain('Alien (1979)');
    } finally {
      lister.close();
    }
    expect(fellBack).toEqual([`asked for ${join(root, 'TV')}, the thread listed ${join(root, 'Movies')}`]);
  });
});

describe('listFolder', () => {
  it('reads .nfo heads only while the budget lasts: the rest are left for when the scan reaches them', async () => {
    const big = (i: number) => `<movie><title>Part ${i}</title><plot>${'p'.repeat(300_000)}</plot></movie>`;
    for (let i = 0; i < 6; i++) await writeFile(join(root, `Movies/Alien (1979)/part${i}.nfo`), big(i));
    const lister = inlineLister(true);
    const listing = await lister.list(join(root, 'Movies/Alien (1979)'));
    const heads = listing.names.map((n, i) => (n.startsWith('part') ? listing.heads[i] : 'n/a'));
    // 256 KiB each, 1 Mi characters in all: the fourth crosses the budget, the fifth and sixth wait.
    expect(heads.filter((h) => typeof h === 'string' && h.startsWith('<movie><title>Part')).length).toBe(4);
    expect(heads.filter((h) => h === undefined).length).toBe(2);
    expect(lister.nfoHead(join(root, 'Movies/Alien (1979)/part5.nfo'))).toMatch(/^<movie><title>Part 5</);
  });
});
