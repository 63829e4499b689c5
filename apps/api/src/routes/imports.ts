import { createRoute } from '@hono/zod-openapi';
import { jobAcceptedResponse, aliasesResponse, aliasRemoveBody, manualImportAnswer, manualImportBody, pendingImportsResponse } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { answerJob } from '../http/jobs.ts';
import { apiScanner } from '../http/scanner.ts';
import { body, choiceValue, errors, JOB_ERRORS, json, router, waitQuery } from '../openapi/route.ts';

const pending = createRoute({
  method: 'get',
  path: '/imports/pending',
  operationId: 'getPendingImports',
  summary: 'Downloads waiting for the owner to say what they are',
  tags: ['scanner'],
  description:
    'The videos the last scanner pass skipped as unrecognized, ambiguous, exists or undone, each with the readings it weighed (`candidates`, best first). ' +
    'Sidecars go with their video and are not listed; a file gone or imported since is left out.',
  responses: { 200: json(pendingImportsResponse) },
});

const manual = createRoute({
  method: 'post',
  path: '/imports/manual',
  operationId: 'postManualImport',
  summary: 'Import a download as the owner says it is',
  tags: ['scanner'],
  description:
    "A video, or a folder of one season's videos (a season pack: `as.episodes` left out, each file's episodes read from its own name). " +
    "Sidecars go with their video, into the library's existing folder of that title, named by the templates, in the transfer mode of a pass; " +
    "recorded in the history and undone with POST /api/history/{id}/undo. With dry_run on (the config's, or `?dry_run=true` whatever the config says) " +
    "it answers the plan and changes nothing; off, a manual-import job on the scan queue. `remember` (episodes) saves the download's series name " +
    "as an alias of the folder it went into. `replace: true` is the owner's word that the download replaces the library's file of that movie or " +
    'episode (any container) and its sidecars, whatever their qualities: they go to the recycle bin first; the preview names it in `replaces`. ' +
    'A file holding episodes the download lacks, or a movie or episode several files hold, is never replaced (409).',
  request: {
    query: waitQuery.extend({
      dry_run: choiceValue('dry_run', ['true', 'false'] as const, 'true: only preview, whatever app.dry_run says; false or absent: app.dry_run decides'),
    }),
    body: body(manualImportBody),
  },
  responses: {
    200: json(manualImportAnswer, "The preview (dry run), or the import's result"),
    202: json(jobAcceptedResponse, 'Accepted: the job runs on; follow status_url'),
    ...errors({
      ...JOB_ERRORS,
      400: 'a bad body (details.key names the key, e.g. as.season), a path that is not a video or folder, remember on a movie, or a title that several library folders fit',
      403: 'the path lies outside the downloads folder once symlinks are followed',
      404: 'no such file or folder, or a folder without videos',
      409: 'nothing to import: the destination exists (without replace, or a held file replace cannot take), the download is still settling, imported already, or no drive has room; details.reason says which',
    }),
  },
});

const removeAlias = createRoute({
  method: 'post',
  path: '/imports/aliases/remove',
  operationId: 'postRemoveAlias',
  summary: 'Remove one alias',
  tags: ['scanner'],
  description:
    'Removes the alias of that name and series from `library.aliases`, under the settings lock: an alias a manual import remembered meanwhile ' +
    'stays (replacing the whole list through POST /api/settings could drop it).',
  request: { body: body(aliasRemoveBody) },
  responses: { 200: json(aliasesResponse, 'The aliases left'), ...errors({ 400: 'a bad body (details.key names the key)', 404: 'no such alias' }) },
});

export function importRoutes(deps: AppDeps) {
  const scanner = apiScanner(deps);
  return router()
    .openapi(pending, async (c) => c.json(await scanner.pendingImports(), 200))
    .openapi(manual, async (c) => {
      const { dry_run, wait } = c.req.valid('query');
      const answer = await scanner.manualImport(c.req.valid('json'), { dryRun: dry_run === 'true', wait, log: c.var.log });
      return answer.kind === 'preview' ? c.json(answer.preview, 200) : answerJob(c, answer);
    })
    .openapi(removeAlias, async (c) => c.json({ aliases: await scanner.removeAlias(c.req.valid('json')) }, 200));
}
