import { chmodSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, initialState, stateSchema, type Config } from '@mo/shared';
import { createLogger } from '../logging/logger.ts';
import { createStateStore } from '../state/state-store.ts';
import { fakeTvmaze, type FakeShow, type FakeTvmaze } from '../releases/test-fixtures/fake-tvmaze.ts';
import { createTvmazeIdentifier } from '../identify/tvmaze-identify.ts';
import { identifyCacheStore } from '../identify/identify-cache.ts';
import { dataDir } from '../data-dir/data-dir.ts';
import { runScanPass } from './run-pass.ts';

const log = createLogger({ name: 'test', level: 'silent' });
const OLD = new Date('2024-01-01T00:00:00Z');
const JP = { name: 'Japan', code: 'JP', timezone: 'Asia/Tokyo' };
const episodes = (season: number, count: number) => Array.from({ length: count }, (_, i) => ({ season, number: i + 1, airdate: '2023-09-29' }));
// The shape of TVmaze's record of the show; the id is made up.
const KAERU: FakeShow = {
  id: 91_001,
  name: "Kaeru: Beyond the Pond's End",
  premiered: '2023-09-29',
  country: 'JP',
  akas: [{ name: 'Sousou no Kaeru', country: JP }],
  episodes: [...episodes(1, 28), ...episodes(2, 4)],
};

let root: string;
let fake: FakeTvmaze | undefined;
beforeEach(() => {
  root = mkdtempSync(join(os.tmpdir(), 'pass-identify-'));
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  rmSync(root, { recursive: true, force: true });
});

function setup(library: Partial<Config['library']> = {}, metadata: Partial<Config['metadata']> = {}) {
  const downloads = join(root, 'downloads');
  const drive = join(root, 'disk1');
  const data = join(root, 'data');
  for (const d of [downloads, join(drive, 'TV'), join(drive, 'Movies'), data]) mkdirSync(d, { recursive: true });
  const cfg: Config = {
    ...DEFAULT_CONFIG,
    app: { ...DEFAULT_CONFIG.app, dry_run: true },
    paths: { downloads, data, config: data },
    drives: [{ name: 'disk1', path: drive }],
    library: { ...DEFAULT_CONFIG.library, ...library },
    metadata: { ...DEFAULT_CONFIG.metadata, ...metadata },
    release_providers: { tvmaze: { enabled: false, url: fake?.url ?? 'http://127.0.0.1:9', allow_private: true } },
  };
  const state = createStateStore({ file: join(data, 'state.json'), schema: stateSchema, initial: initialState });
  return { cfg, state, downloads, drive, data };
}

function put(dir: string, rel: string): void {
  const p = join(dir, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, Buffer.alloc(64 * 1024 * 1024 + 1));
  chmodSync(p, 0o644);
  utimesSync(p, OLD, OLD);
}

const pass = (s: ReturnType<typeof setup>) =>
  runScanPass({
    config: s.cfg,
    state: s.state,
    owner: { uid: null, gid: null },
    log,
    tvmaze: createTvmazeIdentifier({ cache: identifyCacheStore(dataDir(s.data)), minIntervalMs: 0, timeoutMs: 2000 }),
  });

describe('a pass with the library, aliases and the provider deciding', () => {
  it('[metadata] identify = ["tvmaze"]: a new series is named as TVmaze names it, its absolute numbers made season and episode', async () => {
    fake = await fakeTvmaze([KAERU]);
    const s = setup({}, { identify: ['tvmaze'] });
    put(s.downloads, '[Grp] Sousou no Kaeru - 05 (1080p) [ABCD1234].mkv');
    put(s.downloads, '[Grp] Sousou no Kaeru - 30 (1080p) [ABCD1235].mkv');
    const r = await pass(s);
    expect(r.skipped).toEqual([]);
    expect(r.plans.map((p) => p.destination.slice(s.drive.length)).sort()).toEqual([
      "/TV/Kaeru - Beyond the Pond's End (2023)/Season 01/Kaeru - Beyond the Pond's End (2023) - S01E05.mkv",
      "/TV/Kaeru - Beyond the Pond's End (2023)/Season 02/Kaeru - Beyond the Pond's End (2023) - S02E02.mkv",
    ]);
  });

  it('without the provider (or with it down) the same names are refused with their readings, never guessed', async () => {
    const s = setup();
    put(s.downloads, '[Grp] Sousou no Kaeru - 05 (1080p) [ABCD1234].mkv');
    const r = await pass(s);
    expect(r.plans).toEqual([]);
    expect(r.skipped).toMatchObject([
      {
        reason: 'unrecognized',
        detail: 'absolute episode numbers without a season',
        candidates: [{ title: 'Sousou no Kaeru', absolute_episodes: [5], folder: null, destination: null }],
      },
    ]);

    const down = setup({}, { identify: ['tvmaze'] });
    put(down.downloads, '[Grp] Sousou no Kaeru - 05 (1080p) [ABCD1234].mkv');
    expect((await pass(down)).skipped).toMatchObject([{ reason: 'unrecognized' }]);
  });

  it('an alias files the next episode into the series the owner chose', async () => {
    const s = setup({ aliases: [{ name: 'Sousou no Kaeru', series: "Kaeru - Beyond the Pond's End (2023)" }] });
    mkdirSync(join(s.drive, "TV/Kaeru - Beyond the Pond's End (2023)/Season 01"), { recursive: true });
    put(s.downloads, 'Sousou.no.Kaeru.S01E06.1080p.WEB.mkv');
    const r = await pass(s);
    expect(r.plans.map((p) => p.destination.slice(s.drive.length))).toEqual([
      "/TV/Kaeru - Beyond the Pond's End (2023)/Season 01/Kaeru - Beyond the Pond's End (2023) - S01E06.mkv",
    ]);
  });
});
