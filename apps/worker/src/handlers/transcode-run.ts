import { AppError, isShuttingDown, type JobHandler } from '@mo/core';
import { CANCELLED } from '@mo/core/queue/job-cancel.ts';
import { unmapPath } from '@mo/core/media/path-map.ts';
import { etaSeconds } from '@mo/core/media/progress.ts';
import { removeSource } from '@mo/core/media/safe-replace.ts';
import { mp4PathFor, transcodeToMp4 } from '@mo/core/media/transcode.ts';
import { jobAttempt } from '@mo/core/tools/transcode-entries.ts';
import { transcodeStore } from '@mo/core/tools/transcode-store.ts';
import { strandedTranscodes, type JobOutcome } from '@mo/core/tools/stranded-transcodes.ts';
import { workJournal } from '@mo/core/media/work-journal.ts';
import type { Config, TranscodeProgress } from '@mo/shared';
import type { WorkerDeps } from '../deps.ts';
import { libraryMediaFile, refuseInDryRun, retryable } from './guards.ts';
import { sweepAtStart } from './media-tracks.ts';

/** How long a job waits before it looks again while the transcode queue is paused. */
export const PAUSED_RETRY_MS = 15_000;

export function transcodeRunHandler({ config, logger }: WorkerDeps, opts: { pausedRetryMs?: number } = {}): JobHandler<'transcode-run'> {
  const journal = () => workJournal(config.current().paths.data);
  const entries = transcodeStore(config.transcodes);
  sweepAtStart(journal(), logger);

  return async ({ item }, ctx) => {
    const cfg = config.current();
    const map = cfg.transcoder.path_map ?? [];
    const keep = cfg.transcoder.keep_original;
    try {
      refuseInDryRun(cfg, `the transcode of ${item.path}`);
    } catch (err) {
      throw retryable(err);
    }
    const state = await config.state.read();
    const attempt = jobAttempt(item.path, Object.hasOwn(state.transcodes, item.path) ? state.transcodes[item.path] : undefined, ctx.jobId, state.transcoder_paused);
    if (attempt.kind === 'refuse') throw retryable(new AppError(attempt.refusal.code, attempt.refusal.message));
    // BullMQ's own pause keeps workers from taking jobs; this catches a job taken as the pause
    // came, or after a Redis that lost the pause (state.json keeps it).
    if (attempt.kind === 'wait') return ctx.defer(opts.pausedRetryMs ?? PAUSED_RETRY_MS);
    if (attempt.kind === 'finished') {
      // Its work is done and nothing is removed now, whatever keep_original says; but a worker
      // killed between removing the original and recording that left an entry to set right.
      const entry = state.transcodes[item.path];
      if (entry?.original === 'kept' && (await originalGone(item.path, attempt.output, cfg))) {
        await entries.apply(item.path, { type: 'original_removed', job_id: ctx.jobId });
      }
      const result = { item: { ...item, status: 'done' as const }, output: attempt.output, command: [], encoder: null, dropped: [], original_removed: false };
      return { ...result, before: null, after: null, seconds: null };
    }

    const started = Date.now();
    try {
      await journal().sweep();
      const file = await libraryMediaFile(item.path, cfg);
      // The output is named while running only once a worker has begun: a later attempt that
      // finds it named knows an MP4 in its place may be its own earlier work.
      const planned = unmapPath(mp4PathFor(file.real), map);
      await entries.apply(item.path, { type: 'start', job_id: ctx.jobId, output: planned });
      let reported = 0;
      const outcome = await transcodeToMp4({
        file: file.real,
        encoder: cfg.transcoder.video_encoder,
        journal: journal(),
        jobId: ctx.jobId,
        signal: ctx.signal,
        adoptExisting: attempt.resumedOutput === planned,
        onProgress: (p) => {
          // ffmpeg reports twice a second; once a second is plenty for a progress bar.
          if (!p.done && Date.now() - reported < 1000) return;
          reported = Date.now();
          const progress: TranscodeProgress = { percent: p.percent, speed: p.speed, out_time_seconds: p.out_time_seconds, eta_seconds: etaSeconds(p), encoder: p.encoder };
          ctx.progress(progress).catch(() => {});
        },
        onFallback: (from, err) => ctx.log.warn({ encoder: from, err: err.message }, 'hardware encoder failed; encoding with libx264'),
      });
      const output = unmapPath(outcome.output, map);
      const seconds = Math.round((Date.now() - started) / 100) / 10;
      const { before, after } = outcome;
      // Recorded before the original goes, so a retry after a crash here finds the work done; the
      // original counts as removed only once it is gone.
      await entries.apply(item.path, { type: 'finish', job_id: ctx.jobId, output, before, after, seconds });
      const removed = !keep && (await removeSource(file.real, outcome.source.ino));
      if (removed) await entries.apply(item.path, { type: 'original_removed', job_id: ctx.jobId });
      const done = { item: { ...item, status: 'done' as const }, output, command: outcome.command, encoder: outcome.encoder, dropped: outcome.dropped, original_removed: removed };
      return { ...done, before, after, seconds };
    } catch (err) {
      // Handed back to the queue: the entry stays running for the attempt that resumes it.
      if (isShuttingDown(ctx.signal)) throw err;
      const error = ctx.signal.aborted && ctx.signal.reason === CANCELLED ? CANCELLED : (err as Error).message;
      // Refused when another job has taken the entry over since: that one's record stands.
      await entries.apply(item.path, { type: 'fail', job_id: ctx.jobId, error }).catch((e: Error) =>
        ctx.log.warn({ err: e.message }, 'the failed transcode was not recorded'),
      );
      throw retryable(err);
    }
  };
}

