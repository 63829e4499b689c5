import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { runJob } from '../http/jobs.ts';

export function scanRoutes({ jobs, library }: AppDeps) {
  return new Hono<AppEnv>()
    .post('/scan', (c) => runJob(c, jobs, 'scan-pass', { trigger: 'api' }))
    .post('/library/scan', (c) =>
      // A client that waited for the scan reads the new index in its very next request.
      runJob(c, jobs, 'library-scan', { trigger: 'api' }, { onCompleted: () => library.refresh() }),
    );
}
