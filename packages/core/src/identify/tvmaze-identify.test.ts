import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '@mo/shared';
import { fakeTvmaze, type FakeShow, type FakeTvmaze } from '../releases/test-fixtures/fake-tvmaze.ts';
import { renderTemplate } from '../scanner/template.ts';
import { dataDir as dataFolder } from '../data-dir/data-dir.ts';
import { identifyCacheStore } from './identify-cache.ts';
import { createIdentifyBudget, seriesIdentifierFor, type IdentifyBudget, type SeriesIdentifier } from './identify.ts';
import { createTvmazeIdentifier, mapAbsolute, seasonCounts, type TvmazeIdentifier, type TvmazeIdentifyOptions } from './tvmaze-identify.ts';

const DAY = 24 * 3600_000;
const JP = { name: 'Japan', code: 'JP', timezone: 'Asia/Tokyo' };

const run = (season: number, count: number, from = '2023-09-29') =>
  Array.from({ length: count }, (_, i) => ({ season, number: i + 1, name: `Episode ${i + 1}`, airdate: from }));

// Ids are made up; names, dates and episode counts are TVmaze's for the show.
const FRIEREN: FakeShow = {
  id: 65_617,
  name: "Frieren: Beyond Journey's End",
  premiered: '2023-09-29',
  country: 'JP',
  akas: [
    { name: 'Sousou no Frieren', country: JP },
    { name: '葬送のフリーレン', country: JP },
    { name: 'Frieren – Nach dem Ende der Reise', country: { name: 'Germany', code: 'DE', timezone: 'Europe/Berlin' } },
  ],
  episodes: [...run(1, 14), { season: 1, number: null, name: 'Recap special', airdate: '2023-12-22' }, ...run(1, 28).slice(14), ...run(2, 2, '2026-01-16')],
};
const WHO_1963: FakeShow = { id: 210, name: 'Doctor Who', premiered: '1963-11-23', country: 'GB', episodes: run(1, 42) };
const WHO_2005: FakeShow = { id: 211, name: 'Doctor Who', premiered: '2005-03-26', country: 'GB', episodes: run(1, 13) };
const OFFICE_US: FakeShow = { id: 526, name: 'The Office', premiered: '2005-03-24', country: 'US', episodes: run(1, 6) };
const OFFICE_UK: FakeShow = { id: 3141, name: 'The Office', premiered: '2001-07-09', country: 'GB', episodes: run(1, 6) };

let dataDir: string;
let fake: FakeTvmaze | undefined;
let warnings: string[];
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'identify-'));
  warnings = [];
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

/** The cache's file, named here as it is on disk. */
const cacheFile = () => path.join(dataDir, 'metadata', 'tvmaze-cache.json');

/** No pacing and short limits, so that the tests run in milliseconds. */
const identifier = (o: Partial<TvmazeIdentifyOptions> = {}): TvmazeIdentifier =>
  createTvmazeIdentifier({ cache: identifyCacheStore(dataFolder(dataDir)), minIntervalMs: 0, timeoutMs: 1000, ...o });

/** One pass against the fake, which listens on 127.0.0.1: only `allowPrivate` may reach it. */
const pass = (id: TvmazeIdentifier, budget: IdentifyBudget = createIdentifyBudget()): SeriesIdentifier =>
  id.forPass({ url: fake!.url, allowPrivate: true }, { budget, warn: (m) => warnings.push(m) });

const slowBy = (ms: number) => async () => {
  await sleep(ms);
  return false;
};

