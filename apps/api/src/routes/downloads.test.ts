import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, createStateStore } from '@mo/core';
import { NO_OWNERSHIP } from '@mo/core/fs';
import { UNKNOWN_QUALITY } from '@mo/core/parse';
import { runScanPass } from '@mo/core/scanner';
import { downloadsResponse, initialState, stateSchema } from '@mo/shared';
import { testApp, type TestApp } from '../test-support/app.ts';

let t: TestApp;
afterEach(async () => t?.close());

function put(rel: string, bytes: number, mtime: Date) {
  const p = join(t.install.paths.downloads, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, Buffer.alloc(bytes));
  utimesSync(p, mtime, mtime);
  return p;
}

/** Another process (the worker) saving state.json, as the worker does. */
const workerState = () => createStateStore({ file: join(t.install.paths.data, 'state.json'), schema: stateSchema, initial: initialState });

/** A scanner pass as the worker runs it, on the install's current config. */
async function pass(now = Date.now()) {
  await runScanPass({
    config: t.config.current(),
    state: workerState(),
    owner: NO_OWNERSHIP,
    log: createLogger({ name: 't', level: 'silent' }),
    now: () => now,
  });
}

const get = async () => {
  const res = await t.app.request('/api/downloads');
  expect(res.status).toBe(200);
  const body = await res.json();
  downloadsResponse.parse(body);
  return body as ReturnType<typeof downloadsResponse.parse> & { recent: { error?: string }[] };
};

