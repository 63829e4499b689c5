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

/**
 * A web page on another site must not drive this API from its visitor's browser: with no api_key
 * set (the usual home setup) nothing else would stop it from turning dry_run off or removing a
 * track. Browsers say where a request comes from in Sec-Fetch-Site; other clients send nothing,
 * and JSON bodies must also say `Content-Type: application/json`, which no cross-site page can
 * send without the preflight this API never grants.
 */
export const refuseCrossSite: MiddlewareHandler = async (c, next) => {
  if (!SAFE_METHODS.has(c.req.method) && c.req.header('sec-fetch-site') === 'cross-site') {
    return errorResponse(c, 'forbidden', 'a page on another site may not change anything here (Sec-Fetch-Site: cross-site)');
  }
  await next();
};
