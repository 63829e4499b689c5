import { createRoute } from '@hono/zod-openapi';
import { Hono } from 'hono';
import type { AppDeps } from '../http/env.ts';
import { other } from '../openapi/route.ts';
import { errorBody } from '../http/errors.ts';

export const QUEUE_DASHBOARD_PATH = '/api/admin/queues';

/** Bull Board's bulk retry and clean act on finished jobs only: these two of its statuses. */
const FINISHED = '(?:completed|failed)';
/**
 * The board's writes that stay, as paths inside the board (Bull Board 9's API routes): retrying and
 * cleaning finished jobs in bulk, and retrying or cleaning one job. Everything else that writes
 * (add, promote, edit data, delay, priority, pause, resume, empty, obliterate, concurrency, rate
 * limits, job schedulers) is refused: a job made there skips the API's checks.
 */
const ALLOWED_WRITES = [
  new RegExp(`^/api/queues/[A-Za-z0-9_-]+/(?:retry|clean)/${FINISHED}$`),
  /^\/api\/queues\/[A-Za-z0-9_-]+\/[A-Za-z0-9:_-]+\/(?:retry|clean)$/,
];

/**
 * Whether the board may serve a request, by method and its path inside the board. Reads all pass;
 * a write passes only when its raw path is one of ALLOWED_WRITES, so that no encoding or extra
 * slash can make the router see another route than the one checked.
 */
export function boardRequestAllowed(method: string, path: string): boolean {
  if (method === 'GET' || method === 'HEAD') return true;
  return method === 'PUT' && ALLOWED_WRITES.some((r) => r.test(path));
}

function refused(method: string, path: string): Response {
  const body = errorBody('forbidden', `the queue dashboard is read-only: ${method} ${path} is refused (retrying and cleaning finished jobs are allowed)`);
  return new Response(JSON.stringify(body), { status: 403, headers: { 'content-type': 'application/json; charset=UTF-8' } });
}

/**
 * Bull Board's page links IBM Plex from Google Fonts; served without it, the page falls back to
 * the system fonts its CSS names next, and loads nothing from another host.
 */
export function withoutRemoteAssets(html: string): string {
  return html.replace(/<link\b[^>]*>/gi, (tag) => (/\bhref\s*=\s*["']?(?:https?:)?\/\//i.test(tag) ? '' : tag));
}

async function servedPage(res: Response): Promise<Response> {
  if (!res.headers.get('content-type')?.startsWith('text/html')) return res;
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  // Whatever a later version of the page links, the browser fetches fonts from this host only.
  headers.set('content-security-policy', "font-src 'self' data:");
  return new Response(withoutRemoteAssets(await res.text()), { status: res.status, statusText: res.statusText, headers });
}

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

/** Bull Board is mounted as a whole (its page, assets and XHR endpoints) and documented as its page. */
export const queueDashboardRoute = createRoute({
  method: 'get',
  path: QUEUE_DASHBOARD_PATH,
  operationId: 'getQueueDashboard',
  summary: 'Queue dashboard (Bull Board)',
  tags: ['operations'],
  description: 'Open once with ?api_key= when a key is set; the page then keeps it as a cookie.',
  responses: { 200: other('text/html', 'HTML page') },
});

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
    const inside = new URL(request.url).pathname.slice(QUEUE_DASHBOARD_PATH.length);
    if (!boardRequestAllowed(request.method, inside)) return refused(request.method, inside);
    board ??= buildDashboard(deps).then(
      (plugin) => new Hono().route(urlBase + QUEUE_DASHBOARD_PATH, plugin),
      (err: unknown) => {
        board = undefined;
        throw err;
      },
    );
    const app = await board;
    if (urlBase === '') return servedPage(await app.fetch(request));
    const url = new URL(request.url);
    url.pathname = urlBase + url.pathname;
    return servedPage(await app.fetch(new Request(url, request)));
  };
}
