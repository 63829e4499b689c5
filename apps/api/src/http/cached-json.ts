import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Context, TypedResponse } from 'hono';

/** A JSON answer serialised, encoded and compressed once, then only written out; T is what it holds. */
export interface CachedJson<T = unknown> {
  /** The JSON bytes; where a gzip copy is kept, made again from it on each read. */
  readonly body: Uint8Array;
  /** Null where compression saves nothing. */
  gzip: Uint8Array | null;
  etag: string;
  /** Never set: carries T to sendJson's answer, which the route's declared schema checks. */
  readonly value?: T;
}

/**
 * At 100,000 indexed files some answers are megabytes. Kept as a string, each request re-encodes
 * it to UTF-8; kept as bytes with a gzip copy, a request costs a write (measured by
 * bench/library.bench.ts: ~6x the requests per second and a flat RSS). Only the gzip copy is
 * kept: browsers take it, and the plain bytes were most of the API's memory (the transcode queue
 * is 13 MB plain, 0.6 MB compressed); a client without gzip gets them decompressed anew.
 */
export function cacheJson<T>(value: T): CachedJson<T> {
  return cacheStreamedJson<T>(value as Streamed<T>);
}

/**
 * `cacheJson` of a value whose lists may be iterables, written as JSON arrays: a list of 400,000
 * entries made one at a time as they are written never exists whole (an iterable that is not an
 * array is written as one, where `JSON.stringify` would write `{}`).
 */
export function cacheStreamedJson<T>(value: Streamed<T>): CachedJson<T> {
  const plain = serialise(value);
  const etag = `"${createHash('sha1').update(plain).digest('base64url')}"`;
  const gzip = gzipSync(plain, { level: 6 });
  if (gzip.length >= plain.length) return { body: plain, gzip: null, etag };
  return {
    get body() {
      return gunzipSync(gzip);
    },
    gzip,
    etag,
  };
}

const CHUNK_CHARS = 1 << 16;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

/** T with its lists given as any iterables: a generator's elements are made one at a time as they are written. */
export type Streamed<T> = T extends readonly (infer E)[] ? Iterable<E> : T extends object ? { [K in keyof T]: Streamed<T[K]> } : T;

function isIterable(v: unknown): v is Iterable<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as Iterable<unknown>)[Symbol.iterator] === 'function';
}

/** JSON text in pieces: big lists one element at a time, so no single multi-megabyte string is built. */
function* pieces(value: unknown): Generator<string> {
  if (isIterable(value)) {
    yield '[';
    let first = true;
    for (const element of value) {
      if (!first) yield ',';
      first = false;
      yield JSON.stringify(element) ?? 'null';
    }
    yield ']';
  } else if (isPlainObject(value)) {
    yield '{';
    let first = true;
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      yield `${first ? '' : ','}${JSON.stringify(k)}:`;
      first = false;
      yield* pieces(v);
    }
    yield '}';
  } else {
    yield JSON.stringify(value) ?? 'null';
  }
}

/**
 * The same bytes as `JSON.stringify` would give, gathered in 64 KiB pieces: at 100,000 files an
 * answer of several megabytes otherwise exists as one string, its encoded copy and the heap that
 * building them took, all at once.
 */
function serialise(value: unknown): Buffer {
  const chunks: Buffer[] = [];
  let pending: string[] = [];
  let size = 0;
  for (const piece of pieces(value)) {
    pending.push(piece);
    size += piece.length;
    if (size >= CHUNK_CHARS) {
      chunks.push(Buffer.from(pending.join('')));
      pending = [];
      size = 0;
    }
  }
  chunks.push(Buffer.from(pending.join('')));
  return Buffer.concat(chunks);
}

function acceptsGzip(header: string | undefined): boolean {
  return !!header && /\bgzip\b(?!\s*;\s*q=0(?:\.0*)?\s*(?:,|$))/i.test(header);
}

/** The cached answer, or 304 for its own ETag; typed as the JSON it holds for the route's declaration. */
export function sendJson<T>(c: Context, cached: CachedJson<T>): TypedResponse<T, 200, 'json'> {
  return send(c, cached) as unknown as TypedResponse<T, 200, 'json'>;
}

function send(c: Context, cached: CachedJson): Response {
  c.header('ETag', cached.etag);
  c.header('Vary', 'Accept-Encoding');
  if (c.req.header('if-none-match')?.split(',').some((t) => t.trim().replace(/^W\//, '') === cached.etag)) {
    return c.body(null, 304);
  }
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (cached.gzip && acceptsGzip(c.req.header('accept-encoding'))) {
    headers['Content-Encoding'] = 'gzip';
    return c.body(cached.gzip as Uint8Array<ArrayBuffer>, 200, headers);
  }
  return c.body(cached.body as Uint8Array<ArrayBuffer>, 200, headers);
}
