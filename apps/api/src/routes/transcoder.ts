import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { runJob } from '../http/jobs.ts';

export function transcoderRoutes({ jobs }: AppDeps) {
  return new Hono<AppEnv>().post('/tools/transcoder/run-next', (c) => runJob(c, jobs, 'transcode-run', { path: null }));
}
