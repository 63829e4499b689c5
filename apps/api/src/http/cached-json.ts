import { createHash } from 'node:crypto';
import { constants, crc32, deflateRawSync, gunzipSync } from 'node:zlib';
import type { Context, TypedResponse } from 'hono';
import { acceptsGzip } from '@mo/core/metrics';

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
  const { gzip, etag, plainBytes } = compressed(value);
  if (gzip.length >= plainBytes) return { body: gunzipSync(gzip), gzip: null, etag };
  return {
    get body() {
      return gunzipSync(gzip);
    },
    gzip,
    etag,
  };
}

/** About a megabyte: what is compressed at a time. */
const CHUNK_CHARS = 1 << 20;

/** A gzip member's header: deflate, no name, no time, Unix. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]);

/**
 * The value's JSON compressed as it is written, a piece at a time: the whole text never exists
 * (the transcode queue's is 13 MB at 100,000 files, ten times that at 1,000,000; held whole
 * with its copies it was most of the RSS building the answer took). Each piece is deflated on its own and ended with a sync
 * flush, which leaves the stream at a byte boundary so the next one can follow; a final empty
 * block ends it. Pieces of 1 MiB lose little against one stream.
 */
function compressed(value: unknown): { gzip: Buffer; etag: string; plainBytes: number } {
  const hash = createHash('sha1');
  const out: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let plainBytes = 0;
  const take = (text: string) => {
    const bytes = Buffer.from(text);
    hash.update(bytes);
    crc = crc32(bytes, crc);
    plainBytes += bytes.length;
    out.push(deflateRawSync(bytes, { level: 6, finishFlush: constants.Z_SYNC_FLUSH }));
  };
  let pending: string[] = [];
  let size = 0;
  for (const piece of pieces(value)) {
    pending.push(piece);
    size += piece.length;
    if (size >= CHUNK_CHARS) {
      take(pending.join(''));
      pending = [];
      size = 0;
    }
  }
  if (size > 0) take(pending.join(''));
  out.push(deflateRawSync(Buffer.alloc(0), { level: 6 }));
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(plainBytes % 2 ** 32, 4);
  out.push(trailer);
  return { gzip: Buffer.concat(out), etag: `"${hash.digest('base64url')}"`, plainBytes };
}

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

/** The cached answer, or 304 for its own ETag; typed as the JSON it holds for the route's declaration. */
export function sendJson<T>(c: Context, cached: CachedJson<T>): TypedResponse<T, 200, 'json'> {
  return send(c, cached) as unknown as TypedResponse<T, 200, 'json'>;
}

function send(c: Context, cached: CachedJson): Response {
  c.header('ETag', cached.etag);
  c.header('Vary', 'Accept-Encoding');
  if (
    c.req
      .header('if-none-match')
      ?.split(',')
      .some((t) => t.trim().replace(/^W\//, '') === cached.etag)
  ) {
    return c.body(null, 304);
  }
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (cached.gzip && acceptsGzip(c.req.header('accept-encoding'))) {
    headers['Content-Encoding'] = 'gzip';
    return c.body(cached.gzip as Uint8Array<ArrayBuffer>, 200, headers);
  }
  return c.body(cached.body as Uint8Array<ArrayBuffer>, 200, headers);
}
