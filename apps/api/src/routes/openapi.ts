import { createRoute } from '@hono/zod-openapi';
import { cacheJson, sendJson, type CachedJson } from '../http/cached-json.ts';
import { json, other, router, NOT_MODIFIED } from '../openapi/route.ts';
import { referencePage } from '../openapi/reference-page.ts';
import { openApiDocumentSchema } from '../openapi/schemas.ts';

const getOpenApi = createRoute({
  method: 'get',
  path: '/openapi.json',
  operationId: 'getOpenApi',
  summary: 'This document',
  tags: ['operations'],
  responses: { ...NOT_MODIFIED, 200: json(openApiDocumentSchema, 'OpenAPI 3.1 document') },
});

const getDocs = createRoute({
  method: 'get',
  path: '/docs',
  operationId: 'getDocs',
  summary: 'API reference page',
  tags: ['operations'],
  responses: { 200: other('text/html', 'HTML page') },
});

/** `document` builds the app's document: called once, on the first request, when every route is declared. */
export function openApiRoutes(document: () => object) {
  // JSON by construction; its schema names only the fields a client starts from, so the typed
  // answer is left open (never) rather than claimed field by field.
  let built: { json: CachedJson<never>; html: string } | undefined;
  const get = () => {
    if (!built) {
      const doc = document() as Parameters<typeof referencePage>[0];
      built = { json: cacheJson(doc as never), html: referencePage(doc) };
    }
    return built;
  };
  return router()
    .openapi(getOpenApi, (c) => sendJson(c, get().json))
    .openapi(getDocs, (c) => c.html(get().html, 200));
}
