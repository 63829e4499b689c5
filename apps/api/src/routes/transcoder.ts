import { randomBytes } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import { createRoute, z } from '@hono/zod-openapi';
import { accumulate, AppError, REDIS_DEADLINE_MS, withDeadline, type JobClient, type JobRef } from '@mo/core';
import { guardMediaPath, mediaRoots } from '@mo/core/fs/path-guard.ts';
import { probeFile } from '@mo/core/media/run.ts';
import { removeSource } from '@mo/core/media/safe-replace.ts';
import { transcodePlan } from '@mo/core/media/transcode-command.ts';
import { mp4PathFor } from '@mo/core/media/transcode.ts';
import { verifyOutput } from '@mo/core/media/verify.ts';
import { workTempPath } from '@mo/core/media/work-journal.ts';
import { requestCancel } from '@mo/core/queue/job-cancel.ts';
import { bullPriority, nextEntry, PRIORITY_LIMIT, topPriority, type EntryEvent } from '@mo/core/tools/transcode-entries.ts';
import { transcodeStore, type Claimed, type TranscodeStore } from '@mo/core/tools/transcode-store.ts';
import { claimable, listing, listingOf, transcodeQueueAccumulator, type TranscodeEntry } from '@mo/core/tools/transcoder-queue.ts';
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
  transcodeProgressSchema,
  transcoderResponse,
  transcodeRetryBody,
  transcodeRetryResponse,
  type Config,
  type TranscodeProgress,
} from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { statusUrl } from '../http/jobs.ts';
import { cacheStreamedJson, sendJson, type CachedJson } from '../http/cached-json.ts';
import { body, errors, json, router, segment, NOT_MODIFIED } from '../openapi/route.ts';
import { runAllAnswer, runNextAnswer } from '../openapi/schemas.ts';

/** Jobs added to Redis in one round trip. */
const QUEUE_BATCH = 200;

/** How many entries a run-all dry run probes and lists: each costs an ffprobe. */
export const RUN_ALL_DRY_RUN_LIMIT = 100;

const getTranscoder = createRoute({
  method: 'get', path: '/tools/transcoder', operationId: 'getTranscoder', summary: 'Transcode queue: indexed video that is not .mp4', tags: ['tools'],
  description: 'Each entry with its place in line, priority and, while running, progress; `paused` while the queue is paused.',
  responses: { ...NOT_MODIFIED, 200: json(transcoderResponse) },
});

const PAUSED = 'the transcode queue is paused; resume it first';

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
      409: PAUSED,
      503: 'Redis or the queue cannot be reached',
    }),
  },
});

const runAll = createRoute({
  method: 'post', path: '/tools/transcoder/run-all', operationId: 'postTranscoderRunAll', summary: 'Queue every queued transcode at once', tags: ['tools'],
  description: `One job per queued entry, in run order; the workers run as many at a time as their WORKER_CONCURRENCY allows. While the queue is paused the jobs are queued all the same and wait for resume (\`"paused": true\`). Dry run: the first ${RUN_ALL_DRY_RUN_LIMIT} entries with their commands, and \`total\`.`,
  responses: {
    200: json(runAllAnswer, 'Dry run, or nothing was queued'),
    202: json(runAllStartedResponse, 'Accepted: the jobs run on, or wait for resume while paused'),
    ...errors({ 503: 'Redis or the queue cannot be reached; nothing was queued' }),
  },
});

const cancelAll = createRoute({
  method: 'post', path: '/tools/transcoder/cancel-all', operationId: 'postTranscoderCancelAll', summary: 'Cancel every transcode job that has not started', tags: ['tools'],
  description: 'Each waiting job is removed from the queue and its entry goes back in line without a job (run-all queues it again); running transcodes go on.',
  responses: {
    200: json(transcodeCancelAllResponse, 'How many waiting jobs were cancelled'),
    ...errors({ 503: 'Redis or the queue cannot be reached; nothing was cancelled' }),
  },
});

const retry = createRoute({
  method: 'post', path: '/tools/transcoder/retry', operationId: 'postTranscoderRetry', summary: 'Queue a failed transcode again', tags: ['tools'],
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
  method: 'post', path: '/tools/transcoder/priority', operationId: 'postTranscoderPriority', summary: 'Give a queued entry a priority, or move it to the top', tags: ['tools'],
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
  method: 'post', path: '/tools/transcoder/pause', operationId: 'postTranscoderPause', summary: 'Pause the transcode queue', tags: ['tools'],
  description: 'Running transcodes finish; nothing new starts, also after a restart, until resumed.',
  responses: { 200: json(transcodePausedResponse) },
});

