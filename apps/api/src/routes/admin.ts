import type { Hono } from 'hono';
import type { AppDeps } from '../http/env.ts';

export const QUEUE_DASHBOARD_PATH = '/api/admin/queues';

async function buildDashboard({ jobs }: AppDeps): Promise<Hono> {
  const [{ createBullBoard }, { BullMQAdapter }, { HonoAdapter }, { serveStatic }] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/hono'),
    import('@hono/node-server/serve-static'),
  ]);
  const adapter = new HonoAdapter(serveStatic);
  adapter.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: jobs.queues().map((q) => new BullMQAdapter(q)),
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'media-organizer' } },
  });
  return adapter.registerPlugin() as unknown as Hono;
}

/**
 * Bull Board over the four queues, mounted under QUEUE_DASHBOARD_PATH behind the same api_key
 * middleware as every route. Loaded on its first visit: it weighs ~15 MB of RSS that a service
 * nobody opens the dashboard of should not carry.
 */
export function queueDashboard(deps: AppDeps): (request: Request) => Promise<Response> {
  let board: Promise<Hono> | undefined;
  return async (request) => {
    board ??= buildDashboard(deps).catch((err) => {
      board = undefined;
      throw err;
    });
    return (await board).fetch(request);
  };
}
