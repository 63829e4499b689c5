import { createRoute, z } from '@hono/zod-openapi';
import { AppError } from '@mo/core';
import { isQueueName, JOB_LIST_DEFAULT, JOB_LIST_MAX, JOB_STATES, jobListResponse, JOBS, jobViewResponse, QUEUE_NAMES } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { choiceValue, errors, json, limitValue, router, segment } from '../openapi/route.ts';

const listJobs = createRoute({
  method: 'get',
  path: '/jobs',
  operationId: 'getJobs',
  summary: 'Recent jobs of every queue, newest first, without their results',
  tags: ['jobs'],
  description:
    'Newest first by when each job last changed (finished, else started, else added). A finished scanner pass carries its counts as `summary`; ' +
    'the whole result of any job is at GET /api/jobs/{queue}/{id}.',
  // Every parameter is checked before Redis is asked, so a bad one is a 400 even while it is down.
  request: {
    query: z.object({
      queue: choiceValue('queue', QUEUE_NAMES, 'Only this queue'),
      state: choiceValue('state', JOB_STATES, 'Only jobs in this state'),
      limit: limitValue(JOB_LIST_MAX, JOB_LIST_DEFAULT, 'How many jobs at most'),
    }),
  },
  responses: {
    200: json(jobListResponse),
    ...errors({
      400: `queue or state is not one of those listed, or limit is not a whole number from 1 to ${JOB_LIST_MAX}; details.key names it`,
      503: 'Redis or the queue cannot be reached',
    }),
  },
});

const getJob = createRoute({
  method: 'get',
  path: '/jobs/{queue}/{id}',
  operationId: 'getJob',
  summary: 'A job and its result',
  tags: ['jobs'],
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
  return router()
    .openapi(listJobs, async (c) => {
      const { queue, state, limit } = c.req.valid('query');
      return c.json({ jobs: await jobs.list({ queue: queue ?? undefined, state: state ?? undefined, limit }) }, 200);
    })
    .openapi(getJob, async (c) => {
      const { queue, id } = c.req.valid('param');
      // An unknown queue is a missing resource (404), not a malformed request.
      if (!isQueueName(queue)) throw new AppError('not_found', `no queue named "${queue}"`);
      const job = await jobs.get(queue, id);
      if (!job) throw new AppError('not_found', `no job ${queue}/${id}`);
      // A finished pass keeps a summary in Redis; its status answers with the whole result.
      if (job.name === 'scan-pass' && queue === JOBS['scan-pass'].queue && job.result !== null) {
        return c.json({ ...job, result: await config.data.passes().full(job.id, job.result) }, 200);
      }
      return c.json(job, 200);
    });
}
