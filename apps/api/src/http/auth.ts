import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import {
  AppError,
  clientAddress,
  failureKey,
  hostOfHeader,
  isAllowedHost,
  isLoopbackAddress,
  isLoopbackHost,
  resolveClient,
  shortUserAgent,
  trustedProxies,
  type AuthService,
  type FailureLimiter,
  type ResolvedClient,
  type RuntimeConfig,
  type SessionClient,
} from '@mo/core';
import type { AppEnv } from './env.ts';
import { errorResponse } from './errors.ts';

// Probes (health, and readiness for container healthchecks, which only tells whether Redis is up),
// the stylesheet a login page needs, and the routes that log in stay open (those that need the
// password check it themselves). The list of open sessions under /api/auth/ is not among them.
const OPEN = new Set([
  '/api/health',
  '/api/ready',
  '/api/theme/custom.css',
  '/api/auth/status',
  '/api/auth/setup',
  '/api/auth/login',
  '/api/auth/logout',
  '/api/auth/password',
  '/api/auth/api-key',
]);

export const SESSION_COOKIE = 'mo_session';

/**
 * The queue dashboard is a browser page whose own requests carry no key; opened once with
 * `?api_key=`, it gets the key as an HttpOnly cookie scoped to its own path.
 */
const ADMIN_PREFIX = '/api/admin/';
const ADMIN_COOKIE = 'mo_api_key';

/** The socket's peer; null under `app.request()` in tests, where there is no socket. */
export function remoteAddress(c: Context): string | null {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } }; server?: { incoming?: { socket?: { remoteAddress?: string } } } } | undefined;
  return (env?.server ?? env)?.incoming?.socket?.remoteAddress ?? null;
}

/** Who sent a request, as `app.trusted_proxies` lets this service tell. */
export interface RequestClient extends ResolvedClient {
  peer: string | null;
  /** The peer is a trusted proxy and said who it relayed for (X-Forwarded-For). */
  relayed: boolean;
}

/**
 * Resolves each request's client once, with the trusted proxies of the moment, for the failure
 * limit, `local_open` and the list of open sessions.
 */
export function resolveClients(config: RuntimeConfig): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const peer = remoteAddress(c);
    const forwardedFor = c.req.header('x-forwarded-for');
    const trusted = trustedProxies(config.current().app.trusted_proxies);
    const relayed = peer !== null && forwardedFor !== undefined && trusted.has(peer);
    c.set('client', { ...resolveClient(peer, forwardedFor, trusted), peer, relayed });
    await next();
  };
}

function requestClient(c: Context<AppEnv>): RequestClient {
  return c.get('client');
}

/** Who is using a session, as its entry in the owner's list of open sessions shows. */
export function sessionClient(c: Context<AppEnv>): SessionClient {
  const client = requestClient(c);
  // Through a trusted proxy the address is known; otherwise the claim is shown beside the peer.
  const address = client.forwarded ? client.address : clientAddress(client.peer, c.req.header('x-forwarded-for'));
  return { address, user_agent: shortUserAgent(c.req.header('user-agent')) };
}

function presentedKey(c: Context): string | null {
  const header = c.req.header('x-api-key');
  if (header) return header;
  const auth = c.req.header('authorization');
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '').trim();
  return c.req.query('api_key') ?? null;
}

/** The Host the client addressed; @hono/node-server builds the URL from it, `app.request()` only has the URL. */
function hostHeader(c: Context): string {
  return c.req.header('host') ?? new URL(c.req.url).host;
}

/** Whether the browser reached this service over HTTPS (directly or through a proxy that says so). */
export function overHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

/** The HTTP version the client spoke; null under `app.request()` in tests, where there is no socket. */
function httpVersion(c: Context): string | null {
  const env = c.env as { incoming?: { httpVersion?: string }; server?: { incoming?: { httpVersion?: string } } } | undefined;
  return (env?.server ?? env)?.incoming?.httpVersion ?? null;
}

