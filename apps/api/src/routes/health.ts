import { createRoute } from '@hono/zod-openapi';
import { hardlinkCache } from '@mo/core/fs';
import { healthResponse, readyResponse } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { json, OPEN, router } from '../openapi/route.ts';

const health = createRoute({
  method: 'get',
  path: '/health',
  operationId: 'getHealth',
  summary: 'Liveness',
  tags: ['service'],
  ...OPEN,
  responses: { 200: json(healthResponse) },
});

const ready = createRoute({
  method: 'get',
  path: '/ready',
  operationId: 'getReady',
  summary: 'Readiness: is Redis reachable; can downloads be hard-linked to each drive',
  tags: ['service'],
  ...OPEN,
  responses: { 200: json(readyResponse), 503: json(readyResponse, 'Unavailable') },
});

export function healthRoutes({ jobs, config }: AppDeps) {
  const hardlinks = hardlinkCache();
  return router()
    .openapi(health, (c) => c.json({ ok: true as const }, 200))
    .openapi(ready, async (c) => {
      const [up, links] = await Promise.all([jobs.ping(), hardlinks(config.current())]);
      return up
        ? c.json({ ok: true as const, redis: 'up' as const, hardlinks: links }, 200)
        : c.json({ ok: false as const, redis: 'down' as const, hardlinks: links }, 503);
    });
}
