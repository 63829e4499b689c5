import { createRoute } from '@hono/zod-openapi';
import { workersResponse } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { errors, json, router } from '../openapi/route.ts';

const getWorkers = createRoute({
  method: 'get',
  path: '/workers',
  operationId: 'getWorkers',
  summary: 'Worker processes, and the live workers of each queue',
  tags: ['jobs'],
  description:
    'Each worker renews its record in Redis every 10 s. `alive` turns false once a heartbeat is three beats late, and the record goes by itself ' +
    '5 minutes after the last one; a worker stopped with SIGTERM leaves the list at once. `queues` names every queue: 0 workers means its jobs ' +
    'wait until a worker for it starts. `encoders`: the video encoders (transcoder.video_encoder, then libx264) a one-second test encode ' +
    'succeeded with when the worker started; `encoder_errors` says why the others failed.',
  responses: { 200: json(workersResponse), ...errors({ 503: 'Redis cannot be reached' }) },
});

export function workerRoutes({ jobs }: AppDeps) {
  return router().openapi(getWorkers, async (c) => c.json(await jobs.workers(), 200));
}
