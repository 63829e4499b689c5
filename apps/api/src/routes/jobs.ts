import { Hono } from 'hono';
import { AppError } from '@mo/core';
import { fullPassResult } from '@mo/core/scanner/pass-file.ts';
import { isQueueName, JOBS } from '@mo/shared';
import type { AppDeps, AppEnv } from '../http/env.ts';

export function jobRoutes({ config, jobs }: AppDeps) {
  return new Hono<AppEnv>().get('/jobs/:queue/:id', async (c) => {
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
