import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeShow {
  id: number;
  name: string;
  premiered?: string | null;
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

/**
 * A TVmaze stand-in on 127.0.0.1 and a random port, for the endpoints the provider uses:
 * singlesearch and search by name, lookup by thetvdb / imdb id (a redirect to the show), and
 * episode lists. Unknown shows and paths answer 404, as TVmaze does.
 */
export async function fakeTvmaze(shows: FakeShow[], ids: { thetvdb?: Record<string, number>; imdb?: Record<string, number> } = {}): Promise<FakeTvmaze> {
  const summary = (s: FakeShow) => ({ id: s.id, name: s.name, premiered: s.premiered ?? null, language: 'English', _links: {} });
  const byName = (q: string) => shows.filter((s) => s.name.toLowerCase().includes(q.toLowerCase()));
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
    if (url.pathname === '/singlesearch/shows') send(byName(q)[0] && summary(byName(q)[0]!));
    else if (url.pathname === '/search/shows') send(byName(q).map((s) => ({ score: 1, show: summary(s) })));
    else if (url.pathname === '/lookup/shows') {
      const tvdb = url.searchParams.get('thetvdb');
      const imdb = url.searchParams.get('imdb');
      const id = tvdb ? ids.thetvdb?.[tvdb] : imdb ? ids.imdb?.[imdb] : undefined;
      // As TVmaze does: a redirect to the show.
      if (id === undefined) send(undefined);
      else res.writeHead(301, { location: `/shows/${id}` }).end();
    } else if (/^\/shows\/\d+$/.test(url.pathname)) {
      const show = shows.find((s) => s.id === Number(url.pathname.slice(7)));
      send(show && summary(show));
    } else if (episodes) {
      const show = shows.find((s) => s.id === Number(episodes[1]));
      send(show?.episodes.map((e, i) => ({ id: show.id * 1000 + i, url: 'x', type: 'regular', airdate: '', name: null, ...e })));
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
