import { createRoute, z } from '@hono/zod-openapi';
import type { JobClient, RuntimeConfig } from '@mo/core';
import {
  jobAcceptedResponse,
  libraryScanResponse,
  PASS_ENTRIES_MAX,
  PASS_FILES_KEPT,
  PASS_LIST_DEFAULT,
  PASS_LIST_MAX,
  scanPassesResponse,
  scanResponse,
} from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { runJob } from '../http/jobs.ts';
import { errors, JOB_ERRORS, json, limitValue, router, waitQuery } from '../openapi/route.ts';

/** The job client with a finished pass's result read back from its pass file: Redis keeps only the summary. */
function withFullPasses(jobs: JobClient, config: RuntimeConfig): JobClient {
  return {
    ...jobs,
    async submit(name, payload, opts) {
      const outcome = await jobs.submit(name, payload, opts);
      if (name !== 'scan-pass' || outcome.kind !== 'completed') return outcome;
      return { ...outcome, result: await config.data.passes().full(outcome.job.id, outcome.result) };
    },
  };
}

const scan = createRoute({
  method: 'post',
  path: '/scan',
  operationId: 'postScan',
  summary: 'Run one scanner pass',
  tags: ['scanner'],
  description: 'With dry_run on, only records plans. Joins a pass that is already waiting or running.',
  request: { query: waitQuery },
  responses: { 200: json(scanResponse), 202: json(jobAcceptedResponse, 'Accepted: the job runs on; follow status_url'), ...errors(JOB_ERRORS) },
});

const listPasses = createRoute({
  method: 'get',
  path: '/scan/passes',
  operationId: 'getScanPasses',
  summary: 'The last scanner passes with their plans, moves and skipped files',
  tags: ['scanner'],
  description:
    `Newest first, from the pass files under <paths.data>/passes (the newest ${PASS_FILES_KEPT} are kept; Redis is not needed). ` +
    `Each list holds at most ${PASS_ENTRIES_MAX} entries; \`truncated\` says how many each left out, \`counts\` are of the whole pass.`,
  request: { query: z.object({ limit: limitValue(PASS_LIST_MAX, PASS_LIST_DEFAULT, 'How many passes at most') }) },
  responses: { 200: json(scanPassesResponse), ...errors({ 400: `limit is not a whole number from 1 to ${PASS_LIST_MAX}` }) },
});

const libraryScan = createRoute({
  method: 'post',
  path: '/library/scan',
  operationId: 'postLibraryScan',
  summary: 'Refresh the cached library index',
  tags: ['library'],
  request: { query: waitQuery },
  responses: { 200: json(libraryScanResponse), 202: json(jobAcceptedResponse, 'Accepted: the job runs on; follow status_url'), ...errors(JOB_ERRORS) },
});

export function scanRoutes({ config, jobs, library }: AppDeps) {
  const passes = withFullPasses(jobs, config);
  return (
    router()
      .openapi(scan, (c) => runJob(c, passes, 'scan-pass', { trigger: 'api' }, { wait: c.req.valid('query').wait }))
      // From the pass files alone: it answers while Redis is down, and for passes Redis no longer keeps.
      .openapi(listPasses, async (c) => c.json({ passes: await config.data.passes().recent(c.req.valid('query').limit) }, 200))
      .openapi(libraryScan, (c) =>
        // A client that waited for the scan reads the new index in its very next request.
        runJob(c, jobs, 'library-scan', { trigger: 'api' }, { wait: c.req.valid('query').wait, onCompleted: () => library.refresh() }),
      )
  );
}
