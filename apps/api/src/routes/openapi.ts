import { Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { openApiDocument } from '../openapi/document.ts';
import { referencePage } from '../openapi/reference-page.ts';

export function openApiRoutes() {
  // Built once: the document only changes with the code.
  const document = openApiDocument() as Parameters<typeof referencePage>[0];
  const json = JSON.stringify(document);
  const html = referencePage(document);
  return new Hono<AppEnv>()
    .get('/openapi.json', (c) => c.body(json, 200, { 'Content-Type': 'application/json' }))
    .get('/docs', (c) => c.html(html));
}
