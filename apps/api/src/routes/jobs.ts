import { createRoute, z } from '@hono/zod-openapi';
import { AppError } from '@mo/core';
import { fullPassResult } from '@mo/core/scanner/pass-file.ts';
import { JOBS, jobViewResponse, QUEUE_NAMES } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { errors, json, router, segment } from '../openapi/route.ts';

const getJob = createRoute({
  method: 'get', path: '/jobs/{queue}/{id}', operationId: 'getJob', summary: 'A job and its result', tags: ['jobs'],
  request: {
    params: z.object({
      queue: z.string().meta({ description: 'Queue name', enum: [...QUEUE_NAMES] }),
      id: segment.meta({ description: 'Job id' }),
    }),
  },
  responses: {
    200: json(jobViewResponse),
    ...errors({ 404: 'no such queue or job (finished jobs are kept for a week)', 503: 'Redis or the queue cannot be reached' }),
  },
});

export function jobRoutes({ config, jobs }: AppDeps) {
  return router().openapi(getJob, async (c) => {
    const { queue, id } = c.req.valid('param');
    // An unknown queue is a missing resource (404), not a malformed request.
    if (!(QUEUE_NAMES as readonly string[]).includes(queue)) throw new AppError('not_found', `no queue named "${queue}"`);
    const job = await jobs.get(queue as (typeof QUEUE_NAMES)[number], id);
    if (!job) throw new AppError('not_found', `no job ${queue}/${id}`);
    // A finished pass keeps a summary in Redis; its status answers with the whole result.
    if (job.name === 'scan-pass' && queue === JOBS['scan-pass'].queue && job.result !== null) {
      return c.json({ ...job, result: await fullPassResult(config.current().paths.data, job.id, job.result) }, 200);
    }
    return c.json(job, 200);
  });
}
