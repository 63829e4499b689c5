import type { Context, MiddlewareHandler } from 'hono';
import { AppError } from '@mo/core';
import { notJson } from './content-type.ts';
import { errorResponse } from './errors.ts';

/** The request's JSON body; an empty body is `undefined`, malformed JSON or another type a 400. */
export async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return undefined;
  const refused = notJson(c);
  if (refused) throw new AppError('bad_request', refused);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new AppError('bad_request', `the body is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * Reads and throws away a request body the route did not read (a POST that takes no body, a 404,
 * a refusal before parsing). Once bodyLimit has opened the body's stream, @hono/node-server can no
 * longer drain what is left of a body over a few hundred KB: after 500 ms it closes the socket,
 * and the keep-alive client's next request on it hangs up. A 413 is left alone: it says
 * `Connection: close` rather than read a body it refused.
 */
export const drainUnreadBody: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.res.status === 413) return;
  if (!c.req.header('content-length') && !c.req.header('transfer-encoding')) return;
  const raw = c.req.raw;
  if (raw.bodyUsed || !raw.body || raw.body.locked) return;
  // A refused caller's body of no declared size (the organize apply, whose limit waits for the
  // caller to be known) is not read at all: the connection closes instead.
  if ((c.res.status === 401 || c.res.status === 403) && !c.req.header('content-length')) {
    c.header('Connection', 'close');
    return;
  }
  raw.body.pipeTo(new WritableStream()).catch(() => {});
};

/**
 * Every body sent to the API, Bull Board's actions included, must say it is JSON: text/plain and
 * the form types are what a page on another site can send without the preflight this API never
 * grants. An empty body needs no type.
 */
export const requireJsonBody: MiddlewareHandler = async (c, next) => {
  const length = c.req.header('content-length');
  const hasBody = c.req.header('transfer-encoding') !== undefined || (length !== undefined && length.trim() !== '0');
  const refused = hasBody && c.req.method !== 'GET' && c.req.method !== 'HEAD' ? notJson(c) : null;
  if (refused) return errorResponse(c, 'bad_request', refused);
  await next();
};
