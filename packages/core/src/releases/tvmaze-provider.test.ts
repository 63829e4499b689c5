import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeTvmaze, type FakeShow, type FakeTvmaze } from './test-fixtures/fake-tvmaze.ts';
import type { LibrarySeries, ShowIds } from './series-catalogue.ts';
import { createTvmazeProvider, type TvmazeProvider, type TvmazeProviderOptions } from './tvmaze-provider.ts';

const TODAY = '2026-03-10';
let fake: FakeTvmaze | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function series(title: string, have: Record<number, number[]> = {}, more: { year?: number; ids?: ShowIds; nfoTitle?: string } = {}): LibrarySeries {
  return {
    title,
    year: more.year ?? null,
    nfoTitle: more.nfoTitle ?? null,
    ids: more.ids ?? {},
    have: new Map(Object.entries(have).map(([s, eps]) => [Number(s), new Set(eps)])),
    known: new Map(),
  };
}

const LOST: FakeShow = {
  id: 123,
  name: 'Lost',
  premiered: '2004-09-22',
  episodes: [
    { season: 1, number: 1, name: 'Pilot (1)', airdate: '2004-09-22' },
    { season: 1, number: 2, name: 'Pilot (2)', airdate: '2004-09-29' },
    { season: 1, number: 3, name: 'Tabula Rasa', airdate: '2004-10-06' },
    { season: 1, number: null, name: 'Special', airdate: '2004-10-07' },
    { season: 2, number: 1, name: 'Tomorrow', airdate: '2026-03-11' },
    { season: 2, number: 2, name: 'Someday', airdate: '' },
  ],
};

/**
 * A provider with no pacing and short limits, so the tests run in milliseconds; the fake listens on
 * 127.0.0.1, which only `allowPrivate` may reach.
 */
const provider = (o: Partial<TvmazeProviderOptions> = {}): TvmazeProvider => {
  const p = createTvmazeProvider({ minIntervalMs: 0, timeoutMs: 1000, budgetMs: 2000, concurrency: 4, ...o });
  return { releases: (url, series, today) => p.releases(url, series, today, { allowPrivate: true }) };
};

