import { createRoute, z } from '@hono/zod-openapi';
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
import { answerJob } from '../http/jobs.ts';
import { apiScanner } from '../http/scanner.ts';
import { errors, JOB_ERRORS, json, limitValue, router, waitQuery } from '../openapi/route.ts';

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

export function scanRoutes(deps: AppDeps) {
  const scanner = apiScanner(deps);
  return router()
    .openapi(scan, async (c) => answerJob(c, await scanner.pass(c.req.valid('query').wait)))
    .openapi(listPasses, async (c) => c.json({ passes: await scanner.recentPasses(c.req.valid('query').limit) }, 200))
    .openapi(libraryScan, async (c) => answerJob(c, await scanner.libraryScan(c.req.valid('query').wait)));
}
