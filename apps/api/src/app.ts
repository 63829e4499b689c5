import { requestId } from 'hono/request-id';
import type { Context } from 'hono';
import type { AppDeps } from './http/env.ts';
import { authGuard, hostGuard, refuseCrossSite, resolveClients } from './http/auth.ts';
import { createFailureLimiter } from '@mo/core';
import { errorResponse, onError } from './http/errors.ts';
import { drainUnreadBody, requireJsonBody } from './http/body.ts';
import { healthRoutes } from './routes/health.ts';
import { authRoutes } from './routes/auth.ts';
import { setupPage } from './routes/setup-page.ts';
import { configRoutes } from './routes/config.ts';
import { themeRoutes } from './routes/theme.ts';
import { jobRoutes } from './routes/jobs.ts';
import { scanRoutes } from './routes/scan.ts';
import { mediaRoutes } from './routes/media.ts';
import { toolRoutes } from './routes/tools.ts';
import { libraryRoutes } from './routes/library.ts';
import { libraryOrganizeRoutes } from './routes/library-organize.ts';
import { dashboardRoutes } from './routes/dashboard.ts';
import { recycleRoutes } from './routes/recycle.ts';
import { releasesRoutes } from './routes/releases.ts';
import { downloadsRoutes } from './routes/downloads.ts';
import { historyRoutes } from './routes/history.ts';
import { importRoutes } from './routes/imports.ts';
import { transcoderRoutes } from './routes/transcoder.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { openApiRoutes } from './routes/openapi.ts';
import { eventRoutes } from './routes/events.ts';
import { systemHealthRoutes } from './routes/system-health.ts';
import { workerRoutes } from './routes/workers.ts';
import { notificationRoutes } from './routes/notifications.ts';
import { QUEUE_DASHBOARD_PATH, queueDashboard, queueDashboardRoute } from './routes/admin.ts';
import { createMetrics } from './http/metrics.ts';
import { methodNotAllowed } from './http/method-not-allowed.ts';
import { limitBody, tooLarge } from './http/body-limit.ts';
import { frameAncestors } from './http/frame-ancestors.ts';
import { webIndex, webUi } from './routes/web.ts';
import { router } from './openapi/route.ts';
import { openApiDocument } from './openapi/document.ts';

export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * An organize apply names up to 100,000 paths (the page sends every ticked one): about 8 MB. Only
 * this route takes that much, and only once the caller is known, so no stranger can make the API
 * hold more than MAX_BODY_BYTES.
 */
export const MAX_ORGANIZE_BODY_BYTES = 16 * 1024 * 1024;
const ORGANIZE_APPLY = '/api/library/organize';
/** Wrong keys, passwords or set-up tokens one client address may send per minute. */
export const MAX_AUTH_FAILURES_PER_MINUTE = 10;

export function createApp(deps: AppDeps) {
  const app = router();
  const metrics = createMetrics(deps);
  const limiter = createFailureLimiter({ limit: MAX_AUTH_FAILURES_PER_MINUTE, windowMs: 60_000 });
  app.use('*', requestId({ limitLength: 128 }));
  app.use('*', resolveClients(deps.config));
  app.use('*', frameAncestors(deps.config));
  app.use('/api/*', metrics.middleware);
  app.use('*', async (c, next) => {
    const log = deps.logger.child({ req_id: c.get('requestId') });
    c.set('log', log);
    const started = performance.now();
    await next();
    log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) }, 'request');
  });
  app.use('*', hostGuard(deps.config));
  app.use('/api/*', drainUnreadBody);
  const small = limitBody(MAX_BODY_BYTES);
  const isOrganizeApply = (c: Context) => c.req.method === 'POST' && c.req.path === ORGANIZE_APPLY;
  // Before the caller is known, an organize apply declaring more than it may ever send is refused
  // unread; one whose size is not declared is never drained past the refusal (drainUnreadBody).
  const declaredOver = (c: Context) => Number(c.req.header('content-length') ?? 0) > MAX_ORGANIZE_BODY_BYTES;
  app.use('/api/*', async (c, next) => {
    if (!isOrganizeApply(c)) return small(c, next);
    if (declaredOver(c)) return tooLarge(c, MAX_ORGANIZE_BODY_BYTES, false);
    await next();
  });
  app.use('/api/*', refuseCrossSite);
  app.use('/api/*', authGuard({ config: deps.config, auth: deps.auth, limiter, urlBase: deps.urlBase }));
  app.use(ORGANIZE_APPLY, limitBody(MAX_ORGANIZE_BODY_BYTES, MAX_ORGANIZE_BODY_BYTES));
  app.use('/api/*', requireJsonBody);

  const api = router()
    .route('/', healthRoutes(deps))
    .route('/', authRoutes({ ...deps, limiter }))
    .route('/', configRoutes(deps))
    .route('/', themeRoutes(deps))
    .route('/', jobRoutes(deps))
    .route('/', scanRoutes(deps))
    .route('/', mediaRoutes(deps))
    .route('/', toolRoutes(deps))
    .route('/', libraryOrganizeRoutes(deps))
    .route('/', libraryRoutes(deps))
    .route('/', dashboardRoutes(deps))
    .route('/', recycleRoutes(deps))
    .route('/', releasesRoutes(deps))
    .route('/', downloadsRoutes(deps))
    .route('/', historyRoutes(deps))
    .route('/', importRoutes(deps))
    .route('/', transcoderRoutes(deps))
    .route('/', eventRoutes(deps))
    .route('/', workerRoutes(deps))
    .route('/', systemHealthRoutes(deps))
    .route('/', notificationRoutes(deps))
    .route('/', metricsRoutes(metrics))
    .route(
      '/',
      openApiRoutes(() => openApiDocument(app, deps.urlBase)),
    );
  app.route('/api', api);
  app.route('/', setupPage(webIndex(deps.webRoot ?? null, deps.urlBase)));
  app.mount(QUEUE_DASHBOARD_PATH, queueDashboard(deps), { replaceRequest: false });
  app.openAPIRegistry.registerPath(queueDashboardRoute);
  app.use('*', webUi({ root: deps.webRoot ?? null, urlBase: deps.urlBase }));

  const wrongMethod = methodNotAllowed(() => app.routes);
  app.notFound((c) => wrongMethod(c) ?? errorResponse(c, 'not_found', `no route ${c.req.method} ${c.req.path}`));
  app.onError(onError);
  return app;
}

export type App = ReturnType<typeof createApp>;
