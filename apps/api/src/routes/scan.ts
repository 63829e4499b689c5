import { createRoute } from '@hono/zod-openapi';
import type { JobClient, RuntimeConfig } from '@mo/core';
import { fullPassResult } from '@mo/core/scanner/pass-file.ts';
import { jobAcceptedResponse, libraryScanResponse, scanResponse } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { runJob } from '../http/jobs.ts';
import { errors, JOB_ERRORS, json, router, waitQuery } from '../openapi/route.ts';

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

const scan = createRoute({
  method: 'post', path: '/scan', operationId: 'postScan', summary: 'Run one scanner pass', tags: ['scanner'],
  description: 'With dry_run on, only records plans. Joins a pass that is already waiting or running.',
  request: { query: waitQuery },
  responses: { 200: json(scanResponse), 202: json(jobAcceptedResponse, 'Accepted: the job runs on; follow status_url'), ...errors(JOB_ERRORS) },
});

const libraryScan = createRoute({
  method: 'post', path: '/library/scan', operationId: 'postLibraryScan', summary: 'Refresh the cached library index', tags: ['library'],
  request: { query: waitQuery },
  responses: { 200: json(libraryScanResponse), 202: json(jobAcceptedResponse, 'Accepted: the job runs on; follow status_url'), ...errors(JOB_ERRORS) },
});

export function scanRoutes({ config, jobs, library }: AppDeps) {
  const passes = withFullPasses(jobs, config);
  return router()
    .openapi(scan, (c) => runJob(c, passes, 'scan-pass', { trigger: 'api' }, { wait: c.req.valid('query').wait }))
    .openapi(libraryScan, (c) =>
      // A client that waited for the scan reads the new index in its very next request.
      runJob(c, jobs, 'library-scan', { trigger: 'api' }, { wait: c.req.valid('query').wait, onCompleted: () => library.refresh() }),
    );
}
