import { spawn, spawnSync } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { rmSync, symlinkSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CONFIG, type Drive, type IndexItem } from '@mo/shared';
import { NFO_MAX_BYTES } from './folder-listing.ts';
import { libraryScanOptions, scanLibrary, scanLibraryInto, type LibraryScanOptions } from './scan-library.ts';
import { libraryView, extensionBreakdown } from './views.ts';

let root: string;
let drives: Drive[];

async function put(rel: string, bytes = 10, content?: string) {
  const p = join(root, rel);
  await mkdir(dirname(p), { recursive: true });
  await writeFile(p, content ?? Buffer.alloc(bytes));
}

function options(over: Partial<LibraryScanOptions> = {}): LibraryScanOptions {
  return { ...libraryScanOptions({ ...DEFAULT_CONFIG, drives }), maxFiles: 1000, ...over };
}

function mkfifo(path: string) {
  const out = spawnSync('mkfifo', [path], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`mkfifo ${path}: ${out.stderr}`);
}

/** A scan whose folders are read on its own thread, when it reaches them, as a rescan reads them. */
async function scanInline(opts: LibraryScanOptions): Promise<IndexItem[]> {
  const items: IndexItem[] = [];
  await scanLibraryInto(opts, { item: (item) => items.push(item), known: () => undefined });
  return items;
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mo-lib-'));
  drives = [
    { name: 'd1', path: join(root, 'd1') },
    { name: 'd2', path: join(root, 'd2') },
  ];
  await put('d1/Movies/The Matrix (1999)/The Matrix (1999).mkv', 1000);
  await put('d1/Movies/The Matrix (1999)/The Matrix (1999).en.srt', 5);
  await put('d1/Movies/The Matrix (1999)/Featurettes/Making Of.mkv', 50);
  await put('d1/Movies/Heat.1995.1080p.BluRay.x264-GRP.mkv', 700);
  await put('d1/TV/Lost (2004)/Season 01/Lost (2004) - S01E01-E02.mkv', 300);
  await put('d1/TV/Lost (2004)/Season 01/Lost (2004) - S01E05.mkv', 300);
  await put('d1/TV/Lost (2004)/tvshow.nfo', 0, '<tvshow><title>Lost</title></tvshow>');
  await put(
    'd1/TV/Lost (2004)/Season 01/Lost (2004) - S01E06.nfo',
    0,
    '<episodedetails><title>Walkabout</title><season>1</season><episode>6</episode><aired>2004-10-20</aired></episodedetails>',
  );
  await put('d2/TV Shows/Fargo (2014)/Season 2/Fargo (2014) - S02E01.mkv', 400);
  await put('d2/Downloads/Other.Movie.2020.mkv', 999);
  await put('d2/Movies.bak/Old (1990)/Old (1990).mkv', 999);
  await put('d1/loose.mkv', 999);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('scanLibrary', () => {
  it("indexes only the library folders of each drive in a stable order (a folder's files, then its subfolders)", async () => {
    const index = await scanLibrary(options());
    const paths = index.items.map((i) => i.path.slice(root.length + 1));
    expect(paths).toEqual([
      'd1/Movies/Heat.1995.1080p.BluRay.x264-GRP.mkv',
      'd1/Movies/The Matrix (1999)/The Matrix (1999).en.srt',
      'd1/Movies/The Matrix (1999)/The Matrix (1999).mkv',
      'd1/Movies/The Matrix (1999)/Featurettes/Making Of.mkv',
      'd1/TV/Lost (2004)/tvshow.nfo',
      'd1/TV/Lost (2004)/Season 01/Lost (2004) - S01E01-E02.mkv',
      'd1/TV/Lost (2004)/Season 01/Lost (2004) - S01E05.mkv',
      'd1/TV/Lost (2004)/Season 01/Lost (2004) - S01E06.nfo',
      'd2/TV Shows/Fargo (2014)/Season 2/Fargo (2014) - S02E01.mkv',
    ]);
    const matrix = index.items.find((i) => i.path.endsWith('The Matrix (1999).mkv'))!;
    expect(matrix).toMatchObject({
      drive: 'd1',
      section: 'movies',
      root: join(root, 'd1/Movies'),
      folder: join(root, 'd1/Movies/The Matrix (1999)'),
      bytes: 1000,
      ext: '.mkv',
      type: 'video',
      title: 'The Matrix',
      year: 1999,
      extra: false,
      nfo: null,
    });
    expect(matrix.mtime_ms).toBeGreaterThan(0);
    const heat = index.items.find((i) => i.path.includes('Heat'))!;
    expect(heat).toMatchObject({ folder: join(root, 'd1/Movies'), title: 'Heat', year: 1995 });
    const nfo = index.items.find((i) => i.path.endsWith('S01E06.nfo'))!;
    expect(nfo.nfo).toEqual({ kind: 'episode', title: 'Walkabout', season: 1, episode: 6, aired: '2004-10-20' });
    expect(index).toMatchObject({ version: 1, truncated: false, timed_out: false, skipped: [] });
    expect(index.drives).toEqual(drives);
  });

  it('does not read nfo files when metadata.read_nfo is off', async () => {
    const index = await scanLibrary(options({ readNfo: false }));
    expect(index.items.filter((i) => i.type === 'nfo').every((i) => i.nfo === null)).toBe(true);
  });

  it('reads every .nfo, however many and large: the listing thread sends its heads in batches a few at a time', async () => {
    const plot = 'p'.repeat(300_000);
    for (let i = 0; i < 40; i++) await put(`d1/Movies/Film ${i} (2000)/movie.nfo`, 0, `<movie><title>Film ${i}</title><plot>${plot}</plot></movie>`);
    await put('d1/Movies/Film 0 (2000)/extra.nfo', 0, `<movie><title>Extra</title><plot>${plot}</plot></movie>`);
    const inline: string[] = [];
    const index = await scanLibrary(options({ onInlineListing: (r) => inline.push(r) }));
    expect(inline).toEqual([]);
    const titles = index.items.filter((i) => i.type === 'nfo' && i.path.includes('/Film ')).map((i) => i.nfo?.title);
    expect(titles.sort()).toEqual(['Extra', ...Array.from({ length: 40 }, (_, i) => `Film ${i}`)].sort());
  });

  it('stops at library_scan_max_files and flags the index truncated', async () => {
    const index = await scanLibrary(options({ maxFiles: 3 }));
    expect(index.items).toHaveLength(3);
    expect(index.truncated).toBe(true);
  });

  it('stops at library_scan_timeout_seconds and flags the index timed out', async () => {
    for (let i = 0; i < 4100; i++) await put(`d1/Movies/Many (2000)/f${i}.txt`, 0);
    let t = 0;
    const index = await scanLibrary(options({ maxFiles: 10_000, timeoutMs: 5, now: () => (t += 10) }));
    expect(index.timed_out).toBe(true);
    expect(index.items.length).toBeLessThan(4100);
  });

  describe('with a listing thread that never answers (a drive that hangs)', () => {
    const closed: string[] = [];
    const hanging = (): LibraryScanOptions['firstScanLister'] => () => ({
      list: () => new Promise(() => {}),
      nfoHead: () => null,
      close: () => void closed.push('closed'),
    });
    beforeEach(() => void (closed.length = 0));

    it('ends at library_scan_timeout_seconds, flagged timed out, and closes the lister, leaving no listener on the job', async () => {
      const job = new AbortController();
      const index = await scanLibrary(options({ timeoutMs: 50, signal: job.signal, firstScanLister: hanging() }));
      expect(index).toMatchObject({ timed_out: true, items: [] });
      expect(closed).toEqual(['closed']);
      expect(getEventListeners(job.signal, 'abort')).toEqual([]);
    });

    it('ends when its job is cancelled, with the cancel as its error, leaving no timer behind', async () => {
      const stop = new AbortController();
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const waiting: LibraryScanOptions['firstScanLister'] = () => ({
          ...hanging()!([], false, new Set()),
          list: () => {
            queueMicrotask(() => stop.abort(new Error('cancelled by the owner')));
            return new Promise(() => {});
          },
        });
        await expect(scanLibrary(options({ timeoutMs: 600_000, signal: stop.signal, firstScanLister: waiting }))).rejects.toThrow('cancelled by the owner');
        expect(vi.getTimerCount()).toBe(0);
      } finally {
        vi.useRealTimers();
      }
      expect(closed).toEqual(['closed']);
    });
  });

  it('follows a symlinked folder once and ends in a symlink loop, logging what it skipped', async () => {
    await symlink(join(root, 'd1/TV'), join(root, 'd1/TV/Lost (2004)/loop'));
    await symlink('self', join(root, 'd1/Movies/self'));
    await put('elsewhere/Alien (1979)/Alien (1979).mkv', 10);
    await symlink(join(root, 'elsewhere/Alien (1979)'), join(root, 'd1/Movies/Alien (1979)'));
    const skips: string[] = [];
    const inline: string[] = [];
    const index = await scanLibrary(options({ onSkip: (p, e) => skips.push(`${p.slice(root.length + 1)} ${e}`), onInlineListing: (r) => inline.push(r) }));
    // The listing thread walked the same folders in the same order as the scan.
    expect(inline).toEqual([]);
    expect(index.items.filter((i) => i.path.includes('/loop/'))).toEqual([]);
    expect(index.items.some((i) => i.title === 'Alien' && i.year === 1979)).toBe(true);
    expect(skips).toEqual(['d1/Movies/self ELOOP']);
    expect(index.skipped).toEqual([{ path: join(root, 'd1/Movies/self'), error: 'ELOOP' }]);
  });

  it('keeps walking the other library folders when one holds a link above them (Movies/Loop (2001) -> ..) or to another', async () => {
    const expected = (await scanLibrary(options())).items.map((i) => [i.path, i.section]);
    await symlink('..', join(root, 'd1/Movies/Loop (2001)'));
    await symlink('../..', join(root, 'd1/Movies/Up (2002)'));
    await symlink('../TV', join(root, 'd1/Movies/Shows (2003)'));
    const skips: string[] = [];
    const inline: string[] = [];
    const opts = options({ onSkip: (p, e) => skips.push(`${p.slice(root.length + 1)} ${e}`), onInlineListing: (r) => inline.push(r) });
    for (const items of [(await scanLibrary(opts)).items, await scanInline(opts)]) {
      // TV is walked where it is, as TV; nothing outside the library folders comes in through a link.
      expect(items.map((i) => [i.path, i.section])).toEqual(expected);
    }
    // The listing thread walked the same folders in the same order as the scan.
    expect(inline).toEqual([]);
    expect(skips).toEqual(['d1/Movies/Loop (2001) ELOOP', 'd1/Movies/Up (2002) ELOOP', 'd1/Movies/Loop (2001) ELOOP', 'd1/Movies/Up (2002) ELOOP']);
  });

  describe('hostile .nfo files', () => {
    it('reads only the .nfo files that are regular files of their own: a link out of the library, to a FIFO or to a device is indexed unread', async () => {
      await put('elsewhere/secret.nfo', 0, '<movie><title>Secret</title></movie>');
      mkfifo(join(root, 'elsewhere/pipe'));
      const film = join(root, 'd1/Movies/The Matrix (1999)');
      await symlink(join(root, 'elsewhere/secret.nfo'), join(film, 'movie.nfo'));
      await symlink(join(root, 'elsewhere/pipe'), join(film, 'pipe.nfo'));
      mkfifo(join(film, 'fifo.nfo'));
      await symlink('/dev/zero', join(film, 'zero.nfo'));
      await symlink('/dev/null', join(film, 'null.nfo'));
      for (const items of [(await scanLibrary(options())).items, await scanInline(options())]) {
        // FIFOs and devices are no files to index; the link to a file is one, but not read.
        expect(items.filter((i) => i.folder === film && i.type === 'nfo').map((i) => [basename(i.path), i.nfo])).toEqual([['movie.nfo', null]]);
        expect(items.find((i) => i.path.endsWith('S01E06.nfo'))?.nfo?.title).toBe('Walkabout');
      }
    });

    it('refuses at once a .nfo swapped, after its folder was listed, for a FIFO or a link to one or to a device', async () => {
      const season = join(root, 'd1/TV/Lost (2004)/Season 01');
      // Four whole heads spend a listing's budget: the .nfo files after them are opened only when
      // the scan reaches them, after its first yield (every 2,000 files), where they are swapped.
      for (const n of ['a', 'b', 'c', 'd']) await writeFile(join(season, `${n}.nfo`), `<episodedetails>${'p'.repeat(NFO_MAX_BYTES)}`);
      for (let i = 0; i < 2000; i++) await writeFile(join(season, `f${i}.txt`), '');
      const late = ['x', 'y', 'z'].map((n) => join(season, `${n}.nfo`));
      for (const f of late) await writeFile(f, '<episodedetails><title>Late</title></episodedetails>');
      const pipe = join(root, 'elsewhere/pipe');
      await mkdir(dirname(pipe));
      mkfifo(pipe);
      const [x, y, z] = late as [string, string, string];
      let swapped = false;
      const swap = () => {
        if (swapped) return;
        swapped = true;
        rmSync(x);
        symlinkSync('/dev/zero', x);
        rmSync(y);
        mkfifo(y);
        rmSync(z);
        symlinkSync(pipe, z);
      };
      // An open that waits on a FIFO blocks this thread, out of reach of the test's own timeout: a
      // writer opening each after 5 s frees it, and the test fails by its time instead of hanging.
      const freers = [y, pipe].map((f) => spawn('sh', ['-c', 'sleep 5; : > "$0"', f], { stdio: 'ignore' }));
      try {
        const started = Date.now();
        const items = await scanInline(options({ maxFiles: 10_000, onProgress: swap }));
        expect(Date.now() - started).toBeLessThan(4000);
        expect(swapped).toBe(true);
        expect(items.filter((i) => late.includes(i.path)).map((i) => [basename(i.path), i.nfo])).toEqual([
          ['x.nfo', null],
          ['y.nfo', null],
          ['z.nfo', null],
        ]);
      } finally {
        for (const f of freers) f.kill('SIGKILL');
      }
    }, 20_000);
  });

  it('skips an unreadable folder with a warning and indexes the rest', async () => {
    await put('d1/Movies/Secret (2001)/Secret (2001).mkv', 10);
    await chmod(join(root, 'd1/Movies/Secret (2001)'), 0o000);
    await chmod(root, 0o755);
    try {
      // Root reads every folder regardless of its mode, so the scan runs as nobody when we are root.
      const fixture = join(dirname(fileURLToPath(import.meta.url)), 'test-fixtures/scan-once.ts');
      const node = [process.execPath, '--import', 'tsx', fixture, join(root, 'd1')];
      const cmd = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', ...node] : node;
      const out = spawnSync(cmd[0]!, cmd.slice(1), { encoding: 'utf8', env: { ...process.env, HOME: tmpdir() } });
      expect(out.status, out.stderr).toBe(0);
      const result = JSON.parse(out.stdout) as { skipped: { path: string; error: string }[]; files: string[] };
      expect(result.skipped).toEqual([{ path: join(root, 'd1/Movies/Secret (2001)'), error: 'EACCES' }]);
      expect(out.stderr).toContain(`skip ${join(root, 'd1/Movies/Secret (2001)')} EACCES`);
      expect(result.files.some((f) => f.endsWith('The Matrix (1999).mkv'))).toBe(true);
    } finally {
      await chmod(join(root, 'd1/Movies/Secret (2001)'), 0o755);
    }
  });

  it('skips a drive that is not there and carries on', async () => {
    const index = await scanLibrary(options({ drives: [{ name: 'gone', path: join(root, 'gone') }, ...drives] }));
    expect(index.skipped).toEqual([{ path: join(root, 'gone'), error: 'ENOENT' }]);
    expect(index.items.length).toBe(9);
  });

  it("never counts the drives' recycle bins, even where the config names .recycle a library folder", async () => {
    await put('d1/.recycle/2026-11-28/Movies/Heat (1995)/Heat (1995).mkv', 500);
    const index = await scanLibrary(options());
    expect(index.items.length).toBe(9);
    expect(index.items.some((i) => i.path.includes('.recycle'))).toBe(false);
    const named = await scanLibrary(options({ movieFolders: ['Movies', '.recycle'] }));
    expect(named.items.some((i) => i.path.includes('.recycle'))).toBe(false);
  });

  it('honours configured library folder names', async () => {
    const index = await scanLibrary(options({ movieFolders: ['Downloads'], tvFolders: [] }));
    expect(index.items.map((i) => i.title)).toEqual(['Other Movie']);
  });
});

