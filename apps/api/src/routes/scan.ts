import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { runJob } from '../http/jobs.ts';

export function scanRoutes({ jobs }: AppDeps) {
  return new Hono<AppEnv>()
    .post('/scan', (c) => runJob(c, jobs, 'scan-pass', { trigger: 'api' }))
    .post('/library/scan', (c) => runJob(c, jobs, 'library-scan', { trigger: 'api' }));
}
