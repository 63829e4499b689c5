import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { createRoute } from '@hono/zod-openapi';
import { AppError } from '@mo/core';
import { systemFolderOf } from '@mo/core/config';
import { isInside } from '@mo/core/fs';
import type { AppDeps } from '../http/env.ts';
import { errors, OPEN, other, router } from '../openapi/route.ts';

const getThemeCss = createRoute({
  method: 'get',
  path: '/theme/custom.css',
  operationId: 'getThemeCss',
  summary: 'The host-edited stylesheet',
  tags: ['service'],
  ...OPEN,
  responses: {
    200: other('text/css', 'The stylesheet (empty when missing), with an ETag.'),
    304: { description: 'Not modified: If-None-Match names the current ETag.' },
    ...errors({ 403: 'theme.css_file resolves outside paths.config' }),
  },
});

interface Cached {
  /** The served file: device, inode, size and mtime. */
  stamp: string;
  css: string;
  etag: string;
}

/** A stylesheet larger than this is not one; it is served as empty rather than read into memory. */
const MAX_CSS_BYTES = 1024 * 1024;

const EMPTY: Cached = { stamp: 'empty', css: '', etag: etagOf('') };

function etagOf(css: string): string {
  return `"${createHash('sha256').update(css).digest('base64url').slice(0, 27)}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

const outside = () =>
  new AppError('forbidden', 'theme.css_file: its real path is not a .css file inside paths.config (and outside the system and data folders)');

/**
 * Opens the stylesheet and proves that the file opened is a `.css` file inside the real
 * `paths.config`: the real path of the name is checked, and checked to be the very file the handle
 * has open (same device and inode), so a link swapped between the check and the open reads nothing
 * outside. Null when there is no file to serve.
 */
async function openInsideConfig(
  configDir: string,
  fileConfig: { config: string; data: string },
  cssFile: string,
): Promise<{ handle: FileHandle; size: number; stamp: string } | null> {
  const file = join(configDir, cssFile);
  let handle: FileHandle;
  try {
    // Non-blocking, so that a FIFO put there cannot hold the request open.
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const [opened, realConfig, realFile, realFileConfig, realData] = await Promise.all([
      handle.stat(),
      realpath(configDir),
      realpath(file),
      realpath(fileConfig.config).catch(() => null),
      realpath(fileConfig.data).catch(() => fileConfig.data),
    ]);
    const named = await stat(realFile);
    // Outside the config file's own folder, a system folder and the data folder (the API key, the
    // owner's password hash) are refused too, whatever paths.config a state.json holds.
    const trusted = realFileConfig !== null && isInside(realFile, realFileConfig);
    const escapes =
      !isInside(realFile, realConfig) ||
      extname(realFile).toLowerCase() !== '.css' ||
      (!trusted && (systemFolderOf(realFile) !== null || isInside(realFile, realData)));
    if (escapes || named.dev !== opened.dev || named.ino !== opened.ino) throw outside();
    if (!opened.isFile() || opened.size > MAX_CSS_BYTES) {
      await handle.close();
      return null;
    }
    return { handle, size: opened.size, stamp: `${opened.dev}:${opened.ino}:${opened.size}:${opened.mtimeMs}` };
  } catch (err) {
    await handle.close();
    if (err instanceof AppError) throw err;
    // Swapped or removed while we looked: nothing safe to serve.
    return null;
  }
}

/** The host-edited stylesheet; checked on every request, re-read only when the file changed. */
export function themeRoutes({ config }: AppDeps) {
  let cached: Cached = EMPTY;

  async function load(): Promise<Cached> {
    const cfg = config.current();
    const found = await openInsideConfig(cfg.paths.config, config.fileConfig.paths, cfg.theme.css_file);
    if (!found) return EMPTY;
    const { handle, size, stamp } = found;
    try {
      if (cached.stamp === stamp) return cached;
      // No more than the size checked: the file may grow while it is read.
      const buf = Buffer.alloc(size);
      const { bytesRead } = await handle.read(buf, 0, size, 0);
      const css = buf.subarray(0, bytesRead).toString('utf8');
      cached = { stamp, css, etag: etagOf(css) };
      return cached;
    } finally {
      await handle.close();
    }
  }

  return router().openapi(getThemeCss, async (c) => {
    const { css, etag } = await load();
    c.header('ETag', etag);
    c.header('Cache-Control', 'no-cache');
    if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304);
    return c.body(css, 200, { 'Content-Type': 'text/css; charset=utf-8' });
  });
}
