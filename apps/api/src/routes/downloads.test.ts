import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStateStore } from '@mo/core';
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

const get = async () => {
  const res = await t.app.request('/api/downloads');
  expect(res.status).toBe(200);
  const body = await res.json();
  downloadsResponse.parse(body);
  return body as ReturnType<typeof downloadsResponse.parse> & { recent: { error?: string }[] };
};

describe('GET /api/downloads', () => {
  it('lists the files under the downloads folder with what their names parse to', async () => {
    t = await testApp({ toml: '[app]\nsettle_seconds = 60\n' });
    const old = new Date('2025-06-01T10:00:00.000Z');
    const movie = put('Heat.1995.1080p/Heat.1995.1080p.mkv', 100, old);
    const episode = put('Doctor.Who.2005.S01E02E03.mkv', 10, new Date());
    const daily = put('The.Daily.Show.2024.03.14.mkv', 10, old);
    const remake = put('The.Office.US.S02E01.mkv', 10, old);
    const part = put('Alien.1979.mkv.part', 5, old);
    const sub = put('Heat.1995.1080p/Heat.1995.1080p.en.srt', 1, old);
    const body = await get();
    expect(body.files).toEqual([
      { path: part, bytes: 5, modified_at: old.toISOString(), settled: true, media: null },
      { path: episode, bytes: 10, modified_at: expect.any(String), settled: false, media: { kind: 'episode', title: 'Doctor Who', year: 2005, season: 1, episodes: [2, 3], air_date: null, country: null } },
      { path: sub, bytes: 1, modified_at: old.toISOString(), settled: true, media: null },
      { path: movie, bytes: 100, modified_at: old.toISOString(), settled: true, media: { kind: 'movie', title: 'Heat', year: 1995, season: null, episodes: null, air_date: null, country: null } },
      { path: daily, bytes: 10, modified_at: old.toISOString(), settled: true, media: { kind: 'episode', title: 'The Daily Show', year: null, season: null, episodes: [], air_date: '2024-03-14', country: null } },
      { path: remake, bytes: 10, modified_at: old.toISOString(), settled: true, media: { kind: 'episode', title: 'The Office', year: null, season: 2, episodes: [1], air_date: null, country: 'US' } },
    ]);
    expect(body.recent).toEqual([]);
  });

  it('shows recent plans and moves from the downloads folder as soon as the worker saved them', async () => {
    t = await testApp();
    const dl = t.install.paths.downloads;
    expect((await get()).recent).toEqual([]);
    // No watch and no poll, as on a network mount where watches never fire and the next poll is up to 1 s away.
    t.config.close();
    // Another process (the worker) writes state.json.
    const worker = createStateStore({ file: join(t.install.paths.data, 'state.json'), schema: stateSchema, initial: initialState });
    await worker.update((s) => ({
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

  it('answers an empty list when the downloads folder is not there', async () => {
    t = await testApp();
    rmSync(t.install.paths.downloads, { recursive: true });
    expect(await get()).toEqual({ files: [], recent: [] });
  });
});
