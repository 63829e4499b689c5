import { createRoute } from '@hono/zod-openapi';
import { encodeScrape } from '@mo/core/metrics';
import type { createMetrics } from '../http/metrics.ts';
import { other, router } from '../openapi/route.ts';

const getMetrics = createRoute({
  method: 'get',
  path: '/metrics',
  operationId: 'getMetrics',
  summary: 'Prometheus metrics',
  tags: ['operations'],
  responses: { 200: other('text/plain', 'Prometheus text exposition format') },
});

export function metricsRoutes(metrics: ReturnType<typeof createMetrics>) {
  return router().openapi(getMetrics, async (c) => {
    const { body, gzip } = await encodeScrape(await metrics.collect(), c.req.header('accept-encoding'));
    c.header('Vary', 'Accept-Encoding');
    if (gzip) c.header('Content-Encoding', 'gzip');
    return c.body(body, 200, { 'Content-Type': metrics.contentType });
  });
}
