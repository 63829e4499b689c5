import { createRoute, z } from '@hono/zod-openapi';
import {
  jobAcceptedResponse,
  libraryScanResponse,
  PASS_ENTRIES_MAX,
  PASS_FILES_KEPT,
  PASS_LIST_DEFAULT,
  PASS_LIST_MAX,
  scanPassesResponse,
  scanImportBody,
  scanResponse,
} from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { answerJob } from '../http/jobs.ts';
import { apiScanner } from '../http/scanner.ts';
import { body, choiceValue, errors, JOB_ERRORS, json, limitValue, router, waitQuery } from '../openapi/route.ts';

const scan = createRoute({
  method: 'post',
  path: '/scan',
  operationId: 'postScan',
  summary: 'Run one scanner pass',
  tags: ['scanner'],
  description:
    'With dry_run on (the config’s, or `?dry_run=true` whatever the config says) only records plans. Joins a pass that is already waiting or running; ' +
    'a `?dry_run=true` preview is a pass of its own, joining none.',
  request: {
    query: waitQuery.extend({
      dry_run: choiceValue('dry_run', ['true', 'false'] as const, 'true: a preview, whatever app.dry_run says; false or absent: app.dry_run decides'),
    }),
  },
  responses: { 200: json(scanResponse), 202: json(jobAcceptedResponse, 'Accepted: the job runs on; follow status_url'), ...errors(JOB_ERRORS) },
});

const importSources = createRoute({
  method: 'post',
  path: '/scan/import',
  operationId: 'postScanImport',
  summary: 'Run a pass over the downloads a preview planned, and no others',
  tags: ['scanner'],
  description:
    'A pass of its own (joining none) that plans and carries out only the named downloads: a file that arrived after the preview is left alone, ' +
    'and one that changed is planned anew (or skipped). With dry_run on it only records plans, as any pass.',
  request: { query: waitQuery, body: body(scanImportBody) },
  responses: {
    200: json(scanResponse),
    202: json(jobAcceptedResponse, 'Accepted: the job runs on; follow status_url'),
    ...errors({ ...JOB_ERRORS, 400: 'a bad body: details.key names the source that is not an absolute path inside the downloads folder' }),
  },
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
    .openapi(scan, async (c) => {
      const { wait, dry_run } = c.req.valid('query');
      return answerJob(c, await scanner.pass(wait, { dryRun: dry_run === 'true' }));
    })
    .openapi(importSources, async (c) => answerJob(c, await scanner.pass(c.req.valid('query').wait, { sources: c.req.valid('json').sources })))
    .openapi(listPasses, async (c) => c.json({ passes: await scanner.recentPasses(c.req.valid('query').limit) }, 200))
    .openapi(libraryScan, async (c) => answerJob(c, await scanner.libraryScan(c.req.valid('query').wait)));
}
