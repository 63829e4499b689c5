import { Hono } from 'hono';
import type { AppDeps } from '../http/env.ts';

export const QUEUE_DASHBOARD_PATH = '/api/admin/queues';

async function buildDashboard({ jobs, urlBase = '' }: AppDeps): Promise<Hono> {
  const [{ createBullBoard }, { BullMQAdapter }, { HonoAdapter }, { serveStatic }] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/hono'),
    import('@hono/node-server/serve-static'),
  ]);
  const adapter = new HonoAdapter(serveStatic);
  // The page's links and asset paths, as the browser sees them behind the proxy.
  adapter.setBasePath(urlBase + QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: jobs.queues().map((q) => new BullMQAdapter(q)),
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'media-organizer' } },
  });
  return adapter.registerPlugin() as unknown as Hono;
}

/**
 * Bull Board over the four queues, mounted under QUEUE_DASHBOARD_PATH (with the original request:
 * mount with `replaceRequest: false`) behind the same api_key middleware as every route. Bull Board
 * expects to see each path as the browser sent it, URL_BASE included, to find its static files.
 * Loaded on its first visit: it weighs ~15 MB of RSS that a service nobody opens the dashboard of
 * should not carry.
 */
export function queueDashboard(deps: AppDeps): (request: Request) => Promise<Response> {
  const urlBase = deps.urlBase ?? '';
  let board: Promise<Hono> | undefined;
  return async (request) => {
    board ??= buildDashboard(deps).then(
      (plugin) => new Hono().route(urlBase + QUEUE_DASHBOARD_PATH, plugin),
      (err: unknown) => {
        board = undefined;
        throw err;
      },
    );
    const app = await board;
    if (urlBase === '') return app.fetch(request);
    const url = new URL(request.url);
    url.pathname = urlBase + url.pathname;
    return app.fetch(new Request(url, request));
  };
}