/** Headers only a proxy adds (any one of them says the request was relayed). */
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host', 'x-forwarded-proto', 'via'];

/** Every name the request was addressed to (Host, and each X-Forwarded-Host a proxy set) is a loopback name. */
function addressedToLoopback(c: Context): boolean {
  const names = [hostHeader(c), ...(c.req.header('x-forwarded-host')?.split(',') ?? [])];
  return names.every((name) => {
    const host = hostOfHeader(name);
    return host !== null && isLoopbackHost(host);
  });
}

/**
 * A request that is let in without credentials under `local_open`: from a loopback peer, addressed
 * to a loopback name (a DNS-rebinding page addresses its own name), and not relayed by a proxy
 * (whose own peer address is loopback too). nginx's `proxy_pass http://127.0.0.1:8080` sends none
 * of the forwarding headers unless told to, and `Host: 127.0.0.1:8080`, but speaks HTTP/1.0 (its
 * default `proxy_http_version`), which no browser does: such a request is not taken as local either.
 * Relayed by a trusted proxy, it is local when the client the proxy names is loopback and every
 * name it was addressed to is a loopback one: a browser on the proxy's machine opening
 * `https://localhost/`, never a page on a rebinding name or the proxy's public one.
 */
export function isLocalRequest(c: Context<AppEnv>): boolean {
  const client = requestClient(c);
  if (client.relayed) return client.forwarded && isLoopbackAddress(client.address) && addressedToLoopback(c);
  if (PROXY_HEADERS.some((h) => c.req.header(h) !== undefined)) return false;
  if (httpVersion(c) === '1.0') return false;
  const host = hostOfHeader(hostHeader(c));
  return isLoopbackAddress(remoteAddress(c)) && host !== null && isLoopbackHost(host);
}

/**
 * `app.allowed_hosts`, when set, names the only hosts this service answers to (as Django's
 * ALLOWED_HOSTS): a page on a rebinding name gets a 403 before any route sees it.
 */
export function hostGuard(config: RuntimeConfig): MiddlewareHandler {
  return async (c, next) => {
    const allowed = config.current().app.allowed_hosts;
    if (allowed.length > 0) {
      for (const header of ['host', 'x-forwarded-host']) {
        const value = header === 'host' ? hostHeader(c) : c.req.header(header);
        if (value === undefined && header === 'x-forwarded-host') continue;
        const host = hostOfHeader(value?.split(',')[0]);
        if (host === null || !isAllowedHost(host, allowed)) {
          return errorResponse(c, 'forbidden', `this service does not answer to the host ${JSON.stringify(value ?? '')} (app.allowed_hosts)`);
        }
      }
    }
    await next();
  };
}

export function clientKey(c: Context<AppEnv>): string {
  return failureKey(requestClient(c).address ?? 'unknown');
}

/**
 * Judges one presented secret (a key, a password, a set-up token) under the client's limit of wrong
 * ones: the check's result, or 429 with Retry-After while the address is over its limit. The place
 * is taken before the check runs, so requests sent at once are judged no more than the limit allows;
 * an `unauthorized` error from the check counts as a failure.
 */
export async function limitedCheck<T>(c: Context<AppEnv>, limiter: FailureLimiter, check: () => Promise<T>): Promise<T | Response> {
  const reservation = await limiter.reserve(clientKey(c));
  if ('retryAfterMs' in reservation) {
    c.header('Retry-After', String(Math.ceil(reservation.retryAfterMs / 1000)));
    return errorResponse(c, 'too_many_requests', 'too many wrong keys or passwords from this address; try again later');
  }
  let failed = false;
  try {
    return await check();
  } catch (err) {
    failed = err instanceof AppError && err.code === 'unauthorized';
    throw err;
  } finally {
    reservation.attempt.settle(failed);
  }
}

