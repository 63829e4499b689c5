import { createRoute, z } from '@hono/zod-openapi';
import { accumulate, AppError } from '@mo/core';
import { probeFile } from '@mo/core/media';
import {
  listing,
  PAUSED,
  RUN_ALL_DRY_RUN_LIMIT,
  runtimeTranscodeRecords,
  transcodeQueueAccumulator,
  transcoderFiles,
  transcoderService,
  transcodeStore,
  type TranscoderService,
} from '@mo/core/tools';
import {
  discardOriginalBody,
  discardOriginalResponse,
  runAllStartedResponse,
  runNextStartedResponse,
  transcodeCancelAllResponse,
  transcodeCancelResponse,
  transcodePausedResponse,
  transcodePriorityBody,
  transcodePriorityResponse,
  transcoderResponse,
  transcodeRetryBody,
  transcodeRetryResponse,
} from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { statusUrl } from '../http/jobs.ts';
import { transcodeJobs } from '../http/transcode-jobs.ts';
import { cacheStreamedJson, sendJson, type CachedJson } from '../http/cached-json.ts';
import { body, errors, json, queryValue, router, segment, NOT_MODIFIED } from '../openapi/route.ts';
import { runAllAnswer, runNextAnswer } from '../openapi/schemas.ts';

const getTranscoder = createRoute({
  method: 'get',
  path: '/tools/transcoder',
  operationId: 'getTranscoder',
  summary: 'Transcode queue: indexed video that is not .mp4',
  tags: ['tools'],
  description: 'Each entry with its place in line, priority and, while running, progress; `paused` while the queue is paused.',
  responses: { ...NOT_MODIFIED, 200: json(transcoderResponse) },
});

const runNext = createRoute({
  method: 'post',
  path: '/tools/transcoder/run-next',
  operationId: 'postTranscoderRunNext',
  summary: 'Run the next queued transcode',
  tags: ['tools'],
  description: 'Dry run: 200 with the ffmpeg command and the streams MP4 would drop. Otherwise 202 with the job. Nothing queued: 200 {"item": null}.',
  responses: {
    200: json(runNextAnswer),
    202: json(runNextStartedResponse, 'Accepted: the job runs on; follow status_url'),
    ...errors({
      400: 'dry run: the next file is not a media file',
      403: 'dry run: the next file resolves outside the downloads folder and the drives',
      404: 'dry run: the next file has gone',
      409: PAUSED,
      503: 'Redis or the queue cannot be reached',
    }),
  },
});

const runAll = createRoute({
  method: 'post',
  path: '/tools/transcoder/run-all',
  operationId: 'postTranscoderRunAll',
  summary: 'Queue every queued transcode at once',
  tags: ['tools'],
  description: `One job per queued entry, in run order; the workers run as many at a time as their WORKER_CONCURRENCY allows. While the queue is paused the jobs are queued all the same and wait for resume (\`"paused": true\`). Dry run: the first ${RUN_ALL_DRY_RUN_LIMIT} entries with their commands, and \`total\`. \`?expect=<n>\`: the number of entries the client asked its user about; when another number waits, a 409 and nothing is queued.`,
  request: {
    query: z.object({ expect: queryValue(expectParam, { type: 'integer', minimum: 0, description: 'How many entries the user was told would be queued' }) }),
  },
  responses: {
    200: json(runAllAnswer, 'Dry run, or nothing was queued'),
    202: json(runAllStartedResponse, 'Accepted: the jobs run on, or wait for resume while paused'),
    ...errors({
      400: 'expect is not a whole number',
      409: 'expect: another number of entries waits to be queued now (details.waiting); nothing was queued',
      503: 'Redis or the queue cannot be reached; nothing was queued',
    }),
  },
});

/** `?expect=`: plain digits (Number() would also take "1e2" and " 5"); absent or empty, none. */
function expectParam(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,7}$/.test(raw)) throw new AppError('bad_request', 'expect: must be a whole number', { key: 'expect' });
  return Number(raw);
}