describe('GET /api/downloads', () => {
  it('lists what the last scanner pass saw, with what the names parse to', async () => {
    t = await testApp({ toml: '[app]\nsettle_seconds = 60\n\n[library]\nsample_max_bytes = 0\n' });
    const old = new Date('2025-06-01T10:00:00.000Z');
    const movie = put('Heat.1995.1080p.BluRay.x264-GRP/Heat.1995.1080p.BluRay.x264-GRP.mkv', 100, old);
    const episode = put('Doctor.Who.2005.S01E02E03.mkv', 10, new Date());
    const daily = put('The.Daily.Show.2024.03.14.mkv', 10, old);
    const remake = put('The.Office.US.S02E01.mkv', 10, old);
    const part = put('Alien.1979.mkv.part', 5, old);
    const sub = put('Heat.1995.1080p.BluRay.x264-GRP/Heat.1995.1080p.BluRay.x264-GRP.en.srt', 1, old);
    const passAt = Date.now();
    await pass(passAt);
    const body = await get();
    expect(body.scanned_at).toBe(new Date(passAt).toISOString());
    expect(body.truncated).toBe(false);
    expect(body.files).toEqual([
      { path: part, bytes: 5, modified_at: old.toISOString(), settled: true, media: null, imported: null },
      {
        path: episode,
        bytes: 10,
        modified_at: expect.any(String),
        settled: false,
        media: { kind: 'episode', title: 'Doctor Who', year: 2005, season: 1, episodes: [2, 3], air_date: null, country: null, quality: UNKNOWN_QUALITY },
        imported: null,
      },
      { path: sub, bytes: 1, modified_at: old.toISOString(), settled: true, media: null, imported: null },
      {
        path: movie,
        bytes: 100,
        modified_at: old.toISOString(),
        settled: true,
        media: {
          kind: 'movie',
          title: 'Heat',
          year: 1995,
          season: null,
          episodes: null,
          air_date: null,
          country: null,
          quality: { ...UNKNOWN_QUALITY, resolution: 1080, source: 'bluray', codec: 'x264', group: 'GRP' },
        },
        imported: null,
      },
      {
        path: daily,
        bytes: 10,
        modified_at: old.toISOString(),
        settled: true,
        media: {
          kind: 'episode',
          title: 'The Daily Show',
          year: null,
          season: null,
          episodes: [],
          air_date: '2024-03-14',
          country: null,
          quality: UNKNOWN_QUALITY,
        },
        imported: null,
      },
      {
        path: remake,
        bytes: 10,
        modified_at: old.toISOString(),
        settled: true,
        media: { kind: 'episode', title: 'The Office', year: null, season: 2, episodes: [1], air_date: null, country: 'US', quality: UNKNOWN_QUALITY },
        imported: null,
      },
    ]);
    // The dry-run pass planned the settled, recognised videos: they show in `recent`.
    expect(body.recent.map((e) => e.source)).toEqual(expect.arrayContaining([movie, sub, daily, remake]));
  });

  it('never walks the folder itself: nothing before the first pass, and new files only after the next', async () => {
    t = await testApp();
    const old = new Date('2025-06-01T10:00:00.000Z');
    const first = put('Heat.1995.mkv', 10, old);
    expect(await get()).toEqual({ files: [], scanned_at: null, truncated: false, recent: [] });
    await pass();
    expect((await get()).files.map((f) => f.path)).toEqual([first]);
    const second = put('Alien.1979.mkv', 10, old);
    expect((await get()).files.map((f) => f.path)).toEqual([first]);
    await pass();
    expect((await get()).files.map((f) => f.path)).toEqual([second, first]);
  });

  it('leaves out what a pass moved since it walked, and answers unchanged requests from the same bytes', async () => {
    t = await testApp();
    const dl = t.install.paths.downloads;
    const old = new Date('2025-06-01T10:00:00.000Z');
    const heat = put('Heat.1995.mkv', 10, old);
    const alien = put('Alien.1979.mkv', 10, old);
    const passAt = Date.parse('2026-01-01T00:00:00.000Z');
    await pass(passAt);
    const first = await t.app.request('/api/downloads');
    const etag = first.headers.get('etag')!;
    expect((await t.app.request('/api/downloads', { headers: { 'if-none-match': etag } })).status).toBe(304);
    await workerState().update((s) => ({
      ...s,
      recent: [
        { type: 'move', source: heat, destination: '/m/Heat (1995).mkv', at: '2026-01-01T00:00:01.000Z', status: 'moved' },
        // Failed, or moved before the walk (then downloaded again): still there.
        { type: 'move', source: alien, destination: '/m/Alien (1979).mkv', at: '2026-01-01T00:00:01.000Z', status: 'failed', error: 'EPERM' },
        { type: 'move', source: alien, destination: '/m/Alien (1979).mkv', at: '2025-12-31T00:00:00.000Z', status: 'moved' },
        { type: 'move', source: `${dl}-other/x.mkv`, destination: '/m/x.mkv', at: '2026-01-01T00:00:00.000Z', status: 'moved' },
      ],
    }));
    const body = await get();
    expect(body.files.map((f) => f.path)).toEqual([alien]);
    expect(body.recent.map((e) => e.source)).toEqual([heat, alien, alien]);
    expect(body.scanned_at).toBe(new Date(passAt).toISOString());
  });

  it('shows recent plans and moves from the downloads folder as soon as the worker saved them', async () => {
    t = await testApp();
    const dl = t.install.paths.downloads;
    expect((await get()).recent).toEqual([]);
    // No watch and no poll, as on a network mount where watches never fire and the next poll is up to 1 s away.
    t.config.close();
    await workerState().update((s) => ({
      ...s,
      recent: [
        { type: 'move', source: `${dl}/Heat.1995.mkv`, destination: '/m/Heat (1995).mkv', at: '2026-01-01T00:00:02.000Z', status: 'failed', error: 'EPERM' },
        { type: 'plan', source: `${dl}/Alien.1979.mkv`, destination: '/m/Alien (1979).mkv', at: '2026-01-01T00:00:01.000Z', status: 'planned' },
        { type: 'move', source: `${dl}-other/x.mkv`, destination: '/m/x.mkv', at: '2026-01-01T00:00:00.000Z', status: 'moved' },
        { type: 'move', source: '/elsewhere/y.mkv', destination: '/m/y.mkv', at: '2026-01-01T00:00:00.000Z', status: 'moved' },
      ],
    }));
    expect((await get()).recent).toEqual([
      { type: 'move', source: `${dl}/Heat.1995.mkv`, destination: '/m/Heat (1995).mkv', at: '2026-01-01T00:00:02.000Z', status: 'failed', error: 'EPERM' },
      { type: 'plan', source: `${dl}/Alien.1979.mkv`, destination: '/m/Alien (1979).mkv', at: '2026-01-01T00:00:01.000Z', status: 'planned' },
    ]);
  });

  it('does not show the listing of another downloads folder once paths.downloads changed', async () => {
    t = await testApp();
    put('Heat.1995.mkv', 10, new Date('2025-06-01T10:00:00.000Z'));
    await pass();
    expect((await get()).files).toHaveLength(1);
    const other = join(t.install.root, 'downloads2');
    mkdirSync(other);
    await t.config.updateSettings({ paths: { downloads: other } });
    expect(await get()).toEqual({ files: [], scanned_at: null, truncated: false, recent: [] });
  });

  it('answers without files when the listing cannot be read, and reads it again once it can', async () => {
    t = await testApp();
    put('Heat.1995.mkv', 10, new Date('2025-06-01T10:00:00.000Z'));
    await pass();
    const file = t.config.data.downloadsListing().file;
    writeFileSync(file, '{"root": truncated');
    expect(await get()).toMatchObject({ files: [], scanned_at: null });
    await pass();
    expect((await get()).files).toHaveLength(1);
  });

  it('answers an empty list when the downloads folder is not there', async () => {
    t = await testApp();
    rmSync(t.install.paths.downloads, { recursive: true });
    await pass();
    expect(await get()).toEqual({ files: [], scanned_at: expect.any(String), truncated: false, recent: [] });
  });

  it('says of each download the history holds as imported where it went (hardlink mode: the download stays)', async () => {
    t = await testApp({ toml: '[app]\ndry_run = false\n\n[library]\nsample_max_bytes = 0\ntransfer = "hardlink"\n' });
    const drive = join(t.install.root, 'disk1');
    mkdirSync(join(drive, 'Movies'), { recursive: true });
    await t.config.updateSettings({ drives: [{ name: 'disk1', path: drive }] });
    const old = new Date('2025-06-01T10:00:00.000Z');
    const movie = put('Heat.1995/Heat.1995.mkv', 100, old);
    const sub = put('Heat.1995/Heat.1995.en.srt', 1, old);
    const other = put('notes.txt', 1, old);
    // One pass: its listing was saved before it linked them, and they are still there after.
    await pass();
    const files = (await get()).files;
    const at = expect.any(String);
    expect(files).toEqual([
      expect.objectContaining({ path: sub, imported: { id: 1, destination: join(drive, 'Movies/Heat (1995)/Heat (1995).en.srt'), at } }),
      expect.objectContaining({ path: movie, imported: { id: 1, destination: join(drive, 'Movies/Heat (1995)/Heat (1995).mkv'), at } }),
      expect.objectContaining({ path: other, imported: null }),
    ]);
  });
});