describe('series: a name the library does not hold', () => {
  it('settles Sousou no Frieren as TVmaze names it, through its other names, and maps absolute numbers', async () => {
    fake = await fakeTvmaze([FRIEREN]);
    const p = pass(identifier());
    const show = await p.series('Sousou no Frieren', null);
    expect(show).toEqual({ provider: 'tvmaze', id: 65_617, title: "Frieren: Beyond Journey's End", year: 2023 });
    expect(fake.requests).toEqual(['/search/shows?q=Sousou%20no%20Frieren', '/shows/65617/akas']);
    if (show === 'unknown') return;

    expect(await p.absolute(show, [5])).toEqual({ season: 1, episodes: [5] });
    // Season 1 has 28 regular episodes; its recap special is not counted.
    expect(await p.absolute(show, [28])).toEqual({ season: 1, episodes: [28] });
    expect(await p.absolute(show, [30])).toEqual({ season: 2, episodes: [2] });
    expect(await p.absolute(show, [29, 30])).toEqual({ season: 2, episodes: [1, 2] });
    expect(fake.requests.filter((r) => r.endsWith('/episodes'))).toEqual(['/shows/65617/episodes']);

    // What the scanner makes of it: `[SubsPlease] Sousou no Frieren - 05` becomes the folder Jellyfin and Plex match.
    const media = { kind: 'episode' as const, title: show.title, year: show.year, season: 1, episodes: [5], air_date: null, edition: null, country: null };
    expect(renderTemplate(DEFAULT_CONFIG.library.episode_template, media, '.mkv')).toMatchObject({
      folders: ["Frieren - Beyond Journey's End (2023)", 'Season 01'],
      name: "Frieren - Beyond Journey's End (2023) - S01E05.mkv",
    });
    expect(warnings).toEqual([]);
  });

  it('finds a show by its own name as titles compare, and asks the other names of the next results too', async () => {
    const other: FakeShow = { id: 9, name: 'Frieren Fan Show', premiered: '2024-01-01', episodes: [] };
    fake = await fakeTvmaze([FRIEREN, other]);
    const p = pass(identifier());
    expect(await p.series('frieren - beyond journeys end', 2023)).toMatchObject({ id: 65_617 });
    // The other result fits by no name of its own; asking its other names is the bounded cost of being sure.
    expect(fake.requests).toEqual(['/search/shows?q=frieren%20-%20beyond%20journeys%20end', '/shows/9/akas']);
    fake.requests.length = 0;
    expect(await p.series('Frieren', null)).toBe('unknown');
    expect(fake.requests).toEqual(['/search/shows?q=Frieren', '/shows/65617/akas', '/shows/9/akas']);
  });

  it('answers unknown when two shows fit (Doctor Who of 1963 and of 2005) and the year is not given', async () => {
    fake = await fakeTvmaze([WHO_1963, WHO_2005]);
    const p = pass(identifier());
    expect(await p.series('Doctor Who', null)).toBe('unknown');
    // Two fit by name already: no other names are asked for.
    expect(fake.requests).toEqual(['/search/shows?q=Doctor%20Who']);
    expect(await p.series('Doctor Who', 2005)).toEqual({ provider: 'tvmaze', id: 211, title: 'Doctor Who', year: 2005 });
    expect(await p.series('Doctor Who (1963)', null)).toMatchObject({ id: 210, year: 1963 });
    expect(await p.series('Doctor Who', 1999)).toBe('unknown');
  });

  it('answers unknown when one show has the name and another has it as an other name', async () => {
    const named: FakeShow = { id: 300, name: 'Bodies', premiered: '2023-10-19', country: 'GB', episodes: [] };
    const aka: FakeShow = { id: 301, name: 'Körper', premiered: '2023-05-01', country: 'DE', akas: [{ name: 'Bodies', country: null }], episodes: [] };
    fake = await fakeTvmaze([named, aka]);
    expect(await pass(identifier()).series('Bodies', null)).toBe('unknown');
    expect(fake.requests).toEqual(['/search/shows?q=Bodies', '/shows/301/akas']);
  });

  it('tells The Office of the US from the UK one only when the title names the country', async () => {
    fake = await fakeTvmaze([OFFICE_US, OFFICE_UK]);
    const p = pass(identifier());
    expect(await p.series('The Office', null)).toBe('unknown');
    expect(await p.series('The Office (US)', null)).toMatchObject({ id: 526, year: 2005 });
    expect(await p.series('The Office (UK)', null)).toMatchObject({ id: 3141, year: 2001 });
  });

  it('answers unknown for a name no show has, also when the search returns others', async () => {
    fake = await fakeTvmaze([FRIEREN, { id: 5, name: 'Lost Girl', premiered: '2010-09-12', episodes: [] }]);
    const p = pass(identifier());
    expect(await p.series('Nothing Like It', null)).toBe('unknown');
    expect(fake.requests).toEqual(['/search/shows?q=Nothing%20Like%20It']);
    expect(await p.series('Lost', null)).toBe('unknown');
    expect(await p.series('Sousou no Frieren', 2020)).toBe('unknown');
    expect(warnings).toEqual([]);
  });

  it('returns a hostile name as it came; the templates make it one safe folder name', async () => {
    const evil: FakeShow = { id: 666, name: 'Evil/../../etc\u0000\u001b[31m Show', premiered: '2020-01-01', episodes: [] };
    fake = await fakeTvmaze([evil]);
    fake.override = (req, res) => {
      if (!req.url!.startsWith('/search/')) return false;
      res.end(JSON.stringify([{ score: 1, show: { id: 666, name: evil.name, premiered: '2020-01-01', extra: { deep: [1, 2] } } }]));
      return true;
    };
    const show = await pass(identifier()).series('Evil Etc 31m Show', null);
    expect(show).toEqual({ provider: 'tvmaze', id: 666, title: evil.name, year: 2020 });
    if (show === 'unknown') return;
    const media = { kind: 'episode' as const, title: show.title, year: show.year, season: 1, episodes: [1], air_date: null, edition: null, country: null };
    const { folders, name } = renderTemplate(DEFAULT_CONFIG.library.episode_template, media, '.mkv');
    expect(folders).toHaveLength(2);
    for (const segment of [...folders, name]) expect(segment).not.toMatch(/[/\\\u0000-\u001f]/);
  });

  it('weighs a search result with a name longer than any title as no fit', async () => {
    fake = await fakeTvmaze([{ id: 1, name: `Lost${' '.repeat(5000)}`, premiered: '2004-09-22', episodes: [] }]);
    expect(await pass(identifier()).series('Lost', null)).toBe('unknown');
  });
});

