import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, initialState, stateSchema, type Config } from '@mo/shared';
import { NO_OWNERSHIP } from '../fs/ownership.ts';
import { createLogger } from '../logging/logger.ts';
import { createStateStore } from '../state/state-store.ts';
import { dataDir } from '../data-dir/data-dir.ts';
import { downloadsListingStore } from './downloads-cache.ts';
import { downloadsListing, MAX_LISTED_DEPTH, MAX_LISTED_FILES, recentUnder } from './downloads-listing.ts';
import type { DownloadFile } from './plan-pass.ts';
import { UNKNOWN_QUALITY } from '../parse/quality.ts';
import { runScanPass } from './run-pass.ts';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const cfgFor = (root: string, data = '/data'): Config => ({ ...DEFAULT_CONFIG, paths: { downloads: root, config: data, data }, drives: [] });
const store = (data: string) => downloadsListingStore(dataDir(data));
/** The listing's file, named here as it is on disk. */
const listingFile = (data: string) => join(data, 'downloads-listing.json');
const file = (rel: string, over: Partial<DownloadFile> = {}): DownloadFile => ({
  path: `/dl/${rel}`,
  rel,
  size: 10,
  mtimeMs: NOW - 3600_000,
  dev: 1,
  ino: 1,
  ...over,
});

describe('downloadsListing', () => {
  it('gives each file its size, time, settled state as of the walk, and what its name parses to', () => {
    const cfg = cfgFor('/dl');
    const { files, truncated } = downloadsListing(
      cfg,
      [file('Heat.1995.mkv'), file('Heat.1995.en.srt'), file('new/Alien.1979.1080p.BluRay.x264-GRP.mkv', { mtimeMs: NOW - 1000 })],
      NOW,
    );
    expect(truncated).toBe(false);
    expect(files).toEqual([
      {
        path: '/dl/Heat.1995.mkv',
        bytes: 10,
        modified_at: '2026-03-01T11:00:00.000Z',
        settled: true,
        media: { kind: 'movie', title: 'Heat', year: 1995, season: null, episodes: null, air_date: null, country: null, quality: UNKNOWN_QUALITY },
      },
      { path: '/dl/Heat.1995.en.srt', bytes: 10, modified_at: '2026-03-01T11:00:00.000Z', settled: true, media: null },
      {
        path: '/dl/new/Alien.1979.1080p.BluRay.x264-GRP.mkv',
        bytes: 10,
        modified_at: '2026-03-01T11:59:59.000Z',
        settled: false,
        media: expect.objectContaining({
          title: 'Alien',
          year: 1979,
          quality: { resolution: 1080, source: 'bluray', codec: 'x264', proper: false, repack: false, group: 'GRP' },
        }),
      },
    ]);
  });

  it(`keeps the first ${MAX_LISTED_FILES} files and says it cut the rest`, () => {
    const many = Array.from({ length: MAX_LISTED_FILES + 1 }, (_, i) => file(`f${String(i).padStart(5, '0')}.bin`));
    const atCap = downloadsListing(cfgFor('/dl'), many.slice(0, MAX_LISTED_FILES), NOW);
    expect(atCap.files).toHaveLength(MAX_LISTED_FILES);
    expect(atCap.truncated).toBe(false);
    const over = downloadsListing(cfgFor('/dl'), many, NOW);
    expect(over.files).toHaveLength(MAX_LISTED_FILES);
    expect(over.files.at(-1)!.path).toBe(many[MAX_LISTED_FILES - 1]!.path);
    expect(over.truncated).toBe(true);
  });

  it(`lists files up to ${MAX_LISTED_DEPTH} folders deep and says it left deeper ones out`, () => {
    const deep = (n: number) => file(`${Array.from({ length: n }, (_, i) => `d${i}`).join('/')}${n ? '/' : ''}x.mkv`);
    const within = downloadsListing(cfgFor('/dl'), [deep(0), deep(MAX_LISTED_DEPTH)], NOW);
    expect(within.files).toHaveLength(2);
    expect(within.truncated).toBe(false);
    const beyond = downloadsListing(cfgFor('/dl'), [deep(0), deep(MAX_LISTED_DEPTH + 1), deep(1)], NOW);
    expect(beyond.files.map((f) => f.path)).toEqual([deep(0).path, deep(1).path]);
    expect(beyond.truncated).toBe(true);
  });

  it('recentUnder keeps entries whose source lies under the folder, not beside it', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const e = (source: string) => ({ type: 'move' as const, source, destination: '/m/x', at, status: 'moved' as const });
    expect(recentUnder('/dl/', [e('/dl/a.mkv'), e('/dl-other/b.mkv'), e('/dl'), e('/elsewhere/c.mkv'), e('/dl/sub/d.mkv')]).map((x) => x.source)).toEqual([
      '/dl/a.mkv',
      '/dl/sub/d.mkv',
    ]);
  });
});

