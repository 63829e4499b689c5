import { setTimeout as sleep } from 'node:timers/promises';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, writeLibraryIndex } from '@mo/core';
import { episode, fakeTvmaze, type FakeTvmaze, index, item } from '@mo/core/test-fixtures';
import { releasesResponse, type IndexItem } from '@mo/shared';
import type { AppEnv } from '../http/env.ts';
import { stubJobs, testApp, type TestApp } from '../test-support/app.ts';
import { releasesRoutes } from './releases.ts';

let t: TestApp | undefined;
let fake: FakeTvmaze | undefined;
afterEach(async () => {
  await t?.close();
  await fake?.close();
  t = fake = undefined;
});

const LOST = '/m/disk1/TV/Lost';
const nfo = (season: number, e: number, aired: string, title: string): IndexItem =>
  item(`${LOST}/Season ${season}/Lost - S0${season}E0${e}.nfo`, { season, episodes: [e], nfo: { kind: 'episode', title, season, episode: e, aired } });
const LIBRARY = [episode(LOST, 0, [2]), episode(LOST, 1, [1]), episode(LOST, 1, [3]), nfo(1, 4, '2999-01-01', 'Far Off'), nfo(1, 5, '2001-01-01', 'Long Ago')];

async function indexed(items: IndexItem[]) {
  await writeLibraryIndex(t!.config.current().paths.data, index(items));
  await t!.library.refresh();
}

async function get(app: { request: (path: string) => Response | Promise<Response> }) {
  const res = await app.request('/api/releases');
  expect(res.status).toBe(200);
  const body = (await res.json()) as any;
  expect(() => releasesResponse.parse(body)).not.toThrow();
  return body;
}

const brief = (body: any) => body.releases.map((r: any) => `${r.source} S${r.season}E${r.episode} ${r.status}`);

describe('GET /api/releases', () => {
  it('is empty before the first library scan', async () => {
    t = await testApp();
    expect(await get(t.app)).toEqual({ scanned_at: null, releases: [], providers: [] });
  });

  it('reports gaps and .nfo episodes from the cached index, with the config it depends on', async () => {
    t = await testApp();
    await indexed(LIBRARY);
    const body = await get(t.app);
    expect(body.scanned_at).toBe('2026-01-02T03:04:05.000Z');
    expect(body.releases).toEqual([
      { series: 'Lost', season: 1, episode: 2, status: 'missing', air_date: null, title: null, source: 'library' },
      { series: 'Lost', season: 1, episode: 4, status: 'upcoming', air_date: '2999-01-01', title: 'Far Off', source: 'library' },
      { series: 'Lost', season: 1, episode: 5, status: 'missing', air_date: '2001-01-01', title: 'Long Ago', source: 'library' },
    ]);
    await t.config.updateSettings({ metadata: { include_specials: true, read_nfo: false } });
    expect(brief(await get(t.app))).toEqual(['library S0E1 missing', 'library S1E2 missing']);
  });

  it('changes only after a new index', async () => {
    t = await testApp();
    await indexed(LIBRARY);
    const first = await get(t.app);
    await indexed([...LIBRARY, episode(LOST, 1, [2])]);
    const second = await get(t.app);
    expect(brief(first)).toContain('library S1E2 missing');
    expect(brief(second)).not.toContain('library S1E2 missing');
  });

  it('makes no request at all to a disabled provider', async () => {
    t = await testApp();
    fake = await fakeTvmaze([{ id: 1, name: 'Lost', episodes: [] }]);
    await t.config.updateSettings({ release_providers: { tvmaze: { enabled: false, url: fake.url, allow_private: true } } });
    await indexed(LIBRARY);
    expect((await get(t.app)).providers).toEqual([]);
    expect(fake.requests).toEqual([]);
  });

  it('adds the enabled provider block after the library entries, from its cache on the second call', async () => {
    t = await testApp();
    fake = await fakeTvmaze([
      {
        id: 7,
        name: 'Lost',
        episodes: [
          { season: 1, number: 1, airdate: '2004-09-22' },
          { season: 2, number: 1, name: 'Later', airdate: '2999-01-01' },
        ],
      },
    ]);
    await t.config.updateSettings({ release_providers: { tvmaze: { enabled: true, url: fake.url, allow_private: true } } });
    await indexed(LIBRARY);
    const body = await get(t.app);
    expect(brief(body)).toEqual(['library S1E2 missing', 'library S1E4 upcoming', 'library S1E5 missing', 'tvmaze S2E1 upcoming']);
    expect(body.releases[3]).toEqual({ series: 'Lost', season: 2, episode: 1, status: 'upcoming', air_date: '2999-01-01', title: 'Later', source: 'tvmaze' });
    expect(body.providers).toEqual([{ name: 'tvmaze', ok: true, error: null, shows: 1, matched: 1, unmatched: 0, failed: 0, pending: 0 }]);
    expect(await get(t.app)).toEqual(body);
    expect(fake.requests).toEqual(['/singlesearch/shows?q=Lost', '/shows/7/episodes']);
  });
});

describe('GET /api/releases with a failing provider', () => {
  /** The route alone, with provider limits short enough for a test. */
  async function app() {
    t = await testApp();
    fake = await fakeTvmaze([{ id: 7, name: 'Lost', episodes: [] }]);
    await t.config.updateSettings({ release_providers: { tvmaze: { enabled: true, url: fake.url, allow_private: true } } });
    await indexed(LIBRARY);
    const deps = {
      config: t.config,
      library: t.library,
      jobs: stubJobs(),
      auth: t.auth,
      live: t.live,
      logger: createLogger({ name: 'test', level: 'silent' }),
    };
    return new Hono<AppEnv>().route('/api', releasesRoutes(deps, { tvmaze: { timeoutMs: 100, minIntervalMs: 0 } }));
  }

  it.each([
    ['answers 500', () => (fake!.override = (_req, res) => (res.writeHead(500).end(), true)), 'HTTP 500'],
    ['answers what is not JSON', () => (fake!.override = (_req, res) => (res.end('{"id":'), true)), 'not JSON'],
    [
      'does not answer in time',
      () =>
        (fake!.override = async () => {
          await sleep(1000);
          return true;
        }),
      'no answer within 100 ms',
    ],
  ])('still answers 200 with the library entries when the provider %s', async (_, breakIt, error) => {
    const a = await app();
    breakIt();
    const body = await get(a);
    expect(brief(body)).toEqual(['library S1E2 missing', 'library S1E4 upcoming', 'library S1E5 missing']);
    expect(body.providers).toEqual([expect.objectContaining({ name: 'tvmaze', ok: false, failed: 1 })]);
    expect(body.providers[0].error).toContain(error);
  });
});
