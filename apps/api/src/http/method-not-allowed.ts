import type { Context } from 'hono';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import type { RouterRoute } from 'hono/types';
import { errorResponse } from './errors.ts';

/** Middleware and mounted apps (Bull Board) register for every method: they name no route's methods. */
const ANY_METHOD = 'ALL';

/**
 * The methods each path answers to, from the app's own route table: a path matched by routes of
 * other methods than the request's is a known route, answered 405 with `Allow` (RFC 9110 15.5.6),
 * not 404. GET brings HEAD, as Hono answers HEAD with the GET handler.
 */
export function allowedMethods(routes: readonly Pick<RouterRoute, 'method' | 'path'>[]): (path: string) => string[] {
  // Hono's own default router, so that a path matches here exactly when it would match there.
  const router = new SmartRouter<string>({ routers: [new RegExpRouter(), new TrieRouter()] });
  for (const r of routes) if (r.method !== ANY_METHOD) router.add(ANY_METHOD, r.path, r.method.toUpperCase());
  return (path) => {
    const methods = new Set(router.match(ANY_METHOD, path)[0].map(([method]) => method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}

/**
 * For the app's notFound: a 405 `method_not_allowed` with `Allow` when the path is a known route
 * under another method, else null (a plain 404). The routes are read on first use, once every
 * route is registered.
 */
export function methodNotAllowed(routes: () => readonly RouterRoute[]): (c: Context) => Response | null {
  let allowed: ((path: string) => string[]) | undefined;
  return (c) => {
    allowed ??= allowedMethods(routes());
    const methods = allowed(c.req.path);
    if (methods.length === 0 || methods.includes(c.req.method)) return null;
    c.header('Allow', methods.join(', '));
    return errorResponse(c, 'method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}; allowed: ${methods.join(', ')}`, { allow: methods });
  };
}
