import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../http/env.ts';

export function workerRoutes({ jobs }: AppDeps) {
  return new Hono<AppEnv>().get('/workers', async (c) => c.json(await jobs.workers()));
}
