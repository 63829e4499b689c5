import { randomBytes } from 'node:crypto';
import type { Config, JobPayload, JobState, QueueName, State, TranscodeProgress } from '@mo/shared';
import { transcodeProgressSchema } from '@mo/shared';
import { AppError } from '../errors.ts';
import type { Logger } from '../logging/logger.ts';
import type { MediaProbe } from '../media/probe.ts';
import { transcodePlan } from '../media/transcode-command.ts';
import { mp4PathFor } from '../media/transcode.ts';
import { verifyOutput } from '../media/verify.ts';
import { workTempPath } from '../media/work-journal.ts';
import { bullPriority, nextEntry, PRIORITY_LIMIT, topPriority, type TranscodeRecord } from './transcode-entries.ts';
import type { Claimed, TranscodeStore } from './transcode-store.ts';
import type { TranscoderFiles } from './transcoder-files.ts';
import { claimable, listingOf, type TranscodeEntry } from './transcoder-queue.ts';

/** Jobs added to, or removed from, the queue in one round trip. */
export const QUEUE_BATCH = 200;

/** How many entries a run-all dry run probes and lists: each costs an ffprobe. */
export const RUN_ALL_DRY_RUN_LIMIT = 100;

export const PAUSED = 'the transcode queue is paused; resume it first';

export interface QueuedJob {
  id: string;
  queue: QueueName;
  state: JobState;
}

/** The transcode queue as the service needs it: no queue library's types cross this line. */
export interface TranscodeJobs {
  /** Queues jobs with the ids and priorities their entries were claimed with, in one round trip. */
  queue(jobs: readonly { payload: JobPayload<'transcode-run'>; jobId: string; priority: number }[]): Promise<QueuedJob[]>;
  /** Removes the named jobs that have not started; returns the ids removed. */
  removeWaiting(ids: readonly string[]): Promise<string[]>;
  setPaused(paused: boolean): Promise<void>;
  progressOf(ids: readonly string[]): Promise<Map<string, unknown>>;
  /** The job's state; null when the queue does not have it. */
  stateOf(id: string): Promise<JobState | null>;
  reprioritize(id: string, priority: number): Promise<boolean>;
  /** Asks whoever runs the job to stop it, and a waiting one not to start; throws when the queue is out of reach. */
  cancel(id: string): Promise<void>;
}

/**
 * The records of the queue and the pause flag: read fresh before a decision, current for a listing.
 * `current()` must include this process's own writes through the store (the runtime config's do).
 */
export interface TranscodeRecords {
  read(): Promise<Pick<State, 'transcodes' | 'transcoder_paused'>>;
  current(): Pick<State, 'transcodes' | 'transcoder_paused'>;
}

/** The records as a process's runtime config holds them: the one wiring of the API's routes and the worker's handler. */
export function runtimeTranscodeRecords(config: { readonly state: { read(): Promise<State> }; currentState(): State }): TranscodeRecords {
  return { read: () => config.state.read(), current: () => config.currentState() };
}

export interface TranscoderServiceDeps {
  config: () => Config;
  /** The transcode queue as the library index derives it. */
  queue: () => Promise<TranscodeEntry[]>;
  records: TranscodeRecords;
  store: TranscodeStore;
  jobs: TranscodeJobs;
  probe: (file: string) => Promise<MediaProbe>;
  files: TranscoderFiles;
  logger: Logger;
}

export type PriorityRequest = { path: string; priority: number } | { path: string; top: true };

export interface DryRunItem {
  item: TranscodeEntry & { status: 'queued' };
  command: string[] | null;
  error: string | null;
}

type VerifiedRecord = TranscodeRecord & { output: string; after: NonNullable<TranscodeRecord['after']> };

function jobItem(entry: TranscodeEntry) {
  return { ...entry, status: 'queued' as const };
}

async function inQueue(deps: TranscoderServiceDeps, path: string): Promise<TranscodeEntry> {
  const entry = (await deps.queue()).find((e) => e.path === path);
  if (!entry) throw new AppError('not_found', `${path} is not in the transcode queue`);
  return entry;
}

async function dryRunCommand(deps: TranscoderServiceDeps, cfg: Config, entry: TranscodeEntry) {
  const file = await deps.files.guard(entry.path, cfg, cfg.library.video_extensions);
  const temp = workTempPath(mp4PathFor(file.real), 'transcode', randomBytes(6).toString('hex'));
  return transcodePlan(await deps.probe(file.real), { encoder: cfg.transcoder.video_encoder, src: file.real, tmp: temp });
}

