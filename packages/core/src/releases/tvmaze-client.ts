import { Agent, fetch, type Dispatcher, type Response } from 'undici';
import { z } from 'zod';
import type { ShowIds } from './series-catalogue.ts';
import { NotPublicAddressError, publicOnlyDispatcher } from './tvmaze-connect.ts';

// Only the fields the reports use; TVmaze sends many more, which zod drops.
const showSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  premiered: z.string().nullish(),
});
const episodeSchema = z.object({
  season: z.number().int(),
  /** Null for specials, which TVmaze numbers apart. */
  number: z.number().int().nullable(),
  name: z.string().nullish(),
  /** '' or missing while the date is not known. */
  airdate: z.string().nullish(),
});
const searchSchema = z.array(z.object({ show: showSchema }));

export type TvmazeShow = z.infer<typeof showSchema>;
export type TvmazeEpisode = z.infer<typeof episodeSchema>;

/** A TVmaze answer larger than this is not one: the episode list of a long soap is under 2 MB. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface TvmazeClientOptions {
  /** `release_providers.tvmaze.url`. */
  baseUrl: string;
  /** Per request, from its start to the last byte of the body. */
  timeoutMs: number;
  /** Runs each request: the provider's concurrency and pacing. */
  schedule?: <T>(request: () => Promise<T>) => Promise<T>;
  /** `release_providers.tvmaze.allow_private`: off, every connection must reach a public address. */
  allowPrivate?: boolean;
}

// One of each for the process, so that connections are kept alive across answers.
let publicOnly: Dispatcher | undefined;
let anyAddress: Dispatcher | undefined;

function defaultDispatcher(allowPrivate: boolean): Dispatcher {
  if (allowPrivate) return (anyAddress ??= new Agent());
  return (publicOnly ??= publicOnlyDispatcher());
}

class TooLargeError extends Error {}

async function readBody(res: Response, limit: number): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) throw new TooLargeError(`answer larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function premieredYear(show: TvmazeShow): number | null {
  const y = show.premiered ? Number(show.premiered.slice(0, 4)) : NaN;
  return Number.isInteger(y) ? y : null;
}

export interface TvmazeClient {
  /** The show a library series is: by id when its tvshow.nfo gives one, else by name (and year). */
  findShow(query: { title: string; year: number | null; ids: ShowIds }): Promise<TvmazeShow | null>;
  episodes(showId: number): Promise<TvmazeEpisode[]>;
}

export interface TvmazeGetOptions {
  /** A smaller bound than the default, for an answer that is small by nature (a search, AKAs). */
  maxBytes?: number;
  /** Ends the request early (the caller's time is up); it is then not started if still queued. */
  signal?: AbortSignal;
}

/** One GET of a TVmaze path: its answer checked against `schema`, null for a 404. */
export type TvmazeGet = <T>(path: string, schema: z.ZodType<T>, options?: TvmazeGetOptions) => Promise<T | null>;

/**
 * GET for TVmaze paths. Errors name the path (never the base URL, which may hold credentials) and
 * say what went wrong: no answer in time, an address that is not public, an HTTP status, or an
 * answer that is not the JSON expected. A 404 is an answer: nothing known.
 */
export function tvmazeGet(opts: TvmazeClientOptions): TvmazeGet {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const credentialed = URL.canParse(base) && (new URL(base).username !== '' || new URL(base).password !== '');
  const schedule = opts.schedule ?? ((request) => request());
  const dispatcher = defaultDispatcher(opts.allowPrivate ?? false);

  return (path, schema, options = {}) =>
    schedule(async () => {
      const caller = options.signal;
      const stopped = () => new Error(`tvmaze ${path}: ${caller?.reason instanceof Error ? caller.reason.message : 'stopped'}`);
      if (caller?.aborted) throw stopped();
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      const signal = caller ? AbortSignal.any([timeout, caller]) : timeout;
      const failed = (err: unknown) => {
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        if (cause instanceof NotPublicAddressError) return new Error(`tvmaze ${path}: ${cause.message}`);
        if (err instanceof TooLargeError) return new Error(`tvmaze ${path}: ${err.message}`);
        if (caller?.aborted) return stopped();
        // The cause is this side's own error (a refused connection, a port fetch does not use), never
        // the server's words; fetch's own message may quote the URL, credentials and all.
        const why = cause?.code ?? cause?.message ?? (err as Error).name;
        return new Error(timeout.aborted ? `tvmaze ${path}: no answer within ${opts.timeoutMs} ms` : `tvmaze ${path}: ${why}`);
      };
      if (credentialed) throw new Error(`tvmaze ${path}: the URL holds a user name or password, which is never sent; give the URL without them`);
      let res: Response;
      try {
        res = await fetch(`${base}${path}`, { signal, dispatcher, headers: { accept: 'application/json' } });
      } catch (err) {
        throw failed(err);
      }
      if (!res.ok) {
        await res.body?.cancel();
        if (res.status === 404) return null;
        throw new Error(`tvmaze ${path}: HTTP ${res.status}`);
      }
      let text: string;
      try {
        text = await readBody(res, options.maxBytes ?? MAX_BODY_BYTES);
      } catch (err) {
        throw failed(err);
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new Error(`tvmaze ${path}: the answer is not JSON`);
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new Error(`tvmaze ${path}: unexpected answer at ${issue.path.join('.') || '(root)'}: ${issue.message}`);
      }
      return parsed.data;
    });
}

/** The few TVmaze endpoints the releases report needs. */
export function tvmazeClient(opts: TvmazeClientOptions): TvmazeClient {
  const get = tvmazeGet(opts);

  return {
    async findShow({ title, year, ids }) {
      if (ids.tvmaze !== undefined) return { id: ids.tvmaze, name: title };
      if (ids.tvdb !== undefined) {
        const show = await get(`/lookup/shows?thetvdb=${ids.tvdb}`, showSchema);
        if (show) return show;
      }
      if (ids.imdb !== undefined) {
        const show = await get(`/lookup/shows?imdb=${encodeURIComponent(ids.imdb)}`, showSchema);
        if (show) return show;
      }
      const q = encodeURIComponent(title);
      const best = await get(`/singlesearch/shows?q=${q}`, showSchema);
      if (!best || year === null || premieredYear(best) === year) return best;
      // The best match by name is another show of that name (a remake, the UK original): look for the year.
      const all = (await get(`/search/shows?q=${q}`, searchSchema)) ?? [];
      return all.find((r) => premieredYear(r.show) === year)?.show ?? best;
    },
    async episodes(showId) {
      return (await get(`/shows/${showId}/episodes`, z.array(episodeSchema))) ?? [];
    },
  };
}