/**
 * Every /api route but the open ones needs the key (`X-Api-Key`, `Authorization: Bearer`,
 * `?api_key=`) or the owner's session cookie; `local_open` lets local requests in without either.
 * Wrong credentials count against the client's address; a request without any is a plain 401.
 */
export function authGuard(deps: { config: RuntimeConfig; auth: AuthService; limiter: FailureLimiter; urlBase?: string }): MiddlewareHandler {
  const { config, auth, limiter } = deps;
  return async (c, next) => {
    const path = c.req.path;
    if (OPEN.has(path)) return next();
    const admin = path.startsWith(ADMIN_PREFIX);
    const key = presentedKey(c) ?? (admin ? (getCookie(c, ADMIN_COOKIE) ?? null) : null);
    if (key !== null) {
      const limited = await limitedCheck(c, limiter, async () => {
        if (!(await auth.keyMatches(key))) throw new AppError('unauthorized', 'the API key is not valid');
      });
      if (limited instanceof Response) return limited;
      await next();
      // Set on the finished answer: the dashboard's mounted app builds its own Response.
      if (admin && c.req.query('api_key')) {
        setCookie(c, ADMIN_COOKIE, key, { httpOnly: true, sameSite: 'Strict', secure: overHttps(c), path: `${deps.urlBase ?? ''}/api/admin` });
      }
      return;
    }
    const session = getCookie(c, SESSION_COOKIE);
    if (session !== undefined && (await auth.session(session, sessionClient(c))) !== null) return next();
    if (config.current().app.auth === 'local_open' && isLocalRequest(c)) return next();
    return errorResponse(
      c,
      'unauthorized',
      session !== undefined ? 'the session has ended; log in again' : 'an API key (X-Api-Key, Authorization: Bearer, or ?api_key=) or a login is required',
    );
  };
}

/**
 * For an answer that stays open (the event stream): whether the credentials it was let in with
 * still hold, so that a logout, a revoked session or a new API key also ends the streams they opened.
 */
export async function credentialsStillValid(c: Context, deps: { config: RuntimeConfig; auth: AuthService }): Promise<() => Promise<boolean>> {
  const key = presentedKey(c);
  if (key !== null) return () => deps.auth.keyMatches(key);
  const session = getCookie(c, SESSION_COOKIE);
  if (session !== undefined && (await deps.auth.session(session)) !== null) return async () => (await deps.auth.session(session)) !== null;
  return async () => deps.config.current().app.auth === 'local_open';
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** host[:port] as the browser addressed this service: the proxy's forwarded host, else Host. */
function addressedHost(header: (name: string) => string | undefined): string | null {
  const forwarded = header('x-forwarded-host')?.split(',')[0]?.trim();
  return (forwarded || header('host') || '').toLowerCase() || null;
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * A web page must not drive this API from its visitor's browser. A write is refused when the
 * browser says it comes from elsewhere: Sec-Fetch-Site other than same-origin or none (sent over
 * HTTPS and to localhost), else an Origin whose host is not the one the request was addressed to
 * (sent on cross-origin writes over plain HTTP too). Scripts and other servers send neither header
 * and are not affected. A DNS-rebinding page passes this check (to the browser it is same-origin):
 * the credentials it lacks, and the Host checks, stop it.
 */
export const refuseCrossSite: MiddlewareHandler = async (c, next) => {
  if (SAFE_METHODS.has(c.req.method)) return next();
  const site = c.req.header('sec-fetch-site');
  const origin = c.req.header('origin');
  let why: string | null = null;
  if (site !== undefined) {
    if (site !== 'same-origin' && site !== 'none') why = `Sec-Fetch-Site: ${site}`;
  } else if (origin !== undefined) {
    const from = originHost(origin);
    const to = addressedHost((name) => c.req.header(name));
    if (from === null || from !== to) why = `Origin ${origin} is not ${to ?? 'this host'}`;
  }
  if (why) return errorResponse(c, 'forbidden', `a page on another site may not change anything here (${why})`);
  await next();
};
