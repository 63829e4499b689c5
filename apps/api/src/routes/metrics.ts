import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { createRoute } from '@hono/zod-openapi';
import type { createMetrics } from '../http/metrics.ts';
import { acceptsGzip } from '../http/cached-json.ts';
import { other, router } from '../openapi/route.ts';

const compress = promisify(gzip);

const getMetrics = createRoute({
  method: 'get', path: '/metrics', operationId: 'getMetrics', summary: 'Prometheus metrics', tags: ['operations'],
  responses: { 200: other('text/plain', 'Prometheus text exposition format') },
});

export function metricsRoutes(metrics: ReturnType<typeof createMetrics>) {
  return router().openapi(getMetrics, async (c) => {
    const text = await metrics.collect();
    c.header('Vary', 'Accept-Encoding');
    // A scrape is text that repeats its names and labels line after line: a tenth of its size gzipped.
    if (acceptsGzip(c.req.header('accept-encoding'))) {
      const body = await compress(text);
      return c.body(body as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': metrics.contentType, 'Content-Encoding': 'gzip' });
    }
    return c.body(text, 200, { 'Content-Type': metrics.contentType });
  });
}
