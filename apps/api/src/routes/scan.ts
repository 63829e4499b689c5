import { Hono } from 'hono';
import type { JobClient, RuntimeConfig } from '@mo/core';
import { fullPassResult } from '@mo/core/scanner/pass-file.ts';
import { readRecentPasses } from '@mo/core/scanner/pass-list.ts';
import { PASS_LIST_DEFAULT, PASS_LIST_MAX } from '@mo/shared';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { runJob } from '../http/jobs.ts';
import { limitParam } from '../http/query.ts';

/** The job client with a finished pass's result read back from its pass file: Redis keeps only the summary. */
function withFullPasses(jobs: JobClient, config: RuntimeConfig): JobClient {
  return {
    ...jobs,
    async submit(name, payload, opts) {
      const outcome = await jobs.submit(name, payload, opts);
      if (name !== 'scan-pass' || outcome.kind !== 'completed') return outcome;
      return { ...outcome, result: await fullPassResult(config.current().paths.data, outcome.job.id, outcome.result) };
    },
  };
}

export function scanRoutes({ config, jobs, library }: AppDeps) {
  const passes = withFullPasses(jobs, config);
  return new Hono<AppEnv>()
    .post('/scan', (c) => runJob(c, passes, 'scan-pass', { trigger: 'api' }))
    // From the pass files alone: it answers while Redis is down, and for passes Redis no longer keeps.
    .get('/scan/passes', async (c) => {
      const limit = limitParam('limit', c.req.query('limit'), PASS_LIST_DEFAULT, PASS_LIST_MAX);
      return c.json({ passes: await readRecentPasses(config.current().paths.data, limit) });
    })
    .post('/library/scan', (c) =>
      // A client that waited for the scan reads the new index in its very next request.
      runJob(c, jobs, 'library-scan', { trigger: 'api' }, { onCompleted: () => library.refresh() }),
    );
}
