import { createRoute } from '@hono/zod-openapi';
import { hardlinkCache } from '@mo/core/fs/hardlinks.ts';
import { healthResponse, readyResponse } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { json, OPEN, router } from '../openapi/route.ts';

const health = createRoute({
  method: 'get', path: '/health', operationId: 'getHealth', summary: 'Liveness', tags: ['service'], ...OPEN,
  responses: { 200: json(healthResponse) },
});

const ready = createRoute({
  method: 'get', path: '/ready', operationId: 'getReady', summary: 'Readiness: is Redis reachable; can downloads be hard-linked to each drive', tags: ['service'], ...OPEN,
  responses: { 200: json(readyResponse), 503: json(readyResponse, 'Unavailable') },
});

/** A healthcheck must not wait on a hung network mount: past this, the drives go unnamed this once. */
export const HARDLINK_CHECK_MS = 2_000;

function within<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((r) => (timer = setTimeout(() => r(fallback), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export function healthRoutes({ jobs, config }: AppDeps) {
  const hardlinks = hardlinkCache();
  return router()
    .openapi(health, (c) => c.json({ ok: true as const }, 200))
    .openapi(ready, async (c) => {
      const [up, links] = await Promise.all([jobs.ping(), within(hardlinks(config.current()), HARDLINK_CHECK_MS, {})]);
      return up ? c.json({ ok: true as const, redis: 'up' as const, hardlinks: links }, 200) : c.json({ ok: false as const, redis: 'down' as const, hardlinks: links }, 503);
    });
}
