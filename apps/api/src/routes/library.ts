import { Hono } from 'hono';
import { AppError, folderFilesView, libraryView } from '@mo/core';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { cacheJson, sendJson } from '../http/cached-json.ts';

/** Longer than any real folder path; the key of a derived answer is kept until the next index. */
const MAX_FOLDER_CHARS = 4096;

export function libraryRoutes({ library }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/library', async (c) => sendJson(c, await library.derive('library.json', (index) => cacheJson(libraryView(index)))))
    .get('/library/files', async (c) => {
      const folder = c.req.query('folder');
      if (!folder || !folder.startsWith('/') || folder.length > MAX_FOLDER_CHARS || folder.includes('\0')) {
        throw new AppError('bad_request', 'folder: an absolute folder path as GET /api/library lists it', { key: 'folder' });
      }
      // Only folders the index holds get an answer kept for them: a client naming made-up folders
      // would otherwise grow the cache by one entry per name until the next index.
      const known = await library.derive('library-folders', (index) => new Set(index?.items.map((i) => i.folder)));
      if (!known.has(folder)) throw new AppError('not_found', `the library index holds no movie or series folder ${folder}`);
      const view = await library.derive(`library-files:${folder}`, (index) => {
        const files = folderFilesView(index, folder);
        return files && cacheJson(files);
      });
      if (!view) throw new AppError('not_found', `the library index holds no movie or series folder ${folder}`);
      return sendJson(c, view);
    });
}
