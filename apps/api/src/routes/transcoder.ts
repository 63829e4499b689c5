import { randomBytes } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import { AppError, REDIS_DEADLINE_MS, withDeadline } from '@mo/core';
import { guardMediaPath, mediaRoots } from '@mo/core/fs/path-guard.ts';
import { probeFile } from '@mo/core/media/run.ts';
import { transcodePlan } from '@mo/core/media/transcode-command.ts';
import { mp4PathFor } from '@mo/core/media/transcode.ts';
import { workTempPath } from '@mo/core/media/work-journal.ts';
import { CANCELLED, requestCancel } from '@mo/core/queue/job-cancel.ts';
import { firstQueued, transcodeQueue, withStatus, type TranscodeEntry } from '@mo/core/tools/transcoder-queue.ts';
import {
  runNextStartedResponse,
  transcodeCancelResponse,
  transcoderResponse,
  transcodeRetryBody,
  transcodeRetryResponse,
  type State,
} from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { statusUrl } from '../http/jobs.ts';
import { cacheJson, sendJson, type CachedJson } from '../http/cached-json.ts';
import { body, errors, json, router, segment } from '../openapi/route.ts';
import { runNextAnswer } from '../openapi/schemas.ts';

type Transcodes = State['transcodes'];

function withoutEntry(transcodes: Transcodes, path: string): Transcodes {
  const { [path]: _, ...rest } = transcodes;
  return rest;
}

const getTranscoder = createRoute({
  method: 'get', path: '/tools/transcoder', operationId: 'getTranscoder', summary: 'Transcode queue: indexed video that is not .mp4', tags: ['tools'],
  responses: { 200: json(transcoderResponse) },
});

const runNext = createRoute({
  method: 'post', path: '/tools/transcoder/run-next', operationId: 'postTranscoderRunNext', summary: 'Run the next queued transcode', tags: ['tools'],
  description: 'Dry run: 200 with the ffmpeg command and the streams MP4 would drop. Otherwise 202 with the job. Nothing queued: 200 {"item": null}.',
  responses: {
    200: json(runNextAnswer),
    202: json(runNextStartedResponse, 'Accepted: the job runs on; follow status_url'),
    ...errors({
      400: 'dry run: the next file is not a media file',
      403: 'dry run: the next file resolves outside the downloads folder and the drives',
      404: 'dry run: the next file has gone',
      503: 'Redis or the queue cannot be reached',
    }),
  },
});

