import { createRoute } from '@hono/zod-openapi';
import { healthResponse, readyResponse } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { json, OPEN, router } from '../openapi/route.ts';

const health = createRoute({
  method: 'get', path: '/health', operationId: 'getHealth', summary: 'Liveness', tags: ['service'], ...OPEN,
  responses: { 200: json(healthResponse) },
});

const ready = createRoute({
  method: 'get', path: '/ready', operationId: 'getReady', summary: 'Readiness: is Redis reachable', tags: ['service'], ...OPEN,
  responses: { 200: json(readyResponse), 503: json(readyResponse, 'Unavailable') },
});

export function healthRoutes({ jobs }: AppDeps) {
  return router()
    .openapi(health, (c) => c.json({ ok: true as const }, 200))
    .openapi(ready, async (c) =>
      (await jobs.ping()) ? c.json({ ok: true as const, redis: 'up' as const }, 200) : c.json({ ok: false as const, redis: 'down' as const }, 503),
    );
}
