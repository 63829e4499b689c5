import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { HonoAdapter } from '@bull-board/hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { AppDeps } from '../http/env.ts';

export const QUEUE_DASHBOARD_PATH = '/api/admin/queues';

/** Bull Board over the four queues; the api_key middleware in front of /api guards it like every route. */
export function queueDashboard({ jobs }: AppDeps): Hono {
  const adapter = new HonoAdapter(serveStatic);
  adapter.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: jobs.queues().map((q) => new BullMQAdapter(q)),
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'media-organizer' } },
  });
  return adapter.registerPlugin() as unknown as Hono;
}
