import { createRoute, z } from '@hono/zod-openapi';
import {
  accumulate,
  AppError,
  catalogAccumulator,
  catalogPage,
  DEFAULT_ORDER,
  folderFilesView,
  folderSpans,
  LIBRARY_SORTS,
  libraryAccumulator,
  libraryView,
  MISSING,
  type CatalogEntry,
  type IndexHeader,
  type LibraryCatalog,
  type MovieView,
  type SeriesView,
} from '@mo/core';
import { libraryFilesResponse, libraryResponse } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { cacheJson, sendJson, type CachedJson } from '../http/cached-json.ts';
import { limitParam } from '../http/query.ts';
import { choiceValue, errors, json, queryValue, router, NOT_MODIFIED } from '../openapi/route.ts';
import { sendPicture } from './library-picture.ts';

/** Longer than any real folder path; the key of a derived answer is kept until the next index. */
const MAX_FOLDER_CHARS = 4096;

/** `?folder=`: one movie's or series' folder, absolute, as GET /api/library lists it. */
function folderQuery(description: string) {
  return z.object({
    folder: z
      .string()
      .regex(/^\/[^\0]*$/, 'an absolute folder path as GET /api/library lists it')
      .max(MAX_FOLDER_CHARS)
      .meta({ description }),
  });
}

/** The most movies (and series) one page holds. */
export const LIBRARY_PAGE_MAX = 500;
/** Longer than any title; a longer search is a mistake, not a search. */
const MAX_SEARCH_CHARS = 200;
/** Above any real library's titles; bounds the digits an offset may have. */
const MAX_OFFSET = 10_000_000;

/** A text parameter: absent or empty, null; longer than `max`, a 400 naming `key`. */
function textParam(key: string, max: number) {
  return (raw: string | undefined): string | null => {
    if (raw === undefined || raw === '') return null;
    if (raw.length > max) throw new AppError('bad_request', `${key}: at most ${max} characters`, { key });
    return raw;
  };
}

/** `?offset=`: a whole number from 0, in plain digits; absent or empty, null. */
function offsetParam(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return null;
  const n = /^\d{1,8}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 0 && n <= MAX_OFFSET)) throw new AppError('bad_request', `offset: must be a whole number from 0 to ${MAX_OFFSET}`, { key: 'offset' });
  return n;
}

const pageQuery = z.object({
  q: queryValue(textParam('q', MAX_SEARCH_CHARS), { type: 'string', description: "Only titles containing this text (any case; a movie's year counts)" }),
  kind: choiceValue('kind', ['movie', 'series'] as const, 'Only this kind: the other list is empty (its total still counted)'),
  drive: queryValue(textParam('drive', MAX_SEARCH_CHARS), { type: 'string', description: 'Only titles on the drive of this name' }),
  missing: choiceValue(
    'missing',
    MISSING,
    'Only titles lacking this: a poster/folder picture, any subtitle file, or (series) an episode below the highest of a season',
  ),
  holding: queryValue(
    (raw) => {
      const v = textParam('holding', MAX_FOLDER_CHARS)(raw);
      if (v !== null && !/^\/[^\0]*$/.test(v)) throw new AppError('bad_request', 'holding: an absolute path', { key: 'holding' });
      return v;
    },
    {
      type: 'string',
      description: 'Only the movie or series whose folder is this absolute path or holds it (a file or folder page asks this); other filters are ignored',
    },
  ),
  sort: choiceValue('sort', LIBRARY_SORTS, 'title, size (bytes), or added (newest file time); default title'),
  order: choiceValue('order', ['asc', 'desc'] as const, 'Default: title asc, size and added desc'),
  limit: queryValue((raw) => (raw === undefined || raw === '' ? null : limitParam('limit', raw, 0, LIBRARY_PAGE_MAX)), {
    type: 'integer',
    minimum: 1,
    maximum: LIBRARY_PAGE_MAX,
    description: 'At most this many movies and this many series; absent: all from offset on',
  }),
  offset: queryValue(offsetParam, { type: 'integer', minimum: 0, maximum: MAX_OFFSET, description: 'Skip this many of each list (after filter and sort)' }),
});
type PageQuery = z.output<typeof pageQuery>;