describe('absolute numbers', () => {
  const frieren = { provider: 'tvmaze' as const, id: 65_617, title: "Frieren: Beyond Journey's End", year: 2023 };

  it('answers unknown for numbers across two seasons, past the list, or not episode numbers', async () => {
    fake = await fakeTvmaze([FRIEREN]);
    const p = pass(identifier());
    expect(await p.absolute(frieren, [28, 29])).toBe('unknown');
    expect(await p.absolute(frieren, [31])).toBe('unknown');
    expect(fake.requests).toHaveLength(1);
    for (const bad of [[], [0], [-1], [1.5], [Number.NaN], Array.from({ length: 17 }, (_, i) => i + 1)]) {
      expect(await p.absolute(frieren, bad)).toBe('unknown');
    }
    expect(await p.absolute({ ...frieren, id: 999 }, [1])).toBe('unknown');
    expect(fake.requests).toEqual(['/shows/65617/episodes', '/shows/999/episodes']);
  });

  it('asks again for a list that ended before the number, once a day has passed', async () => {
    const show: FakeShow = { ...FRIEREN, episodes: run(1, 28) };
    fake = await fakeTvmaze([show]);
    let now = 1_000_000_000_000;
    const p = pass(identifier({ now: () => now }));
    expect(await p.absolute(frieren, [29])).toBe('unknown');
    show.episodes.push(...run(2, 1, '2026-01-16'));
    now += DAY - 1;
    expect(await p.absolute(frieren, [29])).toBe('unknown');
    expect(await p.absolute(frieren, [3])).toEqual({ season: 1, episodes: [3] });
    expect(fake.requests).toHaveLength(1);
    now += 1;
    expect(await p.absolute(frieren, [29])).toEqual({ season: 2, episodes: [1] });
    expect(fake.requests).toHaveLength(2);
  });
});

