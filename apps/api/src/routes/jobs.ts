import { Hono } from 'hono';
import { AppError } from '@mo/core';
import { fullPassResult } from '@mo/core/scanner/pass-file.ts';
import { isQueueName, JOB_LIST_DEFAULT, JOB_LIST_MAX, JOB_STATES, JOBS, QUEUE_NAMES } from '@mo/shared';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { choiceParam, limitParam } from '../http/query.ts';

export function jobRoutes({ config, jobs }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/jobs', async (c) => {
      // Every parameter is checked before Redis is asked, so a bad one is a 400 even while it is down.
      const queue = choiceParam('queue', c.req.query('queue'), QUEUE_NAMES);
      const state = choiceParam('state', c.req.query('state'), JOB_STATES);
      const limit = limitParam('limit', c.req.query('limit'), JOB_LIST_DEFAULT, JOB_LIST_MAX);
      return c.json({ jobs: await jobs.list({ queue: queue ?? undefined, state: state ?? undefined, limit }) });
    })
    .get('/jobs/:queue/:id', async (c) => {
      const { queue, id } = c.req.param();
      if (!isQueueName(queue)) throw new AppError('not_found', `no queue named "${queue}"`);
      const job = await jobs.get(queue, id);
      if (!job) throw new AppError('not_found', `no job ${queue}/${id}`);
      // A finished pass keeps a summary in Redis; its status answers with the whole result.
      if (job.name === 'scan-pass' && queue === JOBS['scan-pass'].queue && job.result !== null) {
        return c.json({ ...job, result: await fullPassResult(config.current().paths.data, job.id, job.result) });
      }
      return c.json(job);
    });
}