const getLibrary = createRoute({
  method: 'get',
  path: '/library',
  operationId: 'getLibrary',
  summary: 'Cached library summary, movies and series',
  description:
    'Without parameters: the whole library as the contract names it. With any of them: a page, each list filtered, sorted and cut on its own, ' +
    'each title with `added`, `picture` and `missing`, and `page` saying how many match.',
  tags: ['library'],
  request: { query: pageQuery },
  responses: {
    ...NOT_MODIFIED,
    200: json(libraryResponse),
    ...errors({ 400: 'a parameter out of range: limit not 1 to 500, a negative offset, an unknown kind, missing, sort or order' }),
  },
});

const getLibraryPicture = createRoute({
  method: 'get',
  path: '/library/picture',
  operationId: 'getLibraryPicture',
  summary: 'The poster or folder image of a movie or series folder',
  tags: ['library'],
  request: {
    query: folderQuery('A folder exactly as GET /api/library lists it, with `picture: true`'),
  },
  responses: {
    200: {
      description: 'The image (JPEG or PNG, by its first bytes), with an ETag',
      content: { 'image/jpeg': { schema: z.string() }, 'image/png': { schema: z.string() } },
    },
    304: { description: 'Not modified: If-None-Match names the current ETag; no body' },
    ...errors({
      400: 'no folder, or not an absolute path',
      403: 'the picture resolves (symlinks followed) outside every drive',
      404: 'the index holds no picture for that folder, or the file is gone, too large, or no JPEG or PNG image',
    }),
  },
});

const isPaged = (q: PageQuery) => Object.values(q).some((v) => v !== null);

function entryJson(e: CatalogEntry<MovieView | SeriesView>) {
  return { ...e.view, added: e.added > 0 ? new Date(e.added).toISOString() : null, picture: e.picture !== null, missing: e.missing };
}

function pagedAnswer(catalog: LibraryCatalog, q: PageQuery) {
  const sort = q.sort ?? 'title';
  const order = q.order ?? DEFAULT_ORDER[sort];
  const offset = q.offset ?? 0;
  const page = catalogPage(catalog, {
    ...(q.q === null ? {} : { q: q.q }),
    ...(q.kind === null ? {} : { kind: q.kind }),
    ...(q.drive === null ? {} : { drive: q.drive }),
    ...(q.missing === null ? {} : { missing: q.missing }),
    ...(q.holding === null ? {} : { holding: q.holding }),
    ...(q.limit === null ? {} : { limit: q.limit }),
    sort,
    order,
    offset,
  });
  return {
    summary: catalog.summary,
    movies: page.movies.map(entryJson) as z.input<typeof libraryResponse>['movies'],
    series: page.series.map(entryJson) as z.input<typeof libraryResponse>['series'],
    page: { offset, limit: q.limit, sort, order, total: page.total, drives: catalog.drives },
  };
}

const getLibraryFiles = createRoute({
  method: 'get',
  path: '/library/files',
  operationId: 'getLibraryFiles',
  summary: 'The indexed files of one movie or series folder',
  tags: ['library'],
  request: {
    query: folderQuery('A folder exactly as GET /api/library lists it'),
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

export function libraryRoutes({ library, config }: AppDeps) {
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

  // Kept beside library.json, not instead: the unpaged answer stays the bytes it was.
  const catalog = () =>
    library.derive(
      'library-catalog',
      accumulate(catalogAccumulator, (acc, header) => acc.catalog(header)),
    );

  return router()
    .openapi(getLibrary, async (c) => {
      const query = c.req.valid('query');
      if (isPaged(query)) return c.json(pagedAnswer(await catalog(), query), 200);
      return sendJson(
        c,
        await library.derive(
          'library.json',
          accumulate(libraryAccumulator, (acc, header) => cacheJson(header ? acc.view(header) : libraryView(null))),
        ),
      );
    })
    .openapi(getLibraryPicture, async (c) => {
      const { folder } = c.req.valid('query');
      const picture = (await catalog()).byFolder.get(folder)?.picture;
      if (!picture) throw new AppError('not_found', `the library index holds no picture for ${folder}`);
      return sendPicture(
        c,
        picture,
        config.current().drives.map((d) => d.path),
      );
    })
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
