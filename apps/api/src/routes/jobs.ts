import { Hono } from 'hono';
import { AppError } from '@mo/core';
import { isQueueName } from '@mo/shared';
import type { AppDeps, AppEnv } from '../http/env.ts';

export function jobRoutes({ jobs }: AppDeps) {
  return new Hono<AppEnv>().get('/jobs/:queue/:id', async (c) => {
    const { queue, id } = c.req.param();
    if (!isQueueName(queue)) throw new AppError('not_found', `no queue named "${queue}"`);
    const job = await jobs.get(queue, id);
    if (!job) throw new AppError('not_found', `no job ${queue}/${id}`);
    return c.json(job);
  });
}