describe('seasonCounts and mapAbsolute', () => {
  it('counts regular episodes per season, in any order, specials left out', () => {
    expect(
      seasonCounts([
        { season: 2, number: 1, type: 'regular' },
        { season: 1, number: 2 },
        { season: 1, number: null, type: 'significant_special' },
        { season: 1, number: 1, type: 'regular' },
        { season: 1, number: 3, type: 'insignificant_special' },
      ]),
    ).toEqual([2, 1]);
  });

  it('stops before a season that does not number its episodes 1, 2, 3, …', () => {
    expect(seasonCounts([...run(1, 3), { season: 2, number: 1 }, { season: 2, number: 3 }, ...run(3, 2)])).toEqual([3]);
    expect(seasonCounts([...run(1, 3), ...run(2, 2), { season: 2, number: 2 }])).toEqual([3]);
    expect(seasonCounts([...run(1, 3), ...run(3, 2)])).toEqual([3]);
    expect(seasonCounts([...run(2, 3)])).toEqual([]);
    expect(seasonCounts([{ season: 0, number: 1 }, ...run(1, 2)])).toEqual([2]);
  });

  it('maps into one season or none', () => {
    expect(mapAbsolute([28, 10], [1])).toEqual({ season: 1, episodes: [1] });
    expect(mapAbsolute([28, 10], [38])).toEqual({ season: 2, episodes: [10] });
    expect(mapAbsolute([28, 10], [39])).toBeNull();
    expect(mapAbsolute([28, 10], [28, 29])).toBeNull();
    expect(mapAbsolute([], [1])).toBeNull();
  });
});

