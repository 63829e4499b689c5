import { rm } from 'node:fs/promises';
import { AppError, type JobHandler } from '@mo/core';
import { CANCELLED } from '@mo/core/queue/job-cancel.ts';
import { unmapPath } from '@mo/core/media/path-map.ts';
import { removeSource } from '@mo/core/media/safe-replace.ts';
import { mp4PathFor, transcodeToMp4 } from '@mo/core/media/transcode.ts';
import { strandedTranscodes, type JobOutcome } from '@mo/core/tools/stranded-transcodes.ts';
import { workJournal } from '@mo/core/media/work-journal.ts';
import type { TranscodeStatus } from '@mo/shared';
import type { WorkerDeps } from '../deps.ts';
import { libraryMediaFile, refuseInDryRun, retryable } from './guards.ts';
import { sweepAtStart } from './media-tracks.ts';

export function transcodeRunHandler({ config, logger }: WorkerDeps): JobHandler<'transcode-run'> {
  const journal = () => workJournal(config.current().paths.data);
  sweepAtStart(journal(), logger);

  /**
   * The queue entry's status in state.json, keyed by the path the API knows. An entry another job
   * holds now (re-queued after this one was given up on) is that job's to write.
   */
  const record = (path: string, status: Omit<TranscodeStatus, 'updated_at'>) =>
    config.state.update((s) => {
      const held = s.transcodes[path]?.job_id;
      if (held != null && held !== status.job_id) return s;
      return { ...s, transcodes: { ...s.transcodes, [path]: { ...status, updated_at: new Date().toISOString() } } };
    });

  return async ({ item }, ctx) => {
    const cfg = config.current();
    const map = cfg.transcoder.path_map ?? [];
    const keep = cfg.transcoder.keep_original;
    try {
      refuseInDryRun(cfg, `the transcode of ${item.path}`);
    } catch (err) {
      throw retryable(err);
    }
    const prior = (await config.state.read()).transcodes[item.path];
    const ours = prior?.job_id === ctx.jobId;
    if (prior?.status === 'running' && prior.job_id !== null && !ours) {
      throw retryable(new AppError('conflict', `${item.path} is being transcoded by job transcode/${prior.job_id}`));
    }
    // run-next claims the entry before it queues the job, then hands it the job's id: a job for a
    // file nobody claimed, or one another job holds, did not come from run-next.
    if (!prior || (prior.job_id !== null && !ours)) {
      const why = prior ? `its transcode belongs to job transcode/${prior.job_id}` : 'run-next did not claim it from the transcoder queue';
      throw retryable(new AppError('forbidden', `${item.path}: ${why}; nothing was done`));
    }

    // Delivered again after it finished (the worker died before telling the queue): only the
    // original's removal may be left to do.
    if (ours && prior?.status === 'done' && prior.output) {
      if (!keep) {
        await libraryMediaFile(item.path, cfg).then(
          (f) => rm(f.real, { force: true }),
          (err: unknown) => {
            if (!(err instanceof AppError && err.code === 'not_found')) throw retryable(err);
          },
        );
      }
      return { item: { ...item, status: 'done' }, output: prior.output, command: [], encoder: null, dropped: [], original_removed: !keep };
    }

    try {
      await journal().sweep();
      const file = await libraryMediaFile(item.path, cfg);
      // The output is named while running only once a worker has begun: a later attempt that
      // finds it named knows an MP4 in its place may be its own earlier work.
      const planned = unmapPath(mp4PathFor(file.real), map);
      const begun = ours && prior?.status === 'running' && prior.output === planned;
      await record(item.path, { status: 'running', job_id: ctx.jobId, output: planned, error: null });
      let reported = 0;
      const outcome = await transcodeToMp4({
        file: file.real,
        encoder: cfg.transcoder.video_encoder,
        journal: journal(),
        jobId: ctx.jobId,
        signal: ctx.signal,
        adoptExisting: begun,
        onProgress: (p) => {
          // ffmpeg reports twice a second; once a second is plenty for a progress bar.
          if (!p.done && Date.now() - reported < 1000) return;
          reported = Date.now();
          ctx.progress({ percent: p.percent, speed: p.speed, out_time_seconds: p.out_time_seconds, encoder: p.encoder }).catch(() => {});
        },
        onFallback: (from, err) => ctx.log.warn({ encoder: from, err: err.message }, 'hardware encoder failed; encoding with libx264'),
      });
      const output = unmapPath(outcome.output, map);
      // Recorded before the original goes, so a retry after a crash here finds the work done.
      await record(item.path, { status: 'done', job_id: ctx.jobId, output, error: null });
      if (!keep) await removeSource(file.real, outcome.source.ino);
      return { item: { ...item, status: 'done' }, output, command: outcome.command, encoder: outcome.encoder, dropped: outcome.dropped, original_removed: !keep };
    } catch (err) {
      const error = ctx.signal.aborted && ctx.signal.reason === CANCELLED ? CANCELLED : (err as Error).message;
      await record(item.path, { status: 'failed', job_id: ctx.jobId, output: null, error }).catch((e: Error) =>
        ctx.log.error({ err: e.message }, 'could not record the failed transcode'),
      );
      throw retryable(err);
    }
  };
}

/**
 * Marks failed the queue entries left `running` that no job will finish (see strandedTranscodes).
 * Run at start, whenever a transcode fails for good, and every few minutes: the worker that sees
 * a stalled job fail may itself be killed before it can record it.
 */
export function settleStrandedTranscodes({ config, logger }: WorkerDeps, jobOutcomes: (ids: string[]) => Promise<Map<string, JobOutcome | null>>) {
  return async () => {
    const { transcodes } = await config.state.read();
    const ids = [...new Set(Object.values(transcodes).flatMap((e) => (e.status === 'running' && e.job_id !== null ? [e.job_id] : [])))];
    const stranded = strandedTranscodes(transcodes, ids.length > 0 ? await jobOutcomes(ids) : new Map(), Date.now());
    if (stranded.length === 0) return;
    await config.state.update((s) => {
      const next = { ...s.transcodes };
      for (const t of stranded) {
        const e = next[t.path];
        // Changed since it was read: a worker or the API has the entry in hand.
        if (!e || e.status !== 'running' || e.job_id !== t.job_id) continue;
        next[t.path] = { ...e, status: 'failed', output: null, error: t.error, updated_at: new Date().toISOString() };
      }
      return { ...s, transcodes: next };
    });
    logger.warn({ stranded }, 'marked failed the transcodes no job will finish');
  };
}