/**
 * Queues the claimed entries' jobs, a batch at a time so that each round trip fits Redis's
 * deadline however long the queue. The entries of a batch that cannot be queued, and of every
 * batch after it, are given back; none queued at all is the caller's error.
 */
async function queueClaimed({ jobs, store, logger }: TranscoderServiceDeps, claimed: Claimed[]) {
  const queued: QueuedJob[] = [];
  for (let i = 0; i < claimed.length; i += QUEUE_BATCH) {
    const batch = claimed.slice(i, i + QUEUE_BATCH);
    try {
      queued.push(...(await jobs.queue(batch.map((c) => ({ payload: { item: jobItem(c.entry) }, jobId: c.job_id, priority: bullPriority(c.priority) })))));
    } catch (err) {
      await store.unclaim(claimed.slice(i));
      if (queued.length === 0) throw err;
      logger.warn({ err: (err as Error).message, queued: queued.length, given_back: claimed.length - i }, 'run-all queued only part of the queue');
      break;
    }
  }
  return queued;
}

/** Progress as the worker reports it; what Redis holds is read like any other input. */
async function readProgress(jobs: TranscodeJobs, ids: string[]): Promise<Map<string, TranscodeProgress>> {
  if (ids.length === 0) return new Map();
  const raw = await jobs.progressOf(ids).catch(() => new Map<string, unknown>());
  const out = new Map<string, TranscodeProgress>();
  for (const [id, value] of raw) {
    const parsed = transcodeProgressSchema.safeParse(value);
    if (parsed.success) out.set(id, parsed.data);
  }
  return out;
}

/** The progress of the running entries' jobs, read from the queue at most once a second. */
function progressOfRunning({ records, jobs }: TranscoderServiceDeps): () => Promise<Map<string, TranscodeProgress>> {
  // Progress changes every second while something runs: read at most once a second.
  let progress: { at: number; ids: string; map: Map<string, TranscodeProgress> } = { at: 0, ids: '', map: new Map() };
  return async () => {
    const ids = Object.values(records.current().transcodes).flatMap((e) => (e.status === 'running' && e.job_id !== null ? [e.job_id] : []));
    const key = ids.join();
    if (key !== progress.ids || Date.now() - progress.at > 1000) progress = { at: Date.now(), ids: key, map: await readProgress(jobs, ids) };
    return progress.map;
  };
}

/** Claims the next entry and queues its job; a dry run says what it would run instead. */
async function runNext(deps: TranscoderServiceDeps) {
  const { config, queue, records, store } = deps;
  const cfg = config();
  if (cfg.app.dry_run) {
    const next = claimable(await queue(), records.current().transcodes)[0];
    if (!next) return { kind: 'none' as const };
    const plan = await dryRunCommand(deps, cfg, next);
    return { kind: 'dry_run' as const, item: jobItem(next), command: plan.argv, dropped: plan.dropped };
  }
  if ((await records.read()).transcoder_paused) throw new AppError('conflict', PAUSED);
  const [claimed] = await store.claim(await queue(), 1);
  if (!claimed) return { kind: 'none' as const };
  const [job] = await queueClaimed(deps, [claimed]);
  return { kind: 'queued' as const, item: jobItem(claimed.entry), job: job! };
}

/** The first entries run-all would claim, each with its command or why it has none. */
async function dryRunAll(deps: TranscoderServiceDeps, cfg: Config) {
  const next = claimable(await deps.queue(), deps.records.current().transcodes);
  const items: DryRunItem[] = [];
  for (const entry of next.slice(0, RUN_ALL_DRY_RUN_LIMIT)) {
    const planned = await dryRunCommand(deps, cfg, entry).then(
      (plan) => ({ command: plan.argv, error: null }),
      (err: Error) => ({ command: null, error: err.message }),
    );
    items.push({ item: jobItem(entry), ...planned });
  }
  return { kind: 'dry_run' as const, items, total: next.length };
}

/**
 * One job per claimable entry, in run order. While paused the jobs are queued all the same:
 * the workers hold them back until resume. A dry run lists the first entries' commands.
 */
