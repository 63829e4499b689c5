import { createRoute } from '@hono/zod-openapi';
import { AppError } from '@mo/core';
import { NOTIFY_TIMEOUT_MS, NotifyError, testTarget } from '@mo/core/notify';
import { notificationTestBody, notificationTestResponse } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { body, errors, json, router } from '../openapi/route.ts';

const testRoute = createRoute({
  method: 'post',
  path: '/notifications/test',
  operationId: 'postNotificationTest',
  summary: 'Send a test message to one notification target',
  tags: ['settings'],
  description:
    'Sent from the API at once, to the target as saved (a disabled one too), waiting at most 10 s for its answer. Discord, ntfy, Gotify and ' +
    'Apprise get a test message; Jellyfin and Emby are asked GET /System/Info, Plex GET /library/sections, Kodi JSONRPC.Ping (each needs the ' +
    'key, and none scans anything); a webhook gets `{"event": "test", "target": <name>}`. A redirect is not followed and counts as a failure.',
  request: { body: body(notificationTestBody) },
  responses: {
    200: json(notificationTestResponse, 'The target answered 2xx (Kodi: "pong")'),
    ...errors({
      400: 'a bad body (details.key names the key)',
      404: 'no target of that name',
      502: "the target answered something else, or nothing within 10 s: the message names the request, the status and a short excerpt of the answer (the target's secrets masked)",
    }),
  },
});

export function notificationRoutes({ config, logger, notifyTimeoutMs = NOTIFY_TIMEOUT_MS }: AppDeps) {
  return router().openapi(testRoute, async (c) => {
    const { name } = c.req.valid('json');
    const target = config.current().notifications.targets.find((t) => t.name === name);
    if (!target) throw new AppError('not_found', `no notification target named "${name}" is saved`, { key: 'name' });
    try {
      await testTarget(target, notifyTimeoutMs);
    } catch (err) {
      if (!(err instanceof NotifyError)) throw err;
      logger.warn({ target: target.name, kind: target.kind, err: err.message }, 'notification test failed');
      throw new AppError('bad_gateway', `${target.name}: ${err.message}`);
    }
    logger.info({ target: target.name, kind: target.kind }, 'notification test answered');
    return c.json({ ok: true as const }, 200);
  });
}