const cancelAll = createRoute({
  method: 'post',
  path: '/tools/transcoder/cancel-all',
  operationId: 'postTranscoderCancelAll',
  summary: 'Cancel every transcode job that has not started',
  tags: ['tools'],
  description: 'Each waiting job is removed from the queue and its entry goes back in line without a job (run-all queues it again); running transcodes go on.',
  responses: {
    200: json(transcodeCancelAllResponse, 'How many waiting jobs were cancelled'),
    ...errors({ 503: 'Redis or the queue cannot be reached; nothing was cancelled' }),
  },
});

const retry = createRoute({
  method: 'post',
  path: '/tools/transcoder/retry',
  operationId: 'postTranscoderRetry',
  summary: 'Queue a failed transcode again',
  tags: ['tools'],
  description: 'A failed entry goes back to `queued`, in its place by priority; a queued one stays queued.',
  request: { body: body(transcodeRetryBody) },
  responses: {
    200: json(transcodeRetryResponse),
    ...errors({
      400: 'the body is not {"path"}',
      404: 'the path is not in the transcode queue',
      409: 'the entry is running or done, or its failed job may still run again',
      503: 'Redis or the queue cannot be reached',
    }),
  },
});

const priority = createRoute({
  method: 'post',
  path: '/tools/transcoder/priority',
  operationId: 'postTranscoderPriority',
  summary: 'Give a queued entry a priority, or move it to the top',
  tags: ['tools'],
  description: 'Higher runs first; `top` puts the entry before every other one. A job already waiting for the entry moves too.',
  request: { body: body(transcodePriorityBody) },
  responses: {
    200: json(transcodePriorityResponse),
    ...errors({
      400: 'the body is not {"path", "priority"} or {"path", "top": true}, or the priority is out of range',
      404: 'the path is not in the transcode queue',
      409: 'the entry is running or done, or `top` while another entry holds the highest priority',
      503: 'Redis cannot be reached to move the waiting job; nothing changed',
    }),
  },
});

const pause = createRoute({
  method: 'post',
  path: '/tools/transcoder/pause',
  operationId: 'postTranscoderPause',
  summary: 'Pause the transcode queue',
  tags: ['tools'],
  description: 'Running transcodes finish; nothing new starts, also after a restart, until resumed.',
  responses: { 200: json(transcodePausedResponse) },
});

const resume = createRoute({
  method: 'post',
  path: '/tools/transcoder/resume',
  operationId: 'postTranscoderResume',
  summary: 'Resume the transcode queue',
  tags: ['tools'],
  responses: { 200: json(transcodePausedResponse), ...errors({ 503: 'Redis cannot be reached to lift the queue’s pause; it stays paused' }) },
});

const discardOriginal = createRoute({
  method: 'post',
  path: '/tools/transcoder/discard-original',
  operationId: 'postTranscoderDiscardOriginal',
  summary: 'Remove the original a transcode kept (keep_original)',
  tags: ['tools'],
  description:
    'Only once the MP4 still matches what the transcode verified (container, streams, duration). With `library.recycle_bin` on the original goes to its drive’s recycle bin (`recycled_to`), never away. Dry run: says what it would remove.',
  request: { body: body(discardOriginalBody) },
  responses: {
    200: json(discardOriginalResponse),
    ...errors({
      400: 'the body is not {"path"}',
      403: 'the original or the MP4 resolves outside the drives',
      404: 'the path is not in the transcode queue, or the MP4 has gone',
      409: 'the entry is not done, its original was not kept or is gone, the MP4 no longer matches, or `library.recycle_bin` is on and the bin cannot take the original (it stays)',
    }),
  },
});