async function runAll(deps: TranscoderServiceDeps, opts: { expect?: number }) {
  const cfg = deps.config();
  if (cfg.app.dry_run) return dryRunAll(deps, cfg);
  const { transcoder_paused: paused, transcodes } = await deps.records.read();
  // The owner was asked about `expect` files: never queue others than that many.
  if (opts.expect !== undefined) {
    const waiting = claimable(await deps.queue(), transcodes).length;
    if (waiting !== opts.expect) {
      throw new AppError(
        'conflict',
        `The line changed: ${waiting.toLocaleString('en')} files wait to be queued now, not the ${opts.expect.toLocaleString('en')} asked about. Nothing was queued; ask again.`,
        { reason: 'changed', key: 'expect', waiting },
      );
    }
  }
  const claimed = await deps.store.claim(await deps.queue(), opts.expect ?? Number.POSITIVE_INFINITY);
  if (claimed.length === 0) return { kind: 'queued' as const, jobs: [], paused };
  const queued = await queueClaimed(deps, claimed);
  return { kind: 'queued' as const, jobs: queued.map((job, i) => ({ path: claimed[i]!.entry.path, job })), paused };
}

/**
 * Removes the waiting jobs of the entries that hold one, a batch at a time so that each round
 * trip fits Redis's deadline, and puts those entries back in line. A batch Redis cannot be
 * reached for ends the work; none removed at all is the caller's error.
 */
async function cancelAll({ records, jobs, store, logger }: TranscoderServiceDeps): Promise<number> {
  const ids = Object.values((await records.read()).transcodes).flatMap((e) => (e.status === 'queued' && e.job_id !== null ? [e.job_id] : []));
  const removed: string[] = [];
  for (let i = 0; i < ids.length; i += QUEUE_BATCH) {
    try {
      removed.push(...(await jobs.removeWaiting(ids.slice(i, i + QUEUE_BATCH))));
    } catch (err) {
      if (removed.length === 0) throw err;
      logger.warn({ err: (err as Error).message, cancelled: removed.length, left: ids.length - i }, 'cancel-all cancelled only part of the waiting jobs');
      break;
    }
  }
  // A job removed before it started did nothing to the file: its entry simply waits again.
  await store.applyToJobs(removed.map((job_id) => ({ type: 'settle', job_id, error: 'cancelled' })));
  return removed.length;
}

/** Cancels one job wherever it runs; a waiting one never reaches the handler that would record it. */
async function cancel({ jobs, store }: TranscoderServiceDeps, id: string) {
  const state = await jobs.stateOf(id);
  if (state === null) throw new AppError('not_found', `no job transcode/${id}`);
  if (state === 'completed' || state === 'failed') throw new AppError('conflict', `job transcode/${id} has already ${state}`);
  await jobs.cancel(id);
  await store.applyToJobs([{ type: 'cancel', job_id: id }]);
  return { id, queue: 'transcode' as const, state };
}

async function retry(deps: TranscoderServiceDeps, path: string) {
  const entry = await inQueue(deps, path);
  const before = (await deps.records.read()).transcodes[path];
  const job_id = before?.status === 'failed' ? before.job_id : null;
  const job_state = job_id !== null ? await deps.jobs.stateOf(job_id) : null;
  await deps.store.apply(path, { type: 'retry', job_id, job_state });
  return jobItem(entry);
}

async function prioritize(deps: TranscoderServiceDeps, req: PriorityRequest) {
  const { queue, records, store, jobs } = deps;
  await inQueue(deps, req.path);
  const { transcodes } = await records.read();
  const wanted = 'top' in req ? topPriority(transcodes, req.path) : req.priority;
  if (wanted === null) throw new AppError('conflict', `another entry holds the highest priority (${PRIORITY_LIMIT}) already; lower it first`);
  const current = transcodes[req.path];
  // The waiting job moves first: should Redis be out of reach, nothing has changed.
  if (current?.status === 'queued' && current.job_id !== null) await jobs.reprioritize(current.job_id, bullPriority(wanted));
  await store.apply(req.path, { type: 'prioritize', priority: wanted });
  return listingOf(req.path, await queue(), records.current().transcodes)!;
}

