import type { Config, JobPayload, JobResult, TranscodeProgress } from '@mo/shared';
import { AppError } from '../errors.ts';
import type { GuardedPath } from '../fs/path-guard.ts';
import type { Logger } from '../logging/logger.ts';
import { unmapPath } from '../media/path-map.ts';
import { etaSeconds } from '../media/progress.ts';
import { mp4PathFor, transcodeToMp4 } from '../media/transcode.ts';
import type { WorkJournal } from '../media/work-journal.ts';
import { CANCELLED } from '../queue/job-cancel.ts';
import { removeLibraryFile } from './remove-library-file.ts';
import { isShuttingDown, type JobContext } from '../queue/worker-host.ts';
import type { JobOutcome } from '../queue/job-view.ts';
import { strandedTranscodes } from './stranded-transcodes.ts';
import { jobAttempt } from './transcode-entries.ts';
import type { TranscodeStore } from './transcode-store.ts';
import type { TranscodeRecords } from './transcoder-service.ts';

/** How long a job waits before it looks again while the transcode queue is paused. */
export const PAUSED_RETRY_MS = 15_000;

/** BullMQ's own pause of the transcode queue, as a worker reaches it. */
export interface QueuePause {
  isPaused(): Promise<boolean>;
  setPaused(paused: boolean): Promise<void>;
}

/**
 * What the queue's own pause must change to so that it says what the records say (they count: they
 * outlast a Redis that keeps nothing); null when the two agree.
 */
export function queuePauseChange(recordsPaused: boolean, queuePaused: boolean): boolean | null {
  return recordsPaused === queuePaused ? null : recordsPaused;
}

export interface TranscodeRunDeps {
  config: () => Config;
  records: TranscodeRecords;
  store: TranscodeStore;
  journal: () => WorkJournal;
  /** A queued path as this box mounts it, checked to be on a drive (transcoder.path_map). */
  locate: (path: string, cfg: Config) => Promise<GuardedPath>;
  /** Marks an error the queue must not retry (bad input, conflicts) as final. */
  final: (err: unknown) => unknown;
  /** Throws when dry_run is on, as for every job that would change files. */
  refuseInDryRun: (cfg: Config, what: string) => void;
  /** What the queue says of each named job; asked only when settling. */
  jobOutcomes?: (ids: string[]) => Promise<Map<string, JobOutcome | null>>;
  /** The queue's own pause; asked only when bringing it in line with the records. */
  queuePause?: QueuePause;
  logger: Logger;
  pausedRetryMs?: number;
}

type Item = JobPayload<'transcode-run'>['item'];

/**
 * The queue's own pause brought in line with the records: a resumed queue whose records are paused
 * has every worker take jobs only to put them back; a paused one whose records run holds every job.
 */
function queuePauseSync({ records, queuePause, logger }: TranscodeRunDeps) {
  async function sync(): Promise<boolean | null> {
    if (!queuePause) throw new Error("syncing the queue's pause needs the queue: no queuePause given");
    const change = queuePauseChange((await records.read()).transcoder_paused, await queuePause.isPaused());
    if (change !== null) {
      await queuePause.setPaused(change);
      logger.info({ paused: change }, change ? 'paused the transcode queue as its records say' : 'resumed the transcode queue as its records say');
    }
    return change;
  }

  // One sync at a time: two interleaved could each read before the other writes, and the later
  // write would undo a change of the records that came in between.
  let syncing: Promise<unknown> = Promise.resolve();
  function quietly(): Promise<boolean | null> {
    const next = syncing.then(sync).catch((err: Error) => {
      logger.warn({ err: err.message }, "could not bring the transcode queue's pause in line with its records");
      return null;
    });
    syncing = next;
    return next;
  }

  function keep(everyMs: number): () => void {
    const timer = setInterval(() => void quietly(), everyMs);
    void quietly();
    return () => clearInterval(timer);
  }

  return { sync, quietly, keep };
}

/**
 * What a worker does with the transcode queue: runs a job from its entry's record (start, finish,
 * remove the original, or fail), and settles the entries whose jobs nothing will finish.
 */