describe('the saved listing', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is saved with its folder and time, read back as saved, and null before the first save', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mo-listing-'));
    expect(await store(dir).read()).toBeNull();
    const cfg = cfgFor('/dl', dir);
    const listing = await store(dir).save(cfg, [file('Heat.1995.mkv')], NOW);
    expect(await store(dir).read()).toEqual({ root: '/dl', scanned_at: '2026-03-01T12:00:00.000Z', ...listing });
    expect(listing.files).toHaveLength(1);
  });

  it('is refreshed from the folder alone: nothing moves, a library folder inside it is left out, a newer listing stands', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mo-listing-'));
    const dl = join(dir, 'downloads');
    const drive = join(dl, 'disk1');
    mkdirSync(join(drive, 'Movies/Alien (1979)'), { recursive: true });
    writeFileSync(join(drive, 'Movies/Alien (1979)/Alien (1979).mkv'), 'library');
    writeFileSync(join(dl, 'Heat.1995.mkv'), 'video');
    const cfg: Config = { ...cfgFor(dl, join(dir, 'data')), drives: [{ name: 'disk1', path: drive }] };
    const listing = store(cfg.paths.data);
    expect(await listing.refresh(cfg, { now: () => NOW })).toBe(true);
    const saved = await listing.read();
    expect(saved).toMatchObject({ root: dl, scanned_at: new Date(NOW).toISOString(), truncated: false });
    expect(saved!.files.map((f) => f.path)).toEqual([join(dl, 'Heat.1995.mkv')]);
    expect(readFileSync(join(dl, 'Heat.1995.mkv'), 'utf8')).toBe('video');
    // A pass saved its listing after this walk began: the older walk does not replace it.
    await listing.save(cfg, [], NOW + 1000);
    expect(await listing.refresh(cfg, { now: () => NOW })).toBe(false);
    expect((await listing.read())!.files).toEqual([]);
  });

  it('refuses a file that is not a listing rather than serve it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mo-listing-'));
    writeFileSync(listingFile(dir), JSON.stringify({ root: '/dl', files: 'nope' }));
    await expect(store(dir).read()).rejects.toThrow();
    writeFileSync(listingFile(dir), '{"root":');
    await expect(store(dir).read()).rejects.toThrow();
  });
});

describe('a scanner pass', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('saves what its walk saw of the downloads folder, without a drive that lies inside it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mo-listing-pass-'));
    const downloads = join(dir, 'downloads');
    const data = join(dir, 'data');
    const drive = join(downloads, 'disk1');
    const put = (path: string) => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, Buffer.alloc(100));
      utimesSync(path, new Date(NOW - 3600_000), new Date(NOW - 3600_000));
    };
    put(join(downloads, 'Heat.1995.1080p', 'Heat.1995.1080p.mkv'));
    put(join(downloads, 'notes.txt'));
    put(join(drive, 'Movies', 'Alien (1979)', 'Alien (1979).mkv'));
    mkdirSync(data, { recursive: true });
    const cfg: Config = { ...DEFAULT_CONFIG, paths: { downloads, config: data, data }, drives: [{ name: 'disk1', path: drive }] };
    const state = createStateStore({ file: join(data, 'state.json'), schema: stateSchema, initial: initialState });
    await runScanPass({ config: cfg, state, owner: NO_OWNERSHIP, log: createLogger({ name: 't', level: 'silent' }), now: () => NOW });
    const saved = JSON.parse(readFileSync(listingFile(data), 'utf8'));
    expect(saved).toMatchObject({ root: downloads, scanned_at: new Date(NOW).toISOString(), truncated: false });
    expect(saved.files.map((f: { path: string }) => f.path)).toEqual([join(downloads, 'Heat.1995.1080p', 'Heat.1995.1080p.mkv'), join(downloads, 'notes.txt')]);
  });
});