const retry = createRoute({
  method: 'post', path: '/tools/transcoder/retry', operationId: 'postTranscoderRetry', summary: 'Queue a failed transcode again', tags: ['tools'],
  description: 'A failed entry goes back to `queued`, for `run-next` to take in its turn; a queued one stays queued.',
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

const cancel = createRoute({
  method: 'post', path: '/jobs/transcode/{id}/cancel', operationId: 'postTranscodeCancel', summary: 'Cancel a transcode wherever it runs', tags: ['tools'],
  request: { params: z.object({ id: segment.meta({ description: 'Job id' }) }) },
  responses: {
    202: json(transcodeCancelResponse, 'Accepted: the job runs on; follow status_url'),
    ...errors({ 404: 'no such transcode job', 409: 'the job has already completed or failed', 503: 'Redis or the queue cannot be reached' }),
  },
});

export function transcoderRoutes({ config, jobs, library }: AppDeps) {
  const queue = () => library.derive('transcoder.queue', (index) => transcodeQueue(index?.items ?? []));

  // The answer is tens of thousands of entries at 100,000 files: built once per index and per
  // content of the (small) status map, not per request.
  let answer: { version: number; statuses: string; cached: CachedJson<z.output<typeof transcoderResponse>> } | undefined;
  async function queueAnswer() {
    const entries = await queue();
    const transcodes = config.currentState().transcodes;
    const statuses = JSON.stringify(transcodes);
    const version = library.version();
    if (!answer || answer.version !== version || answer.statuses !== statuses) {
      const scanned_at = library.header()?.scanned_at ?? null;
      answer = { version, statuses, cached: cacheJson({ scanned_at, queue: withStatus(entries, transcodes) }) };
    }
    return answer.cached;
  }

  /**
   * Takes the first queued entry and marks it running in one locked state update, so two
   * run-next calls at once start two different files.
   */
  async function claimNext(): Promise<TranscodeEntry | null> {
    let claimed: TranscodeEntry | null = null;
    const entries = await queue();
    await config.state.update((s) => {
      claimed = firstQueued(entries, s.transcodes);
      if (!claimed) return s;
      const entry = { status: 'running' as const, job_id: null, updated_at: new Date().toISOString(), output: null, error: null };
      return { ...s, transcodes: { ...s.transcodes, [claimed.path]: entry } };
    });
    return claimed;
  }

  async function updateEntry(path: string, change: (e: Transcodes[string]) => Transcodes[string] | null) {
    await config.state.update((s) => {
      const e = s.transcodes[path];
      if (!e) return s;
      const next = change(e);
      return { ...s, transcodes: next ? { ...s.transcodes, [path]: next } : withoutEntry(s.transcodes, path) };
    });
    await config.refresh();
  }

  return router()
    .openapi(getTranscoder, async (c) => sendJson(c, await queueAnswer()))
    .openapi(runNext, async (c) => {
      const cfg = config.current();
      if (cfg.app.dry_run) {
        const next = firstQueued(await queue(), config.currentState().transcodes);
        if (!next) return c.json({ item: null });
        const file = await guardMediaPath(next.path, { roots: mediaRoots(cfg), extensions: cfg.library.video_extensions });
        const temp = workTempPath(mp4PathFor(file.real), 'transcode', randomBytes(6).toString('hex'));
        const plan = transcodePlan(await probeFile(file.real), { encoder: cfg.transcoder.video_encoder, src: file.real, tmp: temp });
        return c.json({ dry_run: true, item: { ...next, status: 'queued' as const }, command: plan.argv, dropped: plan.dropped });
      }
      const next = await claimNext();
      if (!next) return c.json({ item: null });
      const item = { ...next, status: 'queued' as const };
      try {
        const outcome = await jobs.submit('transcode-run', { item }, { waitSeconds: 0 });
        // Unless the worker has already written its own record of the job.
        await updateEntry(next.path, (e) => (e.job_id === null ? { ...e, job_id: outcome.job.id } : e));
        return c.json({ item: { ...next, status: 'running' as const }, job: outcome.job, status_url: statusUrl(outcome.job.queue, outcome.job.id) }, 202);
      } catch (err) {
        // Never queued: give the entry back.
        await updateEntry(next.path, (e) => (e.job_id === null ? null : e));
        throw err;
      }
    })
    .openapi(retry, async (c) => {
      const { path } = c.req.valid('json');
      const entry = (await queue()).find((e) => e.path === path);
      if (!entry) throw new AppError('not_found', `${path} is not in the transcode queue`);
      // A failed attempt is recorded before BullMQ decides on a retry, and a cancelled job is
      // marked failed while ffmpeg stops: only once its job has ended may another take the file.
      const before = (await config.state.read()).transcodes[path];
      if (before?.status === 'failed' && before.job_id !== null) {
        const job = await jobs.get('transcode', before.job_id);
        if (job && job.state !== 'completed' && job.state !== 'failed') {
          throw new AppError('conflict', `${path}: its job transcode/${before.job_id} is still ${job.state}; the queue may run it again`);
        }
      }
      let was = 'queued' as Transcodes[string]['status'] | 'queued' | 'changed';
      await config.state.update((s) => {
        const e = s.transcodes[path];
        was = e?.status ?? 'queued';
        if (was !== 'failed') return s;
        if (e!.job_id !== (before?.job_id ?? null)) {
          was = 'changed';
          return s;
        }
        return { ...s, transcodes: withoutEntry(s.transcodes, path) };
      });
      await config.refresh();
      if (was === 'running') throw new AppError('conflict', `${path} is being transcoded; cancel its job first`);
      if (was === 'done') throw new AppError('conflict', `${path} has been transcoded already`);
      if (was === 'changed') throw new AppError('conflict', `${path} changed hands while it was being re-queued; ask again`);
      return c.json({ item: { ...entry, status: 'queued' as const } });
    })
    .openapi(cancel, async (c) => {
      const { id } = c.req.valid('param');
      const job = await jobs.get('transcode', id);
      if (!job) throw new AppError('not_found', `no job transcode/${id}`);
      if (job.state === 'completed' || job.state === 'failed') throw new AppError('conflict', `job transcode/${id} has already ${job.state}`);
      const q = jobs.queues().find((x) => x.name === 'transcode');
      if (!q) throw new AppError('unavailable', 'the transcode queue is not available');
      try {
        await withDeadline(requestCancel(q, id), REDIS_DEADLINE_MS, () => new Error('timed out'));
      } catch (err) {
        throw new AppError('unavailable', `the job queue cannot be reached (${(err as Error).message})`);
      }
      // A waiting job never reaches the handler that would record this; a running one records it again.
      await config.state.update((s) => {
        const at = new Date().toISOString();
        const transcodes = Object.fromEntries(
          Object.entries(s.transcodes).map(([path, e]) =>
            [path, e.job_id === id && e.status === 'running' ? { ...e, status: 'failed' as const, error: CANCELLED, updated_at: at } : e],
          ),
        );
        return { ...s, transcodes };
      });
      await config.refresh();
      return c.json({ cancelled: true, job: { id, queue: 'transcode', state: job.state }, status_url: statusUrl('transcode', id) }, 202);
    });
}
