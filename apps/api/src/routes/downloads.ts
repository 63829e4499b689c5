import { createRoute } from '@hono/zod-openapi';
import { downloadsResponse } from '@mo/shared';
import { downloadsView } from '@mo/core/scanner';
import type { AppDeps } from '../http/env.ts';
import { cacheJson, sendJson } from '../http/cached-json.ts';
import { json, router, NOT_MODIFIED } from '../openapi/route.ts';

const getDownloads = createRoute({
  method: 'get',
  path: '/downloads',
  operationId: 'getDownloads',
  summary: 'Files under the downloads folder and recent plans and moves',
  tags: ['scanner'],
  responses: { ...NOT_MODIFIED, 200: json(downloadsResponse) },
});

export function downloadsRoutes({ config }: AppDeps) {
  const downloads = downloadsView(
    {
      config: () => config.current(),
      listing: () => config.data.downloadsListing(),
      history: () => config.data.history(),
      recent: () => config.currentState().recent,
      refresh: () => config.refresh(),
    },
    (answer) => cacheJson(answer),
  );
  return router().openapi(getDownloads, async (c) => sendJson(c, await downloads(c.get('log'))));
}
