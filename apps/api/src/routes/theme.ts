import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../http/env.ts';

interface Cached {
  file: string;
  stamp: string;
  css: string;
  etag: string;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** The host-edited stylesheet; re-read only when its size or mtime changes. */
export function themeRoutes({ config }: AppDeps) {
  let cached: Cached | undefined;

  async function load(): Promise<Cached> {
    const cfg = config.current();
    const file = join(cfg.paths.config, cfg.theme.css_file);
    let stamp = 'missing';
    try {
      const s = await stat(file);
      stamp = `${s.size}:${s.mtimeMs}`;
    } catch {
      // A missing stylesheet is served as empty.
    }
    if (cached && cached.file === file && cached.stamp === stamp) return cached;
    let css = '';
    if (stamp !== 'missing') {
      try {
        css = await readFile(file, 'utf8');
      } catch {
        css = '';
      }
    }
    const etag = `"${createHash('sha256').update(css).digest('base64url').slice(0, 27)}"`;
    cached = { file, stamp, css, etag };
    return cached;
  }

  return new Hono<AppEnv>().get('/theme/custom.css', async (c) => {
    const { css, etag } = await load();
    c.header('ETag', etag);
    c.header('Cache-Control', 'no-cache');
    if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304);
    return c.body(css, 200, { 'Content-Type': 'text/css; charset=utf-8' });
  });
}
