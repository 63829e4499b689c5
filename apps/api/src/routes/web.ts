import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/env.ts';

/**
 * Where the built web UI is: WEB_ROOT, else `apps/web/dist` found upward from this module (the
 * TypeScript under apps/api/src and the bundle under apps/api/dist alike). Null when not built.
 */
export function findWebRoot(envRoot: string | undefined, from = fileURLToPath(import.meta.url)): string | null {
  if (envRoot) return existsSync(join(envRoot, 'index.html')) ? envRoot : null;
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const candidate = join(dir, 'apps', 'web', 'dist');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};
const COMPRESSIBLE = new Set(['.js', '.css', '.svg', '.json']);
/** Vite names every asset by its content hash: only these names are served, and nothing else under dist. */
const ASSET_NAME = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.(js|css|svg|png|woff2|json)$/;

export interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer | null;
}

function acceptsGzip(c: Context): boolean {
  return /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
}

/** The page runs only its own scripts and talks only to this origin (frameAncestors adds who may frame it). */
export const PAGE_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'";

export function send(c: Context, asset: Asset, cacheControl: string, extra: Record<string, string> = {}): Response {
  const gz = asset.gzip !== null && acceptsGzip(c);
  const headers: Record<string, string> = {
    'content-type': asset.type,
    'cache-control': cacheControl,
    'x-content-type-options': 'nosniff',
    vary: 'accept-encoding',
    ...extra,
  };
  if (gz) headers['content-encoding'] = 'gzip';
  const body = gz ? asset.gzip! : asset.body;
  if (c.req.method === 'HEAD') return c.body(null, 200, headers);
  return c.body(new Uint8Array(body), 200, headers);
}

function wantsHtml(c: Context): boolean {
  const accept = c.req.header('accept') ?? '';
  return accept === '' || accept.includes('text/html') || accept.includes('*/*');
}

/** index.html with its <base> set to URL_BASE (so one build works behind any prefix), read once; null when the UI is not built. */
export function webIndex(root: string | null, urlBase = ''): (() => Promise<Asset>) | null {
  if (root === null) return null;
  const base = `${urlBase}/`;
  let index: Promise<Asset> | null = null;
  return () =>
    (index ??= readFile(join(root, 'index.html'), 'utf8').then((html) => {
      const body = Buffer.from(html.replace('<base href="/" />', `<base href="${base.replace(/["<>&]/g, '')}" />`));
      return { type: 'text/html; charset=utf-8', body, gzip: gzipSync(body) };
    }));
}

/**
 * The web UI: hashed assets cached for good, and index.html (with its <base> set to URL_BASE, so
 * one build works behind any prefix) for every other page a browser asks for. /api stays the API's.
 */
export function webUi(opts: { root: string | null; urlBase?: string }): MiddlewareHandler<AppEnv> {
  const { root } = opts;
  const loadIndex = webIndex(root, opts.urlBase);
  if (root === null || loadIndex === null) return (_c, next) => next();
  const assets = new Map<string, Promise<Asset | null>>();

  const loadAsset = (name: string) => {
    let found = assets.get(name);
    if (!found) {
      found = readdir(join(root, 'assets')).then(async (names) => {
        // Only names the build wrote: a request cannot name a path of its own choosing.
        if (!names.includes(name)) return null;
        const ext = name.slice(name.lastIndexOf('.'));
        const body = await readFile(join(root, 'assets', name));
        return { type: TYPES[ext]!, body, gzip: COMPRESSIBLE.has(ext) ? gzipSync(body, { level: 9 }) : null };
      });
      assets.set(name, found);
      // A miss is not cached: a name that is not there says nothing about the next build.
      void found.then((a) => a === null && assets.delete(name));
    }
    return found;
  };

  // A middleware, not routes: a catch-all GET route would make every path look known to the 405 check.
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const path = c.req.path;
    if (path.startsWith('/assets/')) {
      const name = path.slice('/assets/'.length);
      const asset = ASSET_NAME.test(name) ? await loadAsset(name) : null;
      return asset ? send(c, asset, 'public, max-age=31536000, immutable') : next();
    }
    if (path === '/api' || path.startsWith('/api/') || !wantsHtml(c)) return next();
    return send(c, await loadIndex(), 'no-cache', { 'content-security-policy': PAGE_POLICY, 'referrer-policy': 'same-origin' });
  };
}