describe('a provider down, slow or hostile', () => {
  it('answers unknown at once when nothing listens, with the reason for the log, and keeps nothing', async () => {
    fake = await fakeTvmaze([]);
    const url = fake.url;
    await fake.close();
    fake = undefined;
    const p = identifier().forPass({ url, allowPrivate: true }, { budget: createIdentifyBudget(), warn: (m) => warnings.push(m) });
    const started = performance.now();
    expect(await p.series('Sousou no Frieren', null)).toBe('unknown');
    expect(await p.absolute({ provider: 'tvmaze', id: 1, title: 'x', year: null }, [1])).toBe('unknown');
    expect(performance.now() - started).toBeLessThan(500);
    expect(warnings).toEqual(['tvmaze /search/shows?q=Sousou%20no%20Frieren: ECONNREFUSED', 'tvmaze /shows/1/episodes: ECONNREFUSED']);
    await expect(readFile(cacheFile(), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('gives up on a request after timeoutMs', async () => {
    fake = await fakeTvmaze([FRIEREN]);
    fake.override = slowBy(1000);
    const started = performance.now();
    expect(await pass(identifier({ timeoutMs: 100 })).series('Sousou no Frieren', null)).toBe('unknown');
    expect(performance.now() - started).toBeLessThan(900);
    expect(warnings).toEqual(['tvmaze /search/shows?q=Sousou%20no%20Frieren: no answer within 100 ms']);
  });

  it.each([
    ['an HTTP error', (res: import('node:http').ServerResponse) => res.writeHead(500).end('oops'), 'HTTP 500'],
    ['rate limiting', (res: import('node:http').ServerResponse) => res.writeHead(429).end('{}'), 'HTTP 429'],
    ['an answer that is not JSON', (res: import('node:http').ServerResponse) => res.end('[{"score":'), 'the answer is not JSON'],
    [
      'JSON of another shape',
      (res: import('node:http').ServerResponse) => res.end('[{"score":1,"show":{"id":"65617","name":"x"}}]'),
      'unexpected answer at 0.show.id',
    ],
    ['an answer over 1 MiB', (res: import('node:http').ServerResponse) => res.end(`[${' '.repeat(2 * 1024 * 1024)}]`), 'answer larger than 1048576 bytes'],
  ])('answers unknown for %s and asks again next time', async (_, answer, why) => {
    fake = await fakeTvmaze([FRIEREN]);
    fake.override = (req, res) => {
      answer(res);
      return true;
    };
    const id = identifier();
    expect(await pass(id).series('Sousou no Frieren', null)).toBe('unknown');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(why);
    fake.override = null;
    expect(await pass(id).series('Sousou no Frieren', null)).toMatchObject({ id: 65_617 });
  });

  it('reaches a private address only with allow_private', async () => {
    fake = await fakeTvmaze([FRIEREN]);
    const p = identifier().forPass({ url: fake.url, allowPrivate: false }, { budget: createIdentifyBudget(), warn: (m) => warnings.push(m) });
    expect(await p.series('Sousou no Frieren', null)).toBe('unknown');
    expect(fake.requests).toEqual([]);
    expect(warnings[0]).toMatch(/^tvmaze \/search\/shows\?q=Sousou%20no%20Frieren: .*public/);
  });
});

describe('the record of a failing provider, for the System page', () => {
  it('dates the first failure, keeps that date through the next ones with the newest reason, and is gone after a look-up succeeds', async () => {
    fake = await fakeTvmaze([FRIEREN, WHO_2005]);
    fake.override = (_req, res) => (res.writeHead(503).end('down'), true);
    let now = Date.parse('2026-11-28T05:00:00.000Z');
    const id = identifier({ now: () => now });
    expect(await identifyCacheStore(dataFolder(dataDir)).failures.read()).toBeNull();
    expect(await pass(id).series('Sousou no Frieren', null)).toBe('unknown');
    expect(await identifyCacheStore(dataFolder(dataDir)).failures.read()).toEqual({
      since: '2026-11-28T05:00:00.000Z',
      error: expect.stringContaining('HTTP 503'),
    });
    now += 3600_000;
    fake.override = (_req, res) => (res.writeHead(500).end('oops'), true);
    expect(await pass(id).series('Doctor Who', 2005)).toBe('unknown');
    expect(await identifyCacheStore(dataFolder(dataDir)).failures.read()).toEqual({
      since: '2026-11-28T05:00:00.000Z',
      error: expect.stringContaining('HTTP 500'),
    });
    fake.override = null;
    expect(await pass(id).series('Doctor Who', 2005)).toMatchObject({ id: 211 });
    expect(await identifyCacheStore(dataFolder(dataDir)).failures.read()).toBeNull();
    await expect(readFile(identifyCacheStore(dataFolder(dataDir)).failures.file, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('records nothing when the pass ran out of time: that is no failure of the provider', async () => {
    fake = await fakeTvmaze([FRIEREN]);
    fake.override = slowBy(300);
    expect(await pass(identifier(), createIdentifyBudget(100)).series('Sousou no Frieren', null)).toBe('unknown');
    expect(await identifyCacheStore(dataFolder(dataDir)).failures.read()).toBeNull();
  });

  it('reads a damaged record as none', async () => {
    await mkdir(path.dirname(identifyCacheStore(dataFolder(dataDir)).failures.file), { recursive: true });
    await writeFile(identifyCacheStore(dataFolder(dataDir)).failures.file, '{"since":');
    expect(await identifyCacheStore(dataFolder(dataDir)).failures.read()).toBeNull();
  });
});

describe('the time budget of a pass', () => {
  it('stops waiting when the budget runs out, and then makes no request at all', async () => {
    fake = await fakeTvmaze([FRIEREN, WHO_2005]);
    fake.override = slowBy(150);
    const p = pass(identifier(), createIdentifyBudget(250));
    const started = performance.now();
    expect(await p.series('Sousou no Frieren', null)).toBe('unknown');
    expect(performance.now() - started).toBeLessThan(400);
    expect(fake.requests).toEqual(['/search/shows?q=Sousou%20no%20Frieren', '/shows/65617/akas']);
    expect(await p.series('Doctor Who', 2005)).toBe('unknown');
    expect(await p.absolute({ provider: 'tvmaze', id: 211, title: 'Doctor Who', year: 2005 }, [1])).toBe('unknown');
    expect(fake.requests).toHaveLength(2);
    expect(warnings).toEqual([
      "tvmaze: the pass's 250 ms for provider look-ups ran out",
      "tvmaze: the pass's 250 ms for provider look-ups are spent; further names are left to the library and aliases",
    ]);
  });

  it('still answers from the cache once the budget is spent', async () => {
    fake = await fakeTvmaze([WHO_2005]);
    const id = identifier();
    expect(await pass(id).series('Doctor Who', 2005)).toMatchObject({ id: 211 });
    const spent = createIdentifyBudget(0);
    expect(await pass(id, spent).series('Doctor Who', 2005)).toMatchObject({ id: 211 });
    expect(fake.requests).toHaveLength(1);
  });

  it('does not wait behind the rate limit past the budget', async () => {
    fake = await fakeTvmaze([WHO_2005]);
    const p = pass(identifier({ minIntervalMs: 1000 }), createIdentifyBudget(300));
    const started = performance.now();
    expect(await p.series('Doctor Who', 2005)).toMatchObject({ id: 211 });
    expect(await p.absolute({ provider: 'tvmaze', id: 211, title: 'Doctor Who', year: 2005 }, [1])).toBe('unknown');
    expect(performance.now() - started).toBeLessThan(600);
    // The queued request is dropped, not sent once its turn comes.
    await sleep(900);
    expect(fake.requests).toEqual(['/search/shows?q=Doctor%20Who']);
  });

  it('paces requests over every pass of the identifier', async () => {
    fake = await fakeTvmaze([FRIEREN, WHO_2005]);
    const starts: number[] = [];
    fake.override = () => {
      starts.push(performance.now());
      return false;
    };
    const id = identifier({ minIntervalMs: 100 });
    await Promise.all([pass(id).series('Sousou no Frieren', null), pass(id).series('Doctor Who', 2005)]);
    expect(starts).toHaveLength(3);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(95);
  });

  it('counts look-ups side by side once: the time during which any waits', () => {
    let now = 0;
    const b = createIdentifyBudget(1000, () => now);
    const a = b.begin();
    now = 100;
    const c = b.begin();
    now = 300;
    a();
    expect(b.leftMs()).toBe(700);
    now = 400;
    c();
    c();
    expect(b.leftMs()).toBe(600);
    now = 1000;
    expect(b.leftMs()).toBe(600);
  });
});

describe('the cache in the data folder', () => {
  it('keeps answers across restarts, for 7 days when found and 1 day when not', async () => {
    fake = await fakeTvmaze([FRIEREN]);
    let now = 1_000_000_000_000;
    const opts = { now: () => now };
    const first = pass(identifier(opts));
    const show = await first.series('Sousou no Frieren', null);
    expect(await first.series('Nothing Like It', null)).toBe('unknown');
    await first.absolute(show as Exclude<typeof show, 'unknown'>, [5]);
    const asked = fake.requests.length;

    const saved = JSON.parse(await readFile(cacheFile(), 'utf8'));
    expect(saved).toMatchObject({ version: 1 });
    expect(saved.entries.map((e: { answer: unknown }) => e.answer)).toEqual([
      { kind: 'series', show: { provider: 'tvmaze', id: 65_617, title: "Frieren: Beyond Journey's End", year: 2023 } },
      { kind: 'series', show: null },
      { kind: 'seasons', seasons: [28, 2] },
    ]);

    // A restart: a new identifier reads the file.
    now += DAY - 1;
    const later = pass(identifier(opts));
    expect(await later.series('Sousou no Frieren', null)).toEqual(show);
    expect(await later.series('sousou no frieren', null)).toEqual(show);
    expect(await later.series('Nothing Like It', null)).toBe('unknown');
    expect(await later.absolute(show as Exclude<typeof show, 'unknown'>, [30])).toEqual({ season: 2, episodes: [2] });
    expect(fake.requests).toHaveLength(asked);

    now += 1;
    expect(await later.series('Nothing Like It', null)).toBe('unknown');
    expect(fake.requests).toHaveLength(asked + 1);
    expect(await later.series('Sousou no Frieren', null)).toEqual(show);
    expect(fake.requests).toHaveLength(asked + 1);

    now += 6 * DAY;
    expect(await later.series('Sousou no Frieren', null)).toEqual(show);
    expect(fake.requests).toHaveLength(asked + 3);
    expect(warnings).toEqual([]);
  });

  it('keeps one answer per provider URL', async () => {
    fake = await fakeTvmaze([WHO_2005]);
    const other = await fakeTvmaze([]);
    try {
      const id = identifier();
      expect(await pass(id).series('Doctor Who', 2005)).toMatchObject({ id: 211 });
      const elsewhere = id.forPass({ url: other.url, allowPrivate: true }, { budget: createIdentifyBudget(), warn: (m) => warnings.push(m) });
      expect(await elsewhere.series('Doctor Who', 2005)).toBe('unknown');
      expect(other.requests).toEqual(['/search/shows?q=Doctor%20Who']);
    } finally {
      await other.close();
    }
  });

  it.each([
    ['not JSON', '{"version":1,"entries":['],
    ['JSON of another shape', '{"version":1,"entries":[{"key":"x","at":"yesterday"}]}'],
    ['another version', '{"version":2,"entries":[]}'],
  ])('ignores a cache file that is %s, says so once, and replaces it', async (_, text) => {
    const file = cacheFile();
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
    fake = await fakeTvmaze([WHO_2005]);
    const id = identifier();
    expect(await pass(id).series('Doctor Who', 2005)).toMatchObject({ id: 211 });
    expect(await pass(id).series('Doctor Who', 2005)).toMatchObject({ id: 211 });
    expect(warnings).toEqual([`${file}: not a look-up cache; ignored, it will be replaced`]);
    expect(JSON.parse(await readFile(file, 'utf8')).entries).toHaveLength(1);
  });

  it('ignores a cache file too large to be one', async () => {
    const file = cacheFile();
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, ' '.repeat(16 * 1024 * 1024 + 1));
    fake = await fakeTvmaze([WHO_2005]);
    expect(await pass(identifier()).series('Doctor Who', 2005)).toMatchObject({ id: 211 });
    expect(warnings).toEqual([`${file}: larger than ${16 * 1024 * 1024} bytes; ignored, it will be replaced`]);
  });

  it('keeps at most maxCacheEntries, dropping the oldest', async () => {
    fake = await fakeTvmaze([WHO_2005]);
    const p = pass(identifier({ maxCacheEntries: 2 }));
    for (const title of ['One', 'Two', 'Three']) await p.series(title, null);
    const saved = JSON.parse(await readFile(cacheFile(), 'utf8'));
    expect(saved.entries.map((e: { key: string }) => JSON.parse(e.key)[2])).toEqual(['two', 'three']);
  });

  it('answers when the cache cannot be written, and says why', async () => {
    await writeFile(path.join(dataDir, 'metadata'), 'a file where the folder would be');
    fake = await fakeTvmaze([WHO_2005]);
    expect(await pass(identifier()).series('Doctor Who', 2005)).toMatchObject({ id: 211 });
    expect(warnings).toEqual([`${cacheFile()}: ENOTDIR; ignored, it will be replaced`, `${cacheFile()}: not written: EEXIST`]);
  });
});

describe('seriesIdentifierFor', () => {
  const cfg = (identify: Config['metadata']['identify'], url: string): Config => ({
    ...DEFAULT_CONFIG,
    metadata: { ...DEFAULT_CONFIG.metadata, identify },
    release_providers: { tvmaze: { enabled: false, url, allow_private: true } },
  });

  it('is null while [metadata] identify is empty, and asks release_providers.tvmaze.url when it names tvmaze', async () => {
    fake = await fakeTvmaze([WHO_2005]);
    const id = identifier();
    const options = { budget: createIdentifyBudget(), warn: (m: string) => warnings.push(m) };
    expect(seriesIdentifierFor(cfg([], fake.url), id, options)).toBeNull();
    const on = seriesIdentifierFor(cfg(['tvmaze'], fake.url), id, options);
    expect(await on!.series('Doctor Who', 2005)).toMatchObject({ id: 211 });
    expect(fake.requests).toHaveLength(1);
  });
});
