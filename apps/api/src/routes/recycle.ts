import { createRoute } from '@hono/zod-openapi';
import { recycleService } from '@mo/core/recycle';
import { recycleEmptyBody, recycleEmptyResponse, recycleResponse, recycleRestoreBody, recycleRestoreResponse } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { body, errors, json, router } from '../openapi/route.ts';

const list = createRoute({
  method: 'get',
  path: '/recycle',
  operationId: 'getRecycle',
  summary: "The files in the drives' recycle bins, newest first",
  tags: ['library'],
  description:
    'A library file the service replaces or removes goes to `<drive>/.recycle/<YYYY-MM-DD>/<path relative to the drive>` (a rename, never a copy), ' +
    'kept `library.recycle_days`; a second copy of one path on one day goes to `<YYYY-MM-DD>.2/`, and so on. Only what lies in that layout is listed.',
  responses: { 200: json(recycleResponse) },
});

const restore = createRoute({
  method: 'post',
  path: '/recycle/restore',
  operationId: 'postRecycleRestore',
  summary: 'Put a recycled file back where it came from',
  tags: ['library'],
  description:
    "`path` is the item's `path` from GET /api/recycle. The file is renamed back to `original`, making its folders again; never written over " +
    'an existing file. With dry_run on it only says what it would do.',
  request: { body: body(recycleRestoreBody) },
  responses: {
    200: json(recycleRestoreResponse),
    ...errors({
      400: 'a bad body (details.key names the key): path is not an absolute path',
      403: 'the original path no longer lies on its drive (a symbolic link on the way leads off it)',
      404: "no such file in a drive's recycle bin",
      409: 'the original path is taken: nothing moved',
    }),
  },
});

const empty = createRoute({
  method: 'post',
  path: '/recycle/empty',
  operationId: 'postRecycleEmpty',
  summary: 'Delete files from the recycle bins for good',
  tags: ['library'],
  description:
    "An addition to the original interface (see Beyond the contract). `paths`: these items' `path`s; absent: every file in every bin. All named paths are checked before any is deleted. " +
    'With dry_run on it only says what it would delete.',
  request: { body: body(recycleEmptyBody) },
  responses: {
    200: json(recycleEmptyResponse),
    ...errors({ 400: 'a bad body (details.key names the key)', 404: "a named path is no file in a drive's recycle bin: nothing deleted" }),
  },
});

export function recycleRoutes({ config }: AppDeps) {
  const bins = recycleService({ config: () => config.current(), data: () => config.data });
  return router()
    .openapi(list, async (c) => c.json(await bins.list(), 200))
    .openapi(restore, async (c) => c.json(await bins.restore(c.req.valid('json').path, c.var.log), 200))
    .openapi(empty, async (c) => c.json(await bins.empty(c.req.valid('json').paths, c.var.log), 200));
}
