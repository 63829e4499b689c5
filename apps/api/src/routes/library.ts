import { createRoute, z } from '@hono/zod-openapi';
import { accumulate, AppError, folderFilesView, folderSpans, libraryAccumulator, libraryView, type IndexHeader } from '@mo/core';
import { libraryFilesResponse, libraryResponse } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { cacheJson, sendJson, type CachedJson } from '../http/cached-json.ts';
import { errors, json, router, NOT_MODIFIED } from '../openapi/route.ts';

/** Longer than any real folder path; the key of a derived answer is kept until the next index. */
const MAX_FOLDER_CHARS = 4096;

const getLibrary = createRoute({
  method: 'get',
  path: '/library',
  operationId: 'getLibrary',
  summary: 'Cached library summary, movies and series',
  tags: ['library'],
  responses: { ...NOT_MODIFIED, 200: json(libraryResponse) },
});

const getLibraryFiles = createRoute({
  method: 'get',
  path: '/library/files',
  operationId: 'getLibraryFiles',
  summary: 'The indexed files of one movie or series folder',
  tags: ['library'],
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
    ...NOT_MODIFIED,
    200: json(libraryFilesResponse),
    ...errors({ 400: 'no folder, or not an absolute path', 404: 'the index holds no such movie or series folder' }),
  },
});

/** Where each folder's files lie in one index, and the answers given for them so far. */
interface FolderIndex {
  version: number;
  header: IndexHeader | null;
  spans: Map<string, number[]>;
  answers: Map<string, Promise<CachedJson<z.output<typeof libraryFilesResponse>> | null | undefined>>;
}

export function libraryRoutes({ library }: AppDeps) {
  const folderIndex = {
    pass: () => {
      const spans = folderSpans();
      return {
        add: spans.add,
        finish: (header: IndexHeader | null, version: number): FolderIndex => ({ version, header, spans: spans.spans(), answers: new Map() }),
      };
    },
  };
  /** A folder's answer from its own lines of the index; undefined when that index was replaced meanwhile. */
  async function filesOf(folders: FolderIndex, folder: string, spans: readonly number[]) {
    const items = await library.itemsAt(folders.version, spans);
    if (!items || !folders.header) return undefined;
    const files = folderFilesView({ ...folders.header, items }, folder);
    return files && cacheJson(files);
  }

  return router()
    .openapi(getLibrary, async (c) =>
      sendJson(
        c,
        await library.derive(
          'library.json',
          accumulate(libraryAccumulator, (acc, header) => cacheJson(header ? acc.view(header) : libraryView(null))),
        ),
      ),
    )
    .openapi(getLibraryFiles, async (c) => {
      const { folder } = c.req.valid('query');
      for (;;) {
        // Only folders the index holds get an answer kept for them: a client naming made-up folders
        // would otherwise grow the cache by one entry per name until the next index.
        const folders = await library.derive('library-folders', folderIndex);
        const spans = folders.spans.get(folder);
        if (!spans) throw new AppError('not_found', `the library index holds no movie or series folder ${folder}`);
        let answer = folders.answers.get(folder);
        if (!answer) {
          answer = filesOf(folders, folder, spans);
          folders.answers.set(folder, answer);
          answer.catch(() => folders.answers.delete(folder));
        }
        const view = await answer;
        if (view) return sendJson(c, view);
        if (view === null) throw new AppError('not_found', `the library index holds no movie or series folder ${folder}`);
        // A new index arrived between the two steps: ask it.
        folders.answers.delete(folder);
      }
    });
}
