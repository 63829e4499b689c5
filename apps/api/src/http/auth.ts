import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { RuntimeConfig } from '@mo/core';
import { errorResponse } from './errors.ts';

// Probes (health, and readiness for container healthchecks, which only tells whether Redis is up)
// and the stylesheet a login page needs stay open.
const OPEN = new Set(['/api/health', '/api/ready', '/api/theme/custom.css']);

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

function presented(headers: { get(name: string): string | null | undefined }, query: string | undefined): string | null {
  const header = headers.get('x-api-key');
  if (header) return header;
  const auth = headers.get('authorization');
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '').trim();
  return query ?? null;
}

/**
 * The queue dashboard is a browser page whose own requests carry no key; opened once with
 * `?api_key=`, it gets the key as an HttpOnly cookie scoped to its own path.
 */
const ADMIN_PREFIX = '/api/admin/';
const ADMIN_COOKIE = 'mo_api_key';

/** `app.api_key` guards every other route; read per request so a change applies at once. */
export function apiKeyAuth(config: RuntimeConfig, urlBase = ''): MiddlewareHandler {
  return async (c, next) => {
    const key = config.current().app.api_key;
    if (key === '' || OPEN.has(c.req.path)) return next();
    const admin = c.req.path.startsWith(ADMIN_PREFIX);
    const given = presented(c.req.raw.headers, c.req.query('api_key')) ?? (admin ? (getCookie(c, ADMIN_COOKIE) ?? null) : null);
    if (given === null) return errorResponse(c, 'unauthorized', 'an API key is required (X-Api-Key, Authorization: Bearer, or ?api_key=)');
    if (!timingSafeEqual(digest(given), digest(key))) return errorResponse(c, 'unauthorized', 'the API key is not valid');
    await next();
    // Set on the finished answer: the dashboard's mounted app builds its own Response.
    if (admin && c.req.query('api_key')) {
      setCookie(c, ADMIN_COOKIE, given, { httpOnly: true, sameSite: 'Strict', path: `${urlBase}/api/admin` });
    }
  };
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
 * A web page must not drive this API from its visitor's browser: with no api_key set (the usual
 * home setup) nothing else would stop it from turning dry_run off or queueing a transcode. A
 * write is refused when the browser says it comes from elsewhere: Sec-Fetch-Site other than
 * same-origin or none (sent over HTTPS and to localhost), else an Origin whose host is not the one
 * the request was addressed to (sent on cross-origin writes over plain HTTP too). Scripts and
 * other servers send neither header and are not affected.
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
