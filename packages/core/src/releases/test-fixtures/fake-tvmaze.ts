import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeAka {
  name: string;
  /** Null for the name in the show's own language, as TVmaze gives it. */
  country: { name: string; code: string; timezone: string } | null;
}

export interface FakeShow {
  id: number;
  name: string;
  premiered?: string | null;
  /** The network's country (`US`, `GB`, `JP`); without it the show is on a web channel of no country. */
  country?: string;
  /** Other names: `/shows/:id/akas`, and the search finds a show by them too. */
  akas?: FakeAka[];
  episodes: { season: number; number: number | null; name?: string; airdate?: string }[];
}

/** What to do with one request instead of the normal answer; return false to answer normally. */
export type Override = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

export interface FakeTvmaze {
  url: string;
  /** Paths with query, in the order they arrived. */
  requests: string[];
  /** Most requests open at once. */
  maxInFlight: number;
  override: Override | null;
  close(): Promise<void>;
}

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** A show as TVmaze answers it, every field it sends, most of which the clients drop. */
function showAnswer(s: FakeShow) {
  const network = s.country
    ? { id: s.id + 100, name: `Network ${s.country}`, country: { name: s.country, code: s.country, timezone: 'UTC' }, officialSite: null }
    : null;
  return {
    id: s.id,
    url: `https://www.tvmaze.com/shows/${s.id}/${slug(s.name)}`,
    name: s.name,
    type: 'Scripted',
    language: 'English',
    genres: ['Drama'],
    status: 'Ended',
    runtime: 60,
    averageRuntime: 60,
    premiered: s.premiered ?? null,
    ended: null,
    officialSite: null,
    schedule: { time: '21:00', days: ['Friday'] },
    rating: { average: 8.1 },
    weight: 97,
    network,
    webChannel: network ? null : { id: 1, name: 'Netflix', country: null, officialSite: 'https://www.netflix.com/' },
    dvdCountry: null,
    externals: { tvrage: null, thetvdb: null, imdb: null },
    image: {
      medium: `https://static.tvmaze.com/uploads/images/medium_portrait/1/${s.id}.jpg`,
      original: `https://static.tvmaze.com/uploads/images/original_untouched/1/${s.id}.jpg`,
    },
    summary: '<p>A show.</p>',
    updated: 1_700_000_000,
    _links: { self: { href: `https://api.tvmaze.com/shows/${s.id}` } },
  };
}

function episodeAnswer(show: FakeShow, e: FakeShow['episodes'][number], i: number) {
  const id = show.id * 1000 + i;
  return {
    id,
    url: `https://www.tvmaze.com/episodes/${id}/x`,
    name: null,
    type: e.number === null ? 'significant_special' : 'regular',
    airdate: '',
    airtime: '21:00',
    airstamp: null,
    runtime: 60,
    rating: { average: null },
    image: null,
    summary: null,
    _links: { self: { href: `https://api.tvmaze.com/episodes/${id}` }, show: { href: `https://api.tvmaze.com/shows/${show.id}`, name: show.name } },
    ...e,
  };
}

/**
 * A TVmaze stand-in on 127.0.0.1 and a random port, for the endpoints the clients use:
 * singlesearch (by part of a name) and search (by words of any name), a show's other names, lookup by thetvdb / imdb
 * id (a redirect to the show), and episode lists. Answers have TVmaze's shapes; unknown shows and
 * paths answer 404, as TVmaze does.
 */
export async function fakeTvmaze(shows: FakeShow[], ids: { thetvdb?: Record<string, number>; imdb?: Record<string, number> } = {}): Promise<FakeTvmaze> {
  const names = (s: FakeShow) => [s.name, ...(s.akas ?? []).map((a) => a.name)];
  const byName = (q: string) => shows.filter((s) => names(s).some((n) => n.toLowerCase().includes(q.toLowerCase())));
  // Loosely as TVmaze's fuzzy search: any word of the query in any name of the show, most words first.
  const words = (s: string) =>
    s
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  const search = (q: string) =>
    shows
      .map((s) => ({ s, hits: new Set(words(q).filter((w) => names(s).some((n) => words(n).includes(w)))).size }))
      .filter((r) => r.hits > 0)
      .sort((a, b) => b.hits - a.hits);
  const fake: FakeTvmaze = { url: '', requests: [], maxInFlight: 0, override: null, close: async () => {} };
  let inFlight = 0;

  const server = createServer(async (req, res) => {
    fake.requests.push(req.url!);
    inFlight++;
    fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    if (fake.override && (await fake.override(req, res))) return;
    const url = new URL(req.url!, 'http://x');
    const send = (body: unknown) => {
      if (body === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"name":"Not Found","status":404}');
      } else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const q = url.searchParams.get('q') ?? '';
    const episodes = /^\/shows\/(\d+)\/episodes$/.exec(url.pathname);
    const akas = /^\/shows\/(\d+)\/akas$/.exec(url.pathname);
    if (url.pathname === '/singlesearch/shows') send(byName(q)[0] && showAnswer(byName(q)[0]!));
    else if (url.pathname === '/search/shows') send(search(q).map((r) => ({ score: r.hits / 10, show: showAnswer(r.s) })));
    else if (url.pathname === '/lookup/shows') {
      const tvdb = url.searchParams.get('thetvdb');
      const imdb = url.searchParams.get('imdb');
      const id = tvdb ? ids.thetvdb?.[tvdb] : imdb ? ids.imdb?.[imdb] : undefined;
      // As TVmaze does: a redirect to the show.
      if (id === undefined) send(undefined);
      else res.writeHead(301, { location: `/shows/${id}` }).end();
    } else if (/^\/shows\/\d+$/.test(url.pathname)) {
      const show = shows.find((s) => s.id === Number(url.pathname.slice(7)));
      send(show && showAnswer(show));
    } else if (episodes) {
      const show = shows.find((s) => s.id === Number(episodes[1]));
      send(show?.episodes.map((e, i) => episodeAnswer(show, e, i)));
    } else if (akas) {
      const show = shows.find((s) => s.id === Number(akas[1]));
      send(show && (show.akas ?? []));
    } else send(undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return fake;
}