/**
 * Whether a transcoded file's original is gone while its MP4 is in place. Only then: a drive that
 * is not mounted loses both, and its entries must keep saying what they said.
 */
async function originalGone(path: string, output: string | null, cfg: Config): Promise<boolean> {
  if (output === null) return false;
  const missing = await libraryMediaFile(path, cfg).then(
    () => false,
    (err: unknown) => err instanceof AppError && err.code === 'not_found',
  );
  return missing && (await libraryMediaFile(output, cfg).then(() => true, () => false));
}

/**
 * Marks failed the queue entries whose job nothing will finish (see strandedTranscodes). Run at
 * start, whenever a transcode fails for good, and every few minutes: the worker that sees a
 * stalled job fail may itself be killed before it can record it. Also records removed the
 * originals that finished entries say are kept but are gone: a job killed between removing one and
 * recording it, then failed for stalling, is never delivered again to do it. `only`: the jobs to
 * check (the one that failed); every job an entry holds otherwise.
 */
export function settleStrandedTranscodes({ config, logger }: WorkerDeps, jobOutcomes: (ids: string[]) => Promise<Map<string, JobOutcome | null>>) {
  const entries = transcodeStore(config.transcodes);
  return async (only?: readonly string[]) => {
    const { transcodes } = await config.state.read();
    const held = (id: string | null): id is string => id !== null && (only === undefined || only.includes(id));
    const ids = [...new Set(Object.values(transcodes).flatMap((e) => ((e.status === 'running' || e.status === 'queued') && held(e.job_id) ? [e.job_id] : [])))];
    const stranded = strandedTranscodes(transcodes, ids.length > 0 ? await jobOutcomes(ids) : new Map(), Date.now());
    if (stranded.length > 0) {
      await entries.applyToJobs(stranded.map((t) => ({ type: 'settle', job_id: t.job_id, error: t.error })));
      logger.warn({ stranded }, 'marked failed the transcodes no job will finish');
    }
    const cfg = config.current();
    for (const [path, e] of Object.entries(transcodes)) {
      if (e.status !== 'done' || e.original !== 'kept' || !held(e.job_id) || !(await originalGone(path, e.output, cfg))) continue;
      // Refused when the entry changed meanwhile: what changed it stands.
      await entries.apply(path, { type: 'original_removed', job_id: e.job_id }).then(
        () => logger.warn({ path }, 'the original of a finished transcode is gone; its entry now says removed'),
        () => {},
      );
    }
  };
}