export function transcodeRunService(deps: TranscodeRunDeps) {
  const { config, records, store, journal, locate, final, logger } = deps;

  /**
   * Whether a transcoded file's original is gone while its MP4 is in place. Only then: a drive that
   * is not mounted loses both, and its entries must keep saying what they said.
   */
  async function originalGone(path: string, output: string | null, cfg: Config): Promise<boolean> {
    if (output === null) return false;
    const missing = await locate(path, cfg).then(
      () => false,
      (err: unknown) => err instanceof AppError && err.code === 'not_found',
    );
    return (
      missing &&
      (await locate(output, cfg).then(
        () => true,
        () => false,
      ))
    );
  }

  async function transcode(item: Item, ctx: JobContext, cfg: Config, resumedOutput: string | null): Promise<JobResult<'transcode-run'>> {
    const map = cfg.transcoder.path_map ?? [];
    const started = Date.now();
    try {
      await journal().sweep();
      const file = await locate(item.path, cfg);
      // The output is named while running only once a worker has begun: a later attempt that
      // finds it named knows an MP4 in its place may be its own earlier work.
      const planned = unmapPath(mp4PathFor(file.real), map);
      await store.apply(item.path, { type: 'start', job_id: ctx.jobId, output: planned });
      let reported = 0;
      const outcome = await transcodeToMp4({
        file: file.real,
        encoder: cfg.transcoder.video_encoder,
        journal: journal(),
        jobId: ctx.jobId,
        signal: ctx.signal,
        adoptExisting: resumedOutput === planned,
        onProgress: (p) => {
          // ffmpeg reports twice a second; once a second is plenty for a progress bar.
          if (!p.done && Date.now() - reported < 1000) return;
          reported = Date.now();
          const progress: TranscodeProgress = {
            percent: p.percent,
            speed: p.speed,
            out_time_seconds: p.out_time_seconds,
            eta_seconds: etaSeconds(p),
            encoder: p.encoder,
          };
          ctx.progress(progress).catch(() => {});
        },
        onFallback: (from, err) => ctx.log.warn({ encoder: from, err: err.message }, 'hardware encoder failed; encoding with libx264'),
      });
      const output = unmapPath(outcome.output, map);
      const seconds = Math.round((Date.now() - started) / 100) / 10;
      const { before, after } = outcome;
      // Recorded before the original goes, so a retry after a crash here finds the work done; the
      // original counts as removed only once it is gone.
      await store.apply(item.path, { type: 'finish', job_id: ctx.jobId, output, before, after, seconds });
      const removal = cfg.transcoder.keep_original ? null : await removeLibraryFile({ real: file.real, ino: outcome.source.ino, config: cfg, map });
      const removed = removal?.removed === true;
      const recycledTo = removal?.removed ? removal.recycled_to : null;
      if (removed) await store.apply(item.path, { type: 'original_removed', job_id: ctx.jobId, recycled_to: recycledTo });
      if (removal && !removal.removed) ctx.log.warn({ path: item.path, reason: removal.reason }, 'the original of a finished transcode was kept');
      const done = {
        item: { ...item, status: 'done' as const },
        output,
        command: outcome.command,
        encoder: outcome.encoder,
        dropped: outcome.dropped,
        original_removed: removed,
        original_recycled_to: recycledTo,
      };
      return { ...done, before, after, seconds };
    } catch (err) {
      // Handed back to the queue: the entry stays running for the attempt that resumes it.
      if (isShuttingDown(ctx.signal)) throw err;
      const error = ctx.signal.aborted && ctx.signal.reason === CANCELLED ? CANCELLED : (err as Error).message;
      // Refused when another job has taken the entry over since: that one's record stands.
      await store
        .apply(item.path, { type: 'fail', job_id: ctx.jobId, error })
        .catch((e: Error) => ctx.log.warn({ err: e.message }, 'the failed transcode was not recorded'));
      throw final(err);
    }
  }

  /**
   * Marks failed the entries whose job nothing will finish (see strandedTranscodes), and records
   * removed the originals that finished entries say are kept but are gone: a job killed between
   * removing one and recording it, then failed for stalling, is never delivered again to do it.
   * `only`: the jobs to check (the one that failed); every job an entry holds otherwise.
   */
  async function settle(only?: readonly string[]) {
    const { transcodes } = await records.read();
    const held = (id: string | null): id is string => id !== null && (only === undefined || only.includes(id));
    const ids = [...new Set(Object.values(transcodes).flatMap((e) => ((e.status === 'running' || e.status === 'queued') && held(e.job_id) ? [e.job_id] : [])))];
    if (ids.length > 0 && !deps.jobOutcomes) throw new Error('settling the transcodes needs the queue: no jobOutcomes given');
    const outcomes = ids.length > 0 ? await deps.jobOutcomes!(ids) : new Map<string, JobOutcome | null>();
    const stranded = strandedTranscodes(transcodes, outcomes, Date.now());
    if (stranded.length > 0) {
      await store.applyToJobs(stranded.map((t) => ({ type: 'settle', job_id: t.job_id, error: t.error })));
      logger.warn({ stranded }, 'marked failed the transcodes no job will finish');
    }
    const cfg = config();
    for (const [path, e] of Object.entries(transcodes)) {
      if (e.status !== 'done' || e.original !== 'kept' || !held(e.job_id) || !(await originalGone(path, e.output, cfg))) continue;
      // Refused when the entry changed meanwhile: what changed it stands.
      await store.apply(path, { type: 'original_removed', job_id: e.job_id }).then(
        () => logger.warn({ path }, 'the original of a finished transcode is gone; its entry now says removed'),
        () => {},
      );
    }
  }

  const settleQuietly = (only?: readonly string[]) =>
    settle(only).catch((err: Error) => logger.warn({ err: err.message }, 'could not check the running transcodes'));

  const pause = queuePauseSync(deps);

  return {
    /** One delivery of a transcode job: what its entry's record says decides what it does. */
    async run(item: Item, ctx: JobContext): Promise<JobResult<'transcode-run'>> {
      const cfg = config();
      try {
        deps.refuseInDryRun(cfg, `the transcode of ${item.path}`);
      } catch (err) {
        throw final(err);
      }
      const { transcodes, transcoder_paused } = await records.read();
      const record = Object.hasOwn(transcodes, item.path) ? transcodes[item.path] : undefined;
      const attempt = jobAttempt(item.path, record, ctx.jobId, transcoder_paused);
      if (attempt.kind === 'refuse') throw final(new AppError(attempt.refusal.code, attempt.refusal.message));
      // The queue's own pause keeps workers from taking jobs; this catches a job taken as the pause
      // came, or after a Redis that lost the pause (the records keep it).
      if (attempt.kind === 'wait') return ctx.defer(deps.pausedRetryMs ?? PAUSED_RETRY_MS);
      if (attempt.kind !== 'finished') return transcode(item, ctx, cfg, attempt.resumedOutput);
      // Its work is done and nothing is removed now, whatever keep_original says; but a worker
      // killed between removing the original and recording that left an entry to set right.
      if (record?.original === 'kept' && (await originalGone(item.path, attempt.output, cfg))) {
        await store.apply(item.path, { type: 'original_removed', job_id: ctx.jobId });
      }
      const result = {
        item: { ...item, status: 'done' as const },
        output: attempt.output,
        command: [],
        encoder: null,
        dropped: [],
        original_removed: false,
        original_recycled_to: null,
      };
      return { ...result, before: null, after: null, seconds: null };
    },

    settle,

    /**
     * Pauses or resumes the queue itself as the records say: at a worker's start, and after a Redis
     * that lost its keys, it may say otherwise. Returns the change made, or null.
     */
    syncQueuePause: pause.sync,

    /** syncQueuePause one at a time, never throwing: what it cannot do now a later call does. */
    syncQueuePauseQuietly: pause.quietly,

    /** Settles when a transcode job fails for good: the worker that saw it fail may be the only one told. */
    onFailed: (jobId: string) => settleQuietly([jobId]),

    /**
     * Settles now and every `everyMs`: the worker that sees a stalled job fail may itself be killed
     * before it can record it. Returns the stop.
     */
    keepSettled(everyMs: number): () => void {
      const timer = setInterval(() => void settleQuietly(), everyMs);
      void settleQuietly();
      return () => clearInterval(timer);
    },

    /** Syncs the queue's pause now and every `everyMs` (a Redis flushed or restarted empty meanwhile). Returns the stop. */
    keepQueuePauseSynced: pause.keep,
  };
}

export type TranscodeRunService = ReturnType<typeof transcodeRunService>;
