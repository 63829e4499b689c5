import { createRoute } from '@hono/zod-openapi';
import type { createMetrics } from '../http/metrics.ts';
import { other, router } from '../openapi/route.ts';

const getMetrics = createRoute({
  method: 'get', path: '/metrics', operationId: 'getMetrics', summary: 'Prometheus metrics', tags: ['operations'],
  responses: { 200: other('text/plain', 'Prometheus text exposition format') },
});

export function metricsRoutes(metrics: ReturnType<typeof createMetrics>) {
  return router().openapi(getMetrics, async (c) =>
    c.body(await metrics.collect(), 200, { 'Content-Type': metrics.contentType }),
  );
}
