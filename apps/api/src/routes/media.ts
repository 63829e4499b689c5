import { Hono } from 'hono';
import { validationError } from '@mo/core';
import { trackActionSchema } from '@mo/shared';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { jsonBody } from '../http/body.ts';
import { runJob } from '../http/jobs.ts';

export function mediaRoutes({ jobs }: AppDeps) {
  return new Hono<AppEnv>().post('/media/tracks', async (c) => {
    const parsed = trackActionSchema.safeParse(await jsonBody(c));
    if (!parsed.success) throw validationError(parsed.error);
    return runJob(c, jobs, 'media-tracks', parsed.data);
  });
}