describe('tvmaze provider', () => {
  it('reports aired episodes the library lacks as missing and later ones as upcoming', async () => {
    fake = await fakeTvmaze([LOST]);
    const { releases, status } = await provider().releases(fake.url, [series('Lost', { 1: [1, 2] })], TODAY);
    expect(releases).toEqual([
      { series: 'Lost', season: 1, episode: 3, status: 'missing', air_date: '2004-10-06', title: 'Tabula Rasa', source: 'tvmaze' },
      { series: 'Lost', season: 2, episode: 1, status: 'upcoming', air_date: '2026-03-11', title: 'Tomorrow', source: 'tvmaze' },
      { series: 'Lost', season: 2, episode: 2, status: 'upcoming', air_date: null, title: 'Someday', source: 'tvmaze' },
    ]);
    expect(status).toEqual({ name: 'tvmaze', ok: true, error: null, shows: 1, matched: 1, unmatched: 0, failed: 0, pending: 0 });
    expect(fake.requests).toEqual(['/singlesearch/shows?q=Lost', '/shows/123/episodes']);
  });

  it('searches by the tvshow.nfo title, and by id when the nfo gives one', async () => {
    fake = await fakeTvmaze([LOST], { thetvdb: { '73739': 123 }, imdb: { tt0411008: 123 } });
    const p = provider();
    await p.releases(fake.url, [series('Lost (US)', {}, { nfoTitle: 'Lost' })], TODAY);
    expect(fake.requests).toEqual(['/singlesearch/shows?q=Lost', '/shows/123/episodes']);

    fake.requests.length = 0;
    const byId = await p.releases(fake.url, [series('Lost', { 1: [1, 2, 3] }, { ids: { tvmaze: 123 } })], TODAY);
    expect(fake.requests).toEqual(['/shows/123/episodes']);
    expect(byId.releases.map((r) => `S${r.season}E${r.episode}`)).toEqual(['S2E1', 'S2E2']);

    fake.requests.length = 0;
    await p.releases(fake.url, [series('Lost', {}, { ids: { tvdb: 73739 } })], TODAY);
    expect(fake.requests).toEqual(['/lookup/shows?thetvdb=73739', '/shows/123', '/shows/123/episodes']);

    fake.requests.length = 0;
    await p.releases(fake.url, [series('Lost', {}, { ids: { tvdb: 1, imdb: 'tt0411008' } })], TODAY);
    expect(fake.requests).toEqual(['/lookup/shows?thetvdb=1', '/lookup/shows?imdb=tt0411008', '/shows/123', '/shows/123/episodes']);
  });

  it('picks the show of the folder year when the best match by name premiered in another', async () => {
    const old: FakeShow = { id: 1, name: 'Doctor Who', premiered: '1963-11-23', episodes: [{ season: 1, number: 1, airdate: '1963-11-23' }] };
    const now: FakeShow = { id: 2, name: 'Doctor Who', premiered: '2005-03-26', episodes: [{ season: 1, number: 1, airdate: '2005-03-26', name: 'Rose' }] };
    fake = await fakeTvmaze([old, now]);
    const { releases } = await provider().releases(fake.url, [series('Doctor Who', {}, { year: 2005 })], TODAY);
    expect(fake.requests).toEqual(['/singlesearch/shows?q=Doctor%20Who', '/search/shows?q=Doctor%20Who', '/shows/2/episodes']);
    expect(releases.map((r) => r.title)).toEqual(['Rose']);
  });

  it('counts a show TVmaze does not know as unmatched, not as a failure', async () => {
    fake = await fakeTvmaze([LOST]);
    const { releases, status } = await provider().releases(fake.url, [series('Nothing Like It')], TODAY);
    expect(releases).toEqual([]);
    expect(status).toMatchObject({ ok: true, matched: 0, unmatched: 1, failed: 0, pending: 0 });
  });

  it('answers from its cache for ttlMs: the second call makes no request', async () => {
    fake = await fakeTvmaze([LOST]);
    let now = 1_000_000;
    const p = provider({ ttlMs: 60_000, now: () => now });
    const lib = [series('Lost', { 1: [1, 2] })];
    const first = await p.releases(fake.url, lib, TODAY);
    expect(fake.requests).toHaveLength(2);
    expect(await p.releases(fake.url, lib, TODAY)).toEqual(first);
    now += 59_000;
    await p.releases(fake.url, [series('Lost', { 1: [1] })], TODAY);
    expect(fake.requests).toHaveLength(2);
    now += 2000;
    await p.releases(fake.url, lib, TODAY);
    expect(fake.requests).toHaveLength(4);
  });

  it('reports a slow provider as a failure after timeoutMs, and leaves it alone for failureTtlMs', async () => {
    fake = await fakeTvmaze([LOST]);
    fake.override = async (req, res) => {
      await sleep(1000);
      if (!res.destroyed) res.end('{}');
      return true;
    };
    let now = 1_000_000;
    const p = provider({ timeoutMs: 100, failureTtlMs: 30_000, now: () => now });
    const started = performance.now();
    const { releases, status } = await p.releases(fake.url, [series('Lost', { 1: [2] })], TODAY);
    expect(performance.now() - started).toBeLessThan(900);
    expect(releases).toEqual([]);
    expect(status).toEqual({
      name: 'tvmaze',
      ok: false,
      error: 'Lost: tvmaze /singlesearch/shows?q=Lost: no answer within 100 ms',
      shows: 1,
      matched: 0,
      unmatched: 0,
      failed: 1,
      pending: 0,
    });
    expect(fake.requests).toHaveLength(1);
    expect((await p.releases(fake.url, [series('Lost', { 1: [2] })], TODAY)).status.failed).toBe(1);
    expect(fake.requests).toHaveLength(1);
    fake.override = null;
    now += 30_000;
    expect((await p.releases(fake.url, [series('Lost', { 1: [2] })], TODAY)).status).toMatchObject({ ok: true, matched: 1, failed: 0 });
  });

  it.each([
    ['an HTTP error', (res: import('node:http').ServerResponse) => res.writeHead(500).end('oops'), 'tvmaze /shows/123/episodes: HTTP 500'],
    [
      'an answer that is not JSON',
      (res: import('node:http').ServerResponse) => res.end('[{"season": 1,'),
      'tvmaze /shows/123/episodes: the answer is not JSON',
    ],
    [
      'JSON of another shape',
      (res: import('node:http').ServerResponse) => res.end('[{"season": "one", "number": 1}]'),
      'tvmaze /shows/123/episodes: unexpected answer at 0.season: Invalid input: expected number, received string',
    ],
  ])('reports %s inside the answer, keeping the last good list', async (_, answer, error) => {
    fake = await fakeTvmaze([LOST]);
    let now = 1_000_000;
    const p = provider({ ttlMs: 1000, now: () => now });
    const lib = [series('Lost', { 1: [1, 2] }), series('Nothing Like It')];
    const good = await p.releases(fake.url, lib, TODAY);
    expect(good.releases).toHaveLength(3);
    now += 1000;
    fake.override = (req, res) => {
      if (!req.url!.endsWith('/episodes')) return false;
      answer(res);
      return true;
    };
    const { releases, status } = await p.releases(fake.url, lib, TODAY);
    expect(releases).toEqual(good.releases);
    expect(status).toEqual({ name: 'tvmaze', ok: false, error: `Lost: ${error}`, shows: 2, matched: 1, unmatched: 1, failed: 1, pending: 0 });
  });

  it('reports a provider that cannot be reached', async () => {
    fake = await fakeTvmaze([]);
    const url = fake.url;
    await fake.close();
    const { status } = await provider().releases(url, [series('Lost')], TODAY);
    expect(status).toMatchObject({ ok: false, failed: 1, error: 'Lost: tvmaze /singlesearch/shows?q=Lost: ECONNREFUSED' });
  });

  it('keeps to its concurrency over all answers', async () => {
    const shows = Array.from({ length: 6 }, (_, i) => ({ id: i + 1, name: `Show ${i + 1}`, episodes: [] }));
    fake = await fakeTvmaze(shows);
    fake.override = async () => {
      await sleep(30);
      return false;
    };
    const p = provider({ concurrency: 2 });
    const lib = shows.map((s) => series(s.name));
    const answers = await Promise.all([p.releases(fake.url, lib.slice(0, 3), TODAY), p.releases(fake.url, lib.slice(3), TODAY)]);
    expect(answers.map((a) => a.status.matched)).toEqual([3, 3]);
    expect(fake.requests).toHaveLength(12);
    expect(fake.maxInFlight).toBe(2);
  });

  it('looks up at most maxShowsPerRequest shows per answer, leaving the rest pending for the next', async () => {
    const shows = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, name: `Show ${i + 1}`, episodes: [] }));
    fake = await fakeTvmaze(shows);
    const p = provider({ maxShowsPerRequest: 2 });
    const lib = shows.map((s) => series(s.name));
    expect((await p.releases(fake.url, lib, TODAY)).status).toMatchObject({ ok: true, shows: 5, matched: 2, pending: 3 });
    expect(fake.requests).toHaveLength(4);
    expect((await p.releases(fake.url, lib, TODAY)).status).toMatchObject({ matched: 4, pending: 1 });
    expect((await p.releases(fake.url, lib, TODAY)).status).toMatchObject({ matched: 5, pending: 0 });
    expect(fake.requests).toHaveLength(10);
  });

  it('answers within budgetMs, and the look-ups still under way serve the next answer', async () => {
    fake = await fakeTvmaze([LOST]);
    fake.override = async () => {
      await sleep(500);
      return false;
    };
    const p = provider({ budgetMs: 100 });
    const lib = [series('Lost', { 1: [1, 2] })];
    const started = performance.now();
    expect((await p.releases(fake.url, lib, TODAY)).status).toMatchObject({ ok: true, matched: 0, pending: 1 });
    expect(performance.now() - started).toBeLessThan(400);
    // Later answers join the look-up under way instead of starting another.
    expect((await p.releases(fake.url, lib, TODAY)).status).toMatchObject({ pending: 1 });
    await expect.poll(async () => (await p.releases(fake!.url, lib, TODAY)).releases.length, { timeout: 5000 }).toBe(3);
    expect(fake.requests).toEqual(['/singlesearch/shows?q=Lost', '/shows/123/episodes']);
  });

  it('keeps one cache per provider URL', async () => {
    fake = await fakeTvmaze([LOST]);
    const other = await fakeTvmaze([]);
    try {
      const p = provider();
      const lib = [series('Lost')];
      expect((await p.releases(fake.url, lib, TODAY)).status.matched).toBe(1);
      expect((await p.releases(other.url, lib, TODAY)).status).toMatchObject({ matched: 0, unmatched: 1 });
      expect(other.requests).toEqual(['/singlesearch/shows?q=Lost']);
    } finally {
      await other.close();
    }
  });
});
