import type { MiddlewareHandler } from 'hono';
import type { RuntimeConfig } from '@mo/core';

/**
 * A page's own policy with its frame-ancestors replaced by the owner's: `'none'` when no origin is
 * allowed, else the origins (validated when set: no character in them can end the directive).
 */
export function withFrameAncestors(policy: string | null, ancestors: readonly string[]): string {
  const kept = (policy ?? '')
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d !== '' && !/^frame-ancestors(?:\s|$)/i.test(d));
  return [...kept, `frame-ancestors ${ancestors.length === 0 ? "'none'" : ancestors.join(' ')}`].join('; ');
}

/**
 * No answer of this service may be shown in another site's frame, where the owner's session would
 * click through a page it cannot see: the web UI, the set-up page, the API docs, the queue
 * dashboard (a mounted app that builds its own answers) and every error alike. Only the origins of
 * `app.frame_ancestors` (dashboards the owner runs) may, read at each answer so that a change
 * applies at once. Set on the finished answer, so no page has to remember it. X-Frame-Options,
 * for browsers that predate CSP's frame-ancestors, can say DENY but cannot name origins: it is sent
 * when nothing may frame the page and left out when some origins may (browsers that know
 * frame-ancestors follow it over X-Frame-Options, and DENY would only break the old ones' frames).
 */
export function frameAncestors(config: RuntimeConfig): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const ancestors = config.current().app.frame_ancestors;
    if (ancestors.length === 0) c.header('X-Frame-Options', 'DENY');
    else c.res.headers.delete('X-Frame-Options');
    c.header('Content-Security-Policy', withFrameAncestors(c.res.headers.get('content-security-policy'), ancestors));
  };
}
