import { createRoute, z } from '@hono/zod-openapi';
import { AppError, folderFilesView, libraryView } from '@mo/core';
import { libraryFilesResponse, libraryResponse } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { cacheJson, sendJson } from '../http/cached-json.ts';
import { errors, json, router } from '../openapi/route.ts';

/** Longer than any real folder path; the key of a derived answer is kept until the next index. */
const MAX_FOLDER_CHARS = 4096;

const getLibrary = createRoute({
  method: 'get', path: '/library', operationId: 'getLibrary', summary: 'Cached library summary, movies and series', tags: ['library'],
  responses: { 200: json(libraryResponse) },
});

const getLibraryFiles = createRoute({
  method: 'get', path: '/library/files', operationId: 'getLibraryFiles', summary: 'The indexed files of one movie or series folder', tags: ['library'],
  request: {
    query: z.object({
      folder: z
        .string()
        .regex(/^\/[^\0]*$/, 'an absolute folder path as GET /api/library lists it')
        .max(MAX_FOLDER_CHARS)
        .meta({ description: 'A folder exactly as GET /api/library lists it' }),
    }),
  },
  responses: {
    200: json(libraryFilesResponse),
    ...errors({ 400: 'no folder, or not an absolute path', 404: 'the index holds no such movie or series folder' }),
  },
});

export function libraryRoutes({ library }: AppDeps) {
  return router()
    .openapi(getLibrary, async (c) => sendJson(c, await library.derive('library.json', (index) => cacheJson(libraryView(index)))))
    .openapi(getLibraryFiles, async (c) => {
      const { folder } = c.req.valid('query');
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