/** Pauses or resumes the queue, one call at a time: interleaved, BullMQ's pause could end the other way than the records'. */
function pauseSteering({ jobs, store, logger }: TranscoderServiceDeps): (paused: boolean) => Promise<{ paused: boolean }> {
  async function applyPause(paused: boolean) {
    // The queue's own pause, once set, holds every job back until lifted, and nothing else lifts
    // it: a resume that cannot reach Redis changes nothing.
    if (!paused) await jobs.setPaused(false);
    await store.setPaused(paused);
    // The records are what count (a worker defers a job it takes while paused); the queue's own
    // pause only spares the workers taking jobs they would put back.
    if (paused) await jobs.setPaused(true).catch((err: Error) => logger.warn({ err: err.message }, 'could not pause the transcode queue in Redis'));
    return { paused };
  }
  let steering: Promise<unknown> = Promise.resolve();
  return (paused) => {
    const next = steering.then(() => applyPause(paused));
    steering = next.catch(() => {});
    return next;
  };
}

/** The original, once its MP4 is in place, apart from it, and still what the transcode verified. */
async function checkedOriginal({ files, probe }: TranscoderServiceDeps, cfg: Config, path: string, entry: VerifiedRecord) {
  const original = await files.guard(path, cfg, cfg.library.video_extensions).catch((err: unknown) => {
    if (err instanceof AppError && err.code === 'not_found') throw new AppError('conflict', `${path}: the original is gone already`);
    throw err;
  });
  const output = await files.guard(entry.output, cfg, ['.mp4']);
  const [stamp, placed] = await Promise.all([files.identity(original.real), files.identity(output.real)]);
  // Removing the original must never remove the MP4: its name may now lead to the MP4 itself.
  if (stamp.dev === placed.dev && stamp.ino === placed.ino)
    throw new AppError('conflict', `${path} is the MP4 ${entry.output} itself now; nothing was removed`);
  const [source, made] = await Promise.all([probe(original.real), probe(output.real)]);
  const expected = {
    streams: entry.after.streams.map((s) => ({ type: s.type as 'video', codec: s.codec, language: s.language, default: s.default })),
    duration_seconds: source.duration_seconds,
    container: 'mp4',
  };
  const problems = verifyOutput(expected, made);
  if (problems.length > 0)
    throw new AppError('conflict', `${entry.output} no longer matches what the transcode verified (${problems.join('; ')}); the original stays`);
  return { real: original.real, ino: stamp.ino };
}

/**
 * Removes the original a transcode kept, only once the MP4 still matches what the transcode
 * verified; a dry run says what it would remove.
 */
async function discardOriginal(deps: TranscoderServiceDeps, path: string) {
  const { config, queue, records, store, files } = deps;
  await inQueue(deps, path);
  const cfg = config();
  const entry = (await records.read()).transcodes[path];
  const allowed = nextEntry(path, entry, { type: 'discard_original' }, new Date().toISOString());
  if (!allowed.ok) throw new AppError(allowed.refusal.code, allowed.refusal.message);
  if (!entry?.output || !entry.after) throw new AppError('conflict', `${path}: its record holds no verified output to check; the original stays`);
  const original = await checkedOriginal(deps, cfg, path, entry as VerifiedRecord);
  const listed = () => queue().then((all) => listingOf(path, all, records.current().transcodes)!);
  if (cfg.app.dry_run) return { dry_run: true, item: await listed(), removed: original.real, recycled_to: null };
  const removal = await files.remove(original.real, original.ino, cfg);
  if (!removal.removed) throw new AppError('conflict', `${path} stays: ${removal.reason}`);
  await store.apply(path, { type: 'discard_original', recycled_to: removal.recycled_to });
  return { dry_run: false, item: await listed(), removed: original.real, recycled_to: removal.recycled_to };
}

/**
 * What the transcoder does for its callers (the API's routes): every rule about claiming, queueing,
 * pausing, cancelling and discarding an original, over ports, so that a route is its schema and one
 * call, and these rules are tested without HTTP, Redis or real files.
 */
export function transcoderService(deps: TranscoderServiceDeps) {
  return {
    progressOfRunning: progressOfRunning(deps),
    runNext: () => runNext(deps),
    /** `expect`: the number of entries the owner was told of; another number is a 409 and nothing is queued. */
    runAll: (opts: { expect?: number } = {}) => runAll(deps, opts),
    cancelAll: () => cancelAll(deps),
    cancel: (id: string) => cancel(deps, id),
    retry: (path: string) => retry(deps, path),
    prioritize: (req: PriorityRequest) => prioritize(deps, req),
    setPaused: pauseSteering(deps),
    discardOriginal: (path: string) => discardOriginal(deps, path),
  };
}

export type TranscoderService = ReturnType<typeof transcoderService>;
