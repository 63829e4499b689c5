import type { Context, MiddlewareHandler } from 'hono';
import { errorResponse } from './errors.ts';

/**
 * How much of a body over the limit is still read before the 413. A client (or a proxy: nginx
 * sends the whole buffered body before it reads the answer) that is still sending when the socket
 * closes gets a reset instead of the answer: through nginx a 502. Read to its end, the body's
 * connection carries on. The shipped nginx config refuses bodies above this itself, with the same
 * JSON, so every size gets the API's answer.
 */
export const MAX_DISCARD_BYTES = 2 * 1024 * 1024;

export function tooLarge(c: Context, maxBytes: number, readToEnd: boolean): Response {
  // The rest of the body was not read: this connection cannot carry another request.
  if (!readToEnd) c.header('Connection', 'close');
  return errorResponse(c, 'payload_too_large', `the body is larger than ${maxBytes} bytes`);
}

function concat(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * Bodies over `maxBytes` are a JSON 413. A declared length within the limit goes to the route as
 * it is; a chunked body is read here, up to the limit, and handed on. Over the limit, the body is
 * read and thrown away up to `discardBytes` before the answer; a larger one (or a declared length
 * above it, answered without waiting for a body that may never come) is refused with
 * `Connection: close`.
 */
export function limitBody(maxBytes: number, discardBytes = MAX_DISCARD_BYTES): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body) return next();
    const length = raw.headers.get('content-length');
    // Chunked, or (in-process requests) neither: only reading tells the size.
    const declared = length === null || raw.headers.has('transfer-encoding') ? null : Number(length);
    if (declared !== null && declared <= maxBytes) return next();
    if (declared !== null && declared > discardBytes) return tooLarge(c, maxBytes, false);
    const reader = raw.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > discardBytes) {
        reader.releaseLock();
        return tooLarge(c, maxBytes, false);
      }
      if (size <= maxBytes) chunks.push(value);
    }
    if (size > maxBytes) return tooLarge(c, maxBytes, true);
    c.req.raw = new Request(raw, { body: concat(chunks, size) });
    return next();
  };
}
