import type { Context } from 'hono';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Why the body's Content-Type is refused, or null for JSON. */
export function notJson(c: Context): string | null {
  const type = c.req.header('content-type');
  return type && JSON_TYPE.test(type) ? null : `the body must be sent with Content-Type: application/json (got ${type ? JSON.stringify(type) : 'none'})`;
}