const cancel = createRoute({
  method: 'post',
  path: '/jobs/transcode/{id}/cancel',
  operationId: 'postTranscodeCancel',
  summary: 'Cancel a transcode wherever it runs',
  tags: ['tools'],
  request: { params: z.object({ id: segment.meta({ description: 'Job id' }) }) },
  responses: {
    202: json(transcodeCancelResponse, 'Accepted: the job runs on; follow status_url'),
    ...errors({ 404: 'no such transcode job', 409: 'the job has already completed or failed', 503: 'Redis or the queue cannot be reached' }),
  },
});

export function transcoderRoutes({ config, jobs, library, logger }: AppDeps) {
  const queue = () =>
    library.derive(
      'transcoder.queue',
      accumulate(transcodeQueueAccumulator, (acc) => acc.queue()),
    );
  const records = runtimeTranscodeRecords(config);
  // Made on first use: the OpenAPI document is built from these routes without a config.
  let made: TranscoderService | undefined;
  const service = () =>
    (made ??= transcoderService({
      config: () => config.current(),
      queue,
      records,
      store: transcodeStore(config.transcodes),
      jobs: transcodeJobs(jobs),
      probe: (file) => probeFile(file),
      files: transcoderFiles(),
      logger,
    }));

  // The answer is tens of thousands of entries at 100,000 files: built once per index and per
  // content of the (small) status map and progress, not per request.
  let answer: { version: number; transcodes: object; paused: boolean; progress: string; cached: CachedJson<z.output<typeof transcoderResponse>> } | undefined;
  async function queueAnswer() {
    const all = await queue();
    const running = await service().progressOfRunning();
    const { transcodes, transcoder_paused: paused } = records.current();
    const version = library.version();
    const progressKey = JSON.stringify([...running]);
    // The records are read into a new object whenever transcodes.jsonl changes: their identity says enough.
    if (!answer || answer.version !== version || answer.transcodes !== transcodes || answer.paused !== paused || answer.progress !== progressKey) {
      const scanned_at = library.header()?.scanned_at ?? null;
      answer = {
        version,
        transcodes,
        paused,
        progress: progressKey,
        cached: cacheStreamedJson<z.output<typeof transcoderResponse>>({ scanned_at, paused, queue: listing(all, transcodes, running) }),
      };
    }
    return answer.cached;
  }

  return router()
    .openapi(getTranscoder, async (c) => sendJson(c, await queueAnswer()))
    .openapi(runNext, async (c) => {
      const next = await service().runNext();
      if (next.kind === 'none') return c.json({ item: null });
      if (next.kind === 'dry_run') return c.json({ dry_run: true, item: next.item, command: next.command, dropped: next.dropped });
      return c.json({ item: next.item, job: next.job, status_url: statusUrl('transcode', next.job.id) }, 202);
    })
    .openapi(runAll, async (c) => {
      const all = await service().runAll({ expect: c.req.valid('query').expect });
      if (all.kind === 'dry_run') return c.json({ dry_run: true as const, items: all.items, total: all.total }, 200);
      const list = all.jobs.map(({ path, job }) => ({ path, job, status_url: statusUrl('transcode', job.id) }));
      return c.json({ queued: list.length, jobs: list, paused: all.paused }, list.length === 0 ? 200 : 202);
    })
    .openapi(cancelAll, async (c) => c.json({ cancelled: await service().cancelAll() }, 200))
    .openapi(retry, async (c) => c.json({ item: await service().retry(c.req.valid('json').path) }))
    .openapi(priority, async (c) => c.json({ item: await service().prioritize(c.req.valid('json')) }))
    .openapi(pause, async (c) => c.json(await service().setPaused(true)))
    .openapi(resume, async (c) => c.json(await service().setPaused(false)))
    .openapi(discardOriginal, async (c) => c.json(await service().discardOriginal(c.req.valid('json').path)))
    .openapi(cancel, async (c) => {
      const { id } = c.req.valid('param');
      const job = await service().cancel(id);
      return c.json({ cancelled: true, job, status_url: statusUrl('transcode', id) }, 202);
    });
}
