import type { MiddlewareHandler } from 'hono';

const NO_FRAMES = "frame-ancestors 'none'";

/** A page's own policy with framing forbidden: whatever frame-ancestors it named is replaced. */
export function withoutFraming(policy: string | null): string {
  const kept = (policy ?? '')
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d !== '' && !/^frame-ancestors(?:\s|$)/i.test(d));
  return [...kept, NO_FRAMES].join('; ');
}

/**
 * No answer of this service may be shown in another site's frame, where the owner's session would
 * click through a page it cannot see: the web UI, the set-up page, the API docs, the queue
 * dashboard (a mounted app that builds its own answers) and every error alike. Set on the finished
 * answer, so no page has to remember it; X-Frame-Options for browsers that predate CSP's
 * frame-ancestors.
 */
export const refuseFraming: MiddlewareHandler = async (c, next) => {
  await next();
  c.header('X-Frame-Options', 'DENY');
  c.header('Content-Security-Policy', withoutFraming(c.res.headers.get('content-security-policy')));
};