describe('libraryView', () => {
  it('groups movies and series and counts them', async () => {
    const index = await scanLibrary(options());
    const view = libraryView(index);
    expect(view.summary).toMatchObject({ files: 9, movies: 2, series: 2, episodes: 4, truncated: false, timed_out: false });
    expect(view.summary.bytes).toBe(
      1000 +
        5 +
        50 +
        700 +
        300 +
        300 +
        400 +
        Buffer.byteLength('<tvshow><title>Lost</title></tvshow>') +
        index.items.find((i) => i.path.endsWith('S01E06.nfo'))!.bytes,
    );
    expect(view.movies.map((m) => [m.title, m.year, m.files])).toEqual([
      ['Heat', 1995, 1],
      ['The Matrix', 1999, 3],
    ]);
    expect(view.series).toEqual([
      {
        title: 'Fargo',
        folder: join(root, 'd2/TV Shows/Fargo (2014)'),
        drive: 'd2',
        seasons: [{ season: 2, episodes: [1] }],
        episode_count: 1,
        files: 1,
        bytes: 400,
      },
      {
        title: 'Lost',
        folder: join(root, 'd1/TV/Lost (2004)'),
        drive: 'd1',
        seasons: [{ season: 1, episodes: [1, 2, 5] }],
        episode_count: 3,
        files: 4,
        bytes: expect.any(Number),
      },
    ]);
    expect(JSON.stringify(view)).not.toContain('"items"');
  });

  it('reads a library named as Jellyfin, Plex and Kodi name theirs', async () => {
    const lib = (rel: string) => put(`d3/${rel}`);
    // Movies: id, edition and quality tags; parts in a folder and loose; extras; titles that hold extras words.
    await lib('Movies/Alien (1979) [imdbid-tt0078748]/Alien (1979) [imdbid-tt0078748].mkv');
    await lib('Movies/Alien (1979) [imdbid-tt0078748]/Featurettes/Making Of.mkv');
    await lib('Movies/Alien (1979) [imdbid-tt0078748]/Alien (1979)-trailer.mkv');
    await lib('Movies/Alien (1979) [imdbid-tt0078748]/trailer.mp4');
    await lib('Movies/Blade Runner (1982) {edition-Final Cut}/Blade Runner (1982) {edition-Final Cut}.mkv');
    await lib('Movies/Heat (1995) {tmdb-949} [1080p]/Heat (1995) - cd1.mkv');
    await lib('Movies/Heat (1995) {tmdb-949} [1080p]/Heat (1995) - cd2.mkv');
    await lib('Movies/Ronin (1998) - cd1.mkv');
    await lib('Movies/Ronin (1998) - cd2.mkv');
    await lib('Movies/Ronin (1998)-trailer.mkv');
    await lib('Movies/Ran (1985)-a.mkv');
    await lib('Movies/Ran (1985)-b.mkv');
    await lib('Movies/Harry Potter and the Deathly Hallows - Part 1 (2010).mkv');
    await lib('Movies/Harry Potter and the Deathly Hallows - Part 2 (2011).mkv');
    await lib('Movies/The Other Guys (2010)/The Other Guys (2010).mkv');
    // TV: id tags, season folders in several languages, specials, numbers without a season,
    // absolute numbers, multi-episode files, extras.
    await lib('TV Shows/Lost (2004) [tvdbid-73739]/Season 01/Lost - S01E01-E02.mkv');
    await lib('TV Shows/Lost (2004) [tvdbid-73739]/Season 01/Lost - S01E03.mkv');
    await lib('TV Shows/Lost (2004) [tvdbid-73739]/Season 01/Lost - S01E03-deleted.mkv');
    await lib('TV Shows/Lost (2004) [tvdbid-73739]/Specials/Lost - S00E01.mkv');
    await lib('TV Shows/Lost (2004) [tvdbid-73739]/Extras/Lost - Making of.mkv');
    await lib('TV Shows/Dark {tvdb-81189}/Staffel 1/01 - Geheimnisse.mkv');
    await lib('TV Shows/Dark {tvdb-81189}/Staffel 1/02 - Lügen.mkv');
    await lib('TV Shows/Dark {tvdb-81189}/Staffel 2/E01.mkv');
    await lib('TV Shows/Frieren (2023)/[SubsPlease] Sousou no Frieren - 01 (1080p) [E3F1A2B4].mkv');
    await lib('TV Shows/Frieren (2023)/[SubsPlease] Sousou no Frieren - 02 (1080p) [0B1C2D3E].mkv');
    await lib('TV Shows/Frieren (2023)/Frieren - 03.mkv');
    await lib('TV Shows/12 Monkeys (2015)/Season 1/01 - Splinter.mkv');
    await lib('TV Shows/12 Monkeys (2015)/Season 1/07 - 12 Monkeys.mkv');
    await lib('TV Shows/12 Monkeys (2015)/Season 1/trailer.mkv');
    await lib('TV Shows/Trailer Park Boys/Saison 1/Trailer Park Boys - 1x01.mkv');
    await lib('TV Shows/Trailer Park Boys/Saison 1/Trailer Park Boys - 1x02-1x03.mkv');
    await lib('TV Shows/Extras (2005)/Season 1/Extras - S01E01.mkv');

    const index = await scanLibrary(options({ drives: [{ name: 'd3', path: join(root, 'd3') }] }));
    const view = libraryView(index);
    expect(view.summary).toMatchObject({ files: 32, movies: 8, series: 6, episodes: 16 });
    const movies = join(root, 'd3/Movies');
    expect(view.movies.map((m) => [m.title, m.year, m.folder.slice(movies.length + 1), m.files])).toEqual([
      ['Alien', 1979, 'Alien (1979) [imdbid-tt0078748]', 4],
      ['Blade Runner', 1982, 'Blade Runner (1982) {edition-Final Cut}', 1],
      ['Harry Potter and the Deathly Hallows - Part 1', 2010, 'Harry Potter and the Deathly Hallows - Part 1 (2010).mkv', 1],
      ['Harry Potter and the Deathly Hallows - Part 2', 2011, 'Harry Potter and the Deathly Hallows - Part 2 (2011).mkv', 1],
      ['Heat', 1995, 'Heat (1995) {tmdb-949} [1080p]', 2],
      ['Ran', 1985, 'Ran (1985)-a.mkv', 2],
      ['Ronin', 1998, 'Ronin (1998) - cd1.mkv', 2],
      ['The Other Guys', 2010, 'The Other Guys (2010)', 1],
    ]);
    expect(view.series.map((s) => [s.title, s.seasons])).toEqual([
      ['12 Monkeys', [{ season: 1, episodes: [1, 7] }]],
      [
        'Dark',
        [
          { season: 1, episodes: [1, 2] },
          { season: 2, episodes: [1] },
        ],
      ],
      ['Extras', [{ season: 1, episodes: [1] }]],
      ['Frieren', [{ season: 1, episodes: [1, 2, 3] }]],
      [
        'Lost',
        [
          { season: 0, episodes: [1] },
          { season: 1, episodes: [1, 2, 3] },
        ],
      ],
      ['Trailer Park Boys', [{ season: 1, episodes: [1, 2, 3] }]],
    ]);
    const extras = index.items.filter((i) => i.extra).map((i) => i.path.slice(join(root, 'd3').length + 1));
    expect(extras).toEqual([
      'Movies/Ronin (1998)-trailer.mkv',
      'Movies/Alien (1979) [imdbid-tt0078748]/Alien (1979)-trailer.mkv',
      'Movies/Alien (1979) [imdbid-tt0078748]/trailer.mp4',
      'Movies/Alien (1979) [imdbid-tt0078748]/Featurettes/Making Of.mkv',
      'TV Shows/12 Monkeys (2015)/Season 1/trailer.mkv',
      'TV Shows/Lost (2004) [tvdbid-73739]/Extras/Lost - Making of.mkv',
      'TV Shows/Lost (2004) [tvdbid-73739]/Season 01/Lost - S01E03-deleted.mkv',
    ]);
  });

  it('is empty before the first scan', () => {
    expect(libraryView(null)).toMatchObject({ summary: { files: 0, scanned_at: null }, movies: [], series: [] });
  });

  it('breaks the index down by extension', async () => {
    const ext = extensionBreakdown(await scanLibrary(options()));
    expect(ext['.mkv']).toEqual({ count: 6, bytes: 1000 + 50 + 700 + 300 + 300 + 400 });
    expect(ext['.srt']).toEqual({ count: 1, bytes: 5 });
    expect(ext['.nfo']!.count).toBe(2);
  });
});