const resume = createRoute({
  method: 'post', path: '/tools/transcoder/resume', operationId: 'postTranscoderResume', summary: 'Resume the transcode queue', tags: ['tools'],
  responses: { 200: json(transcodePausedResponse), ...errors({ 503: 'Redis cannot be reached to lift the queue’s pause; it stays paused' }) },
});

const discardOriginal = createRoute({
  method: 'post', path: '/tools/transcoder/discard-original', operationId: 'postTranscoderDiscardOriginal',
  summary: 'Remove the original a transcode kept (keep_original)', tags: ['tools'],
  description: 'Only once the MP4 still matches what the transcode verified (container, streams, duration). Dry run: says what it would remove.',
  request: { body: body(discardOriginalBody) },
  responses: {
    200: json(discardOriginalResponse),
    ...errors({
      400: 'the body is not {"path"}',
      403: 'the original or the MP4 resolves outside the drives',
      404: 'the path is not in the transcode queue, or the MP4 has gone',
      409: 'the entry is not done, its original was not kept or is gone, or the MP4 no longer matches',
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

function jobItem(entry: TranscodeEntry) {
  return { ...entry, status: 'queued' as const };
}

/** Progress as the worker reports it; what Redis holds is read like any other input. */
async function runningProgress(jobs: JobClient, ids: string[]): Promise<Map<string, TranscodeProgress>> {
  if (ids.length === 0) return new Map();
  const raw = await jobs.progressOf('transcode', ids).catch(() => new Map<string, unknown>());
  const out = new Map<string, TranscodeProgress>();
  for (const [id, value] of raw) {
    const parsed = transcodeProgressSchema.safeParse(value);
    if (parsed.success) out.set(id, parsed.data);
  }
  return out;
}

async function dryRunCommand(cfg: Config, entry: TranscodeEntry) {
  const file = await guardMediaPath(entry.path, { roots: mediaRoots(cfg), extensions: cfg.library.video_extensions });
  const temp = workTempPath(mp4PathFor(file.real), 'transcode', randomBytes(6).toString('hex'));
  return transcodePlan(await probeFile(file.real), { encoder: cfg.transcoder.video_encoder, src: file.real, tmp: temp });
}

export function transcoderRoutes({ config, jobs, library, logger }: AppDeps) {
  const queue = () => library.derive('transcoder.queue', accumulate(transcodeQueueAccumulator, (acc) => acc.queue()));
  // Made on first use: the OpenAPI document is built from these routes without a config.
  let store: TranscodeStore | undefined;
  const entries = () => (store ??= transcodeStore(config.transcodes));

  async function inQueue(path: string): Promise<TranscodeEntry> {
    const entry = (await queue()).find((e) => e.path === path);
    if (!entry) throw new AppError('not_found', `${path} is not in the transcode queue`);
    return entry;
  }

  // Progress changes every second while something runs: read at most once a second.
  let progress: { at: number; ids: string; map: Map<string, TranscodeProgress> } = { at: 0, ids: '', map: new Map() };
  async function progressOfRunning() {
    const ids = Object.values(config.currentState().transcodes).flatMap((e) => (e.status === 'running' && e.job_id !== null ? [e.job_id] : []));
    const key = ids.join();
    if (key !== progress.ids || Date.now() - progress.at > 1000) progress = { at: Date.now(), ids: key, map: await runningProgress(jobs, ids) };
    return progress.map;
  }

  // The answer is tens of thousands of entries at 100,000 files: built once per index and per
  // content of the (small) status map and progress, not per request.
  let answer: { version: number; transcodes: object; paused: boolean; progress: string; cached: CachedJson<z.output<typeof transcoderResponse>> } | undefined;
  async function queueAnswer() {
    const all = await queue();
    const running = await progressOfRunning();
    const { transcodes, transcoder_paused: paused } = config.currentState();
    const version = library.version();
    const progressKey = JSON.stringify([...running]);
    // state.json is read into a new object whenever it changes: the records' identity says enough.
    if (!answer || answer.version !== version || answer.transcodes !== transcodes || answer.paused !== paused || answer.progress !== progressKey) {
      const scanned_at = library.header()?.scanned_at ?? null;
      answer = { version, transcodes, paused, progress: progressKey, cached: cacheStreamedJson<z.output<typeof transcoderResponse>>({ scanned_at, paused, queue: listing(all, transcodes, running) }) };
    }
    return answer.cached;
  }

  /**
   * Queues the claimed entries' jobs, a batch at a time so that each round trip fits Redis's
   * deadline however long the queue. The entries of a batch that cannot be queued, and of every
   * batch after it, are given back; none queued at all is the caller's error.
   */
  async function queueClaimed(claimed: Claimed[]) {
    const queued: JobRef[] = [];
    for (let i = 0; i < claimed.length; i += QUEUE_BATCH) {
      const batch = claimed.slice(i, i + QUEUE_BATCH);
      try {
        queued.push(...(await jobs.queueTranscodes(batch.map((c) => ({ payload: { item: jobItem(c.entry) }, jobId: c.job_id, priority: bullPriority(c.priority) })))));
      } catch (err) {
        await entries().unclaim(claimed.slice(i));
        await config.refresh();
        if (queued.length === 0) throw err;
        logger.warn({ err: (err as Error).message, queued: queued.length, given_back: claimed.length - i }, 'run-all queued only part of the queue');
        break;
      }
    }
    return queued;
  }

  /**
   * Removes the waiting jobs of the entries that hold one, a batch at a time so that each round
   * trip fits Redis's deadline, and puts those entries back in line. A batch Redis cannot be
   * reached for ends the work; none removed at all is the caller's error.
   */
  async function cancelWaiting(): Promise<number> {
    const ids = Object.values((await config.state.read()).transcodes).flatMap((e) => (e.status === 'queued' && e.job_id !== null ? [e.job_id] : []));
    const removed: string[] = [];
    for (let i = 0; i < ids.length; i += QUEUE_BATCH) {
      try {
        removed.push(...(await jobs.removeWaiting('transcode', ids.slice(i, i + QUEUE_BATCH))));
      } catch (err) {
        if (removed.length === 0) throw err;
        logger.warn({ err: (err as Error).message, cancelled: removed.length, left: ids.length - i }, 'cancel-all cancelled only part of the waiting jobs');
        break;
      }
    }
    // A job removed before it started did nothing to the file: its entry simply waits again.
    await entries().applyToJobs(removed.map((job_id) => ({ type: 'settle', job_id, error: 'cancelled' })));
    await config.refresh();
    return removed.length;
  }

  async function refusePaused() {
    if ((await config.state.read()).transcoder_paused) throw new AppError('conflict', PAUSED);
  }

  // One pause or resume at a time: interleaved, BullMQ's pause could end the other way than state.json's.
  let steering: Promise<unknown> = Promise.resolve();
  function setPaused(paused: boolean) {
    const next = steering.then(() => applyPause(paused));
    steering = next.catch(() => {});
    return next;
  }

  async function applyPause(paused: boolean) {
    // BullMQ's pause, once set, holds every job back until lifted, and nothing else lifts it: a
    // resume that cannot reach Redis changes nothing.
    if (!paused) await jobs.setPaused('transcode', false);
    await entries().setPaused(paused);
    await config.refresh();
    // state.json is what counts (a worker defers a job it takes while paused); BullMQ's own pause
    // only spares the workers taking jobs they would put back.
    if (paused) await jobs.setPaused('transcode', true).catch((err: Error) => logger.warn({ err: err.message }, 'could not pause the transcode queue in Redis'));
    return { paused };
  }

  return router()
    .openapi(getTranscoder, async (c) => sendJson(c, await queueAnswer()))
    .openapi(runNext, async (c) => {
      const cfg = config.current();
      if (cfg.app.dry_run) {
        const next = claimable(await queue(), config.currentState().transcodes)[0];
        if (!next) return c.json({ item: null });
        const plan = await dryRunCommand(cfg, next);
        return c.json({ dry_run: true, item: jobItem(next), command: plan.argv, dropped: plan.dropped });
      }
      await refusePaused();
      const [claimed] = await entries().claim(await queue(), 1);
      if (!claimed) return c.json({ item: null });
      const [job] = await queueClaimed([claimed]);
      await config.refresh();
      return c.json({ item: { ...claimed.entry, status: 'queued' as const }, job: job!, status_url: statusUrl('transcode', job!.id) }, 202);
    })
    .openapi(runAll, async (c) => {
      const cfg = config.current();
      if (cfg.app.dry_run) {
        const next = claimable(await queue(), config.currentState().transcodes);
        const items = [];
        for (const entry of next.slice(0, RUN_ALL_DRY_RUN_LIMIT)) {
          const planned = await dryRunCommand(cfg, entry).then(
            (plan) => ({ command: plan.argv, error: null }),
            (err: Error) => ({ command: null, error: err.message }),
          );
          items.push({ item: jobItem(entry), ...planned });
        }
        return c.json({ dry_run: true as const, items, total: next.length }, 200);
      }
      // While paused the jobs are queued all the same: the workers hold them back until resume.
      const paused = (await config.state.read()).transcoder_paused;
      const claimed = await entries().claim(await queue(), Number.POSITIVE_INFINITY);
      if (claimed.length === 0) return c.json({ queued: 0, jobs: [], paused }, 200);
      const queued = await queueClaimed(claimed);
      await config.refresh();
      const list = queued.map((job, i) => ({ path: claimed[i]!.entry.path, job, status_url: statusUrl('transcode', job.id) }));
      return c.json({ queued: list.length, jobs: list, paused }, 202);
    })
    .openapi(cancelAll, async (c) => c.json({ cancelled: await cancelWaiting() }, 200))
    .openapi(retry, async (c) => {
      const { path } = c.req.valid('json');
      const entry = await inQueue(path);
      const before = (await config.state.read()).transcodes[path];
      const job_id = before?.status === 'failed' ? before.job_id : null;
      const job_state = job_id !== null ? ((await jobs.get('transcode', job_id))?.state ?? null) : null;
      await entries().apply(path, { type: 'retry', job_id, job_state });
      await config.refresh();
      return c.json({ item: jobItem(entry) });
    })
    .openapi(priority, async (c) => {
      const req = c.req.valid('json');
      await inQueue(req.path);
      const state = await config.state.read();
      const wanted = 'top' in req ? topPriority(state.transcodes, req.path) : req.priority;
      if (wanted === null) throw new AppError('conflict', `another entry holds the highest priority (${PRIORITY_LIMIT}) already; lower it first`);
      const event: EntryEvent = { type: 'prioritize', priority: wanted };
      const current = state.transcodes[req.path];
      // The waiting job moves first: should Redis be out of reach, nothing has changed.
      if (current?.status === 'queued' && current.job_id !== null && event.type === 'prioritize') {
        await jobs.reprioritize('transcode', current.job_id, bullPriority(event.priority));
      }
      await entries().apply(req.path, event);
      await config.refresh();
      const s = config.currentState();
      const item = listingOf(req.path, await queue(), s.transcodes)!;
      return c.json({ item });
    })
    .openapi(pause, async (c) => c.json(await setPaused(true)))
    .openapi(resume, async (c) => c.json(await setPaused(false)))
    .openapi(discardOriginal, async (c) => {
      const { path } = c.req.valid('json');
      await inQueue(path);
      const cfg = config.current();
      const entry = (await config.state.read()).transcodes[path];
      const allowed = nextEntry(path, entry, { type: 'discard_original' }, new Date().toISOString());
      if (!allowed.ok) throw new AppError(allowed.refusal.code, allowed.refusal.message);
      if (!entry?.output || !entry.after) throw new AppError('conflict', `${path}: its record holds no verified output to check; the original stays`);
      const roots = { roots: mediaRoots(cfg), extensions: cfg.library.video_extensions };
      const original = await guardMediaPath(path, roots).catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'not_found') throw new AppError('conflict', `${path}: the original is gone already`);
        throw err;
      });
      const output = await guardMediaPath(entry.output, { ...roots, extensions: ['.mp4'] });
      const [stamp, placed] = await Promise.all([lstat(original.real), lstat(output.real)]);
      // Removing the original must never remove the MP4: its name may now lead to the MP4 itself.
      if (stamp.dev === placed.dev && stamp.ino === placed.ino) throw new AppError('conflict', `${path} is the MP4 ${entry.output} itself now; nothing was removed`);
      const [source, made] = await Promise.all([probeFile(original.real), probeFile(output.real)]);
      const expected = { streams: entry.after.streams.map((s) => ({ type: s.type as 'video', codec: s.codec, language: s.language, default: s.default })), duration_seconds: source.duration_seconds, container: 'mp4' };
      const problems = verifyOutput(expected, made);
      if (problems.length > 0) throw new AppError('conflict', `${entry.output} no longer matches what the transcode verified (${problems.join('; ')}); the original stays`);
      const listed = () => queue().then((all) => listingOf(path, all, config.currentState().transcodes)!);
      if (cfg.app.dry_run) return c.json({ dry_run: true, item: await listed(), removed: original.real });
      if (!(await removeSource(original.real, stamp.ino))) throw new AppError('conflict', `${path} changed since it was checked; it stays`);
      await entries().apply(path, { type: 'discard_original' });
      await config.refresh();
      return c.json({ dry_run: false, item: await listed(), removed: original.real });
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
      await entries().applyToJobs([{ type: 'cancel', job_id: id }]);
      await config.refresh();
      return c.json({ cancelled: true, job: { id, queue: 'transcode', state: job.state }, status_url: statusUrl('transcode', id) }, 202);
    });
}
