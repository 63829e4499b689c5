import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../http/env.ts';

export function healthRoutes({ jobs }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/health', (c) => c.json({ ok: true }))
    .get('/ready', async (c) =>
      (await jobs.ping()) ? c.json({ ok: true, redis: 'up' }) : c.json({ ok: false, redis: 'down' }, 503),
    );
}
