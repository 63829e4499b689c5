import { createRoute, z } from '@hono/zod-openapi';
import { AppError, withDeadline, type JobClient, type Logger } from '@mo/core';
import { HISTORY_PAGE_DEFAULT, HISTORY_PAGE_MAX } from '@mo/core/history';
import { undoService } from '@mo/core/scanner';
import { historyResponse, undoResponse, type JobPayload } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { errors, json, limitValue, queryValue, router, segment } from '../openapi/route.ts';

/** `?before=`: an import id, a whole number from 1; absent or empty, none. */
function beforeParam(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return null;
  const n = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1)) throw new AppError('bad_request', 'before: must be an import id (a whole number from 1)', { key: 'before' });
  return n;
}

/** `?source=`, `?destination=`: an absolute path, matched exactly; absent or empty, none. */
function pathParam(key: string) {
  return (raw: string | undefined): string | null => {
    if (raw === undefined || raw === '') return null;
    if (!raw.startsWith('/') || raw.includes('\0')) throw new AppError('bad_request', `${key}: must be an absolute path`, { key });
    return raw;
  };
}

const listHistory = createRoute({
  method: 'get',
  path: '/history',
  operationId: 'getHistory',
  summary: 'The import history, newest first, page by page',
  tags: ['scanner'],
  description:
    'Every file a scanner pass put into the library (any transfer mode), and every rename of POST /api/library/organize (mode `rename`: ' +
    '`source` the old path, `destination` the new one, `pass` the job), with its sidecars and whether it was undone. ' +
    "Page on with `before` set to the answer's `next`.",
  request: {
    query: z.object({
      limit: limitValue(HISTORY_PAGE_MAX, HISTORY_PAGE_DEFAULT, 'How many imports at most'),
      before: queryValue(beforeParam, { type: 'integer', minimum: 1, description: 'Only imports older than this id (the `next` of the page before)' }),
      source: queryValue(pathParam('source'), { type: 'string', description: "Only imports of this download (the video's or a sidecar's absolute path)" }),
      destination: queryValue(pathParam('destination'), { type: 'string', description: "Only imports to this library path (the video's or a sidecar's)" }),
    }),
  },
  responses: {
    200: json(historyResponse),
    ...errors({
      400: `limit is not a whole number from 1 to ${HISTORY_PAGE_MAX}, before is not an id, or source or destination is not an absolute path; details.key names it`,
    }),
  },
});

const undo = createRoute({
  method: 'post',
  path: '/history/{id}/undo',
  operationId: 'postHistoryUndo',
  summary: 'Take one import back',
  tags: ['scanner'],
  description:
    'A moved file goes back to its download path; a hardlink or copy is removed (the download stays); sidecars too; folders the import ' +
    'made are removed when empty. All or nothing: refused with 409, changing nothing, when a library file changed since (size, mtime, ' +
    'identity), a download path is taken, the download a link or copy came from is gone (removing it would lose the last copy), the import ' +
    'was undone already, or a scanner pass is running. A rename (mode `rename`, POST /api/library/organize) goes back to its old name, ' +
    'sidecars too, refused with 409 when a renamed file changed since or an old name is taken; a library scan is queued after it so that ' +
    'the index follows. With dry_run on it only says what it would do. Recorded in the history as `undone_at`. ' +
    "Once files are back, a notify job tells the enabled media servers they are gone (its outcome shows as the record's `notified`); " +
    'queueing it never fails the undo.',
  request: { params: z.object({ id: segment.meta({ description: 'Import id (GET /api/history)' }) }) },
  responses: {
    200: json(undoResponse),
    ...errors({
      400: 'id is not a whole number; details.key names it',
      404: 'no import with this id in the history',
      409: 'a library file changed, a download path is taken, the download is gone, already undone, or a scanner pass is running; details.reason and details.path say which',
    }),
  },
});

const NOTICE_DEADLINE_MS = 5000;

/** Queues the undo's notice to the media servers; never throws: the files are back whatever happens here. */
async function queueNotice(jobs: JobClient, log: Logger, payload: JobPayload<'notify'>): Promise<void> {
  try {
    const { job } = await withDeadline(jobs.submit('notify', payload, { waitSeconds: 0 }), NOTICE_DEADLINE_MS, () => new Error('Redis did not answer'));
    log.info({ job_id: job.id, import: payload.undone, files: payload.imports.length }, 'media servers to be told of the undo');
  } catch (err) {
    log.warn({ import: payload.undone, err: (err as Error).message }, 'could not queue the media server notice of the undo');
  }
}

/** Queues a library scan after a rename was taken back (the index holds the new names until then); never throws. */
async function queueRescan(jobs: JobClient, log: Logger): Promise<void> {
  try {
    const { job } = await withDeadline(
      jobs.submit('library-scan', { trigger: 'api' }, { waitSeconds: 0 }),
      NOTICE_DEADLINE_MS,
      () => new Error('Redis did not answer'),
    );
    log.info({ job_id: job.id }, 'library scan queued: a rename was taken back');
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'could not queue the library scan after a rename was taken back');
  }
}

export function historyRoutes({ config, jobs, owner }: AppDeps) {
  const history = undoService({
    config: () => config.current(),
    data: () => config.data,
    ...(owner ? { owner } : {}),
    notify: (payload, log) => queueNotice(jobs, log, payload),
    rescan: (log) => queueRescan(jobs, log),
  });
  return router()
    .openapi(listHistory, async (c) => c.json(await history.list(c.req.valid('query')), 200))
    .openapi(undo, async (c) => {
      const raw = c.req.valid('param').id;
      if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new AppError('bad_request', 'id: must be an import id (a whole number from 1)', { key: 'id' });
      return c.json(await history.undo(Number(raw), c.var.log), 200);
    });
}
