import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Context } from 'hono';

/** A JSON answer serialised, encoded and compressed once, then only written out. */
export interface CachedJson {
  body: Uint8Array;
  gzip: Uint8Array;
  etag: string;
}

/**
 * At 100,000 indexed files some answers are megabytes. Kept as a string, each request re-encodes
 * it to UTF-8; kept as bytes with a gzip copy, a request costs a write (measured by
 * bench/library.bench.ts: ~6x the requests per second and a flat RSS).
 */
export function cacheJson(value: unknown): CachedJson {
  const body = Buffer.from(JSON.stringify(value));
  return {
    body,
    gzip: gzipSync(body, { level: 6 }),
    etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
  };
}

function acceptsGzip(header: string | undefined): boolean {
  return !!header && /\bgzip\b(?!\s*;\s*q=0(?:\.0*)?\s*(?:,|$))/i.test(header);
}

export function sendJson(c: Context, cached: CachedJson): Response {
  c.header('ETag', cached.etag);
  c.header('Vary', 'Accept-Encoding');
  if (c.req.header('if-none-match')?.split(',').some((t) => t.trim().replace(/^W\//, '') === cached.etag)) {
    return c.body(null, 304);
  }
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (acceptsGzip(c.req.header('accept-encoding')) && cached.gzip.length < cached.body.length) {
    headers['Content-Encoding'] = 'gzip';
    return c.body(cached.gzip as Uint8Array<ArrayBuffer>, 200, headers);
  }
  return c.body(cached.body as Uint8Array<ArrayBuffer>, 200, headers);
}
