import { Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';
import type { createMetrics } from '../http/metrics.ts';

export function metricsRoutes(metrics: ReturnType<typeof createMetrics>) {
  return new Hono<AppEnv>().get('/metrics', async (c) =>
    c.body(await metrics.collect(), 200, { 'Content-Type': metrics.contentType }),
  );
}
