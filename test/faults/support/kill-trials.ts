// The SIGKILL trial loop shared by every job kind: a fresh worker process per trial, a job, a kill
// at a random moment while the job runs, then checks on the originals, the retry of the killed job
// by the next worker, and what the next completed job leaves on disk.
import type { RunningProcess } from '@mo/test-support/service';
import { fastForwardStalls } from '@mo/test-support/redis';
import { jobFinal, jobRecord, jobStarted, kill, logLines, sleep, startWorker } from './jobs.ts';
import type { Rng } from '@mo/test-support/prng';

export interface Check {
  /** Originals (by path) with no intact copy left: neither the original bytes nor a verified result. */
  lost: string[];
  /** Originals or results (by path) present with other bytes than expected. */
  changed: string[];
  /** What was found, for the summary ("copying", "placed", …). */
  /** Requirements unmet once the job that handled them ended (not moved after a completed pass, a status that lies, …). */
  unsettled?: string[];
  phases?: string[];
  details?: string[];
}

export interface KindSpec {
  name: string;
  queue: string;
  port: number;
  redisUrl: string;
  prefix: string;
  workerEnv: Record<string, string>;
  /** Puts trial i's originals in place. */
  prepare(i: number): Promise<void>;
  /** Submits trial i's job; returns its id. */
  submit(i: number): Promise<string>;
  /**
   * Trial i's originals. `settled` is the final state of the last job that handled them when it
   * ended (completed/failed), null right after a kill, 'final' once every job has ended.
   */
  check(i: number, settled: Settled): Promise<Check>;
  /** Temp files and journal entries that must be gone once a job has completed. */
  leftovers(): Promise<string[]>;
  /** After a kill: age what only time clears besides BullMQ's keys (lockfiles of the dead worker). */
  afterKill?(): Promise<void>;
  /** Once every trial is done, with a live worker: a last pass, if the kind needs one. */
  finish?(): Promise<void>;
}

export type Settled = 'completed' | 'failed' | null | 'final';

export interface TrialStats {
  trials: number;
  firstAttemptKills: number;
  retryKills: number;
  calibrationMs: number;
  delayWindowMs: [number, number];
  delays: number[];
  /** Distinct originals lost or changed, over every check. */
  lost: Set<string>;
  changed: Set<string>;
  unsettled: Set<string>;
  checks: number;
  /** Leftovers found after a job had completed (must be 0). */
  leftovers: string[];
  phases: Record<string, number>;
  jobs: Map<string, { state: string; error: string | null }>;
  details: string[];
  naturalRecoveryMs: number | null;
}

function tally(stats: TrialStats, c: Check) {
  stats.checks++;
  for (const x of c.lost) stats.lost.add(x);
  for (const x of c.changed) stats.changed.add(x);
  for (const x of c.unsettled ?? []) stats.unsettled.add(x);
  for (const p of c.phases ?? []) stats.phases[p] = (stats.phases[p] ?? 0) + 1;
  for (const d of c.details ?? []) if (stats.details.length < 30) stats.details.push(d);
}

/** Wall time of the handler, from the worker's own "job started" and "job completed" lines. */
function handlerMs(w: RunningProcess, id: string): number | null {
  const lines = logLines(w).filter((l) => String(l.job_id) === id);
  const start = lines.find((l) => l.msg === 'job started')?.time;
  const end = lines.find((l) => l.msg === 'job completed')?.time;
  return typeof start === 'number' && typeof end === 'number' ? end - start : null;
}

/**
 * Trial 0 runs unkilled and calibrates the kill window: delays are drawn uniformly from 50 ms to
 * 1.3 × that job's duration (at least 250 ms, at most 1500 ms), so the kills land across the whole
 * job. Every sixth trial kills the retry of the previous trial's job instead of a new job, which
 * sends that job past BullMQ's maxStalledCount: it must end failed, with a reason.
 * `natural`: the last kill is left to BullMQ's own timers (no fast-forward).
 */
export async function runKillTrials(spec: KindSpec, opts: { trials: number; rng: Rng; natural?: boolean }): Promise<TrialStats> {
  const stats: TrialStats = {
    trials: 0,
    firstAttemptKills: 0,
    retryKills: 0,
    calibrationMs: 0,
    delayWindowMs: [50, 1500],
    delays: [],
    lost: new Set(),
    changed: new Set(),
    unsettled: new Set(),
    checks: 0,
    leftovers: [],
    phases: {},
    jobs: new Map(),
    details: [],
    naturalRecoveryMs: null,
  };
  const settle = async (id: string, ms: number) => {
    const rec = await jobFinal(spec.port, spec.queue, id, ms);
    stats.jobs.set(id, rec ? { state: rec.state, error: rec.error } : { state: 'lost', error: null });
    return rec;
  };
  const leftoversNow = async (when: string) => {
    // A worker's start-up sweep runs beside its first job; give it a moment.
    let left = await spec.leftovers();
    for (let k = 0; k < 20 && left.length > 0; k++) {
      await sleep(100);
      left = await spec.leftovers();
    }
    for (const l of left) stats.leftovers.push(`${when}: ${l}`);
  };
  const delay = () => {
    const [lo, hi] = stats.delayWindowMs;
    const d = Math.round(lo + opts.rng.next() * (hi - lo));
    stats.delays.push(d);
    return d;
  };
  const afterKill = async (id: string, natural: boolean): Promise<boolean> => {
    const rec = await jobRecord(spec.port, spec.queue, id).catch(() => null);
    await spec.afterKill?.();
    if (rec && (rec.state === 'completed' || rec.state === 'failed')) {
      stats.jobs.set(id, { state: rec.state, error: rec.error });
      return false;
    }
    if (!natural) await fastForwardStalls(spec.redisUrl, spec.prefix, spec.queue);
    return true;
  };

  let pending: { id: string; trial: number } | null = null;
  for (let i = 0; i < opts.trials; i++) {
    const w = await startWorker(spec.workerEnv);
    try {
      if (pending) {
        if (i % 6 === 5) {
          // Kill the retry: the second stall of one job.
          await jobStarted(w, pending.id, 60_000);
          await sleep(delay());
          await kill(w);
          stats.retryKills++;
          stats.trials++;
          tally(stats, await spec.check(pending.trial, null));
          if (!(await afterKill(pending.id, false))) {
            tally(stats, await spec.check(pending.trial, stats.jobs.get(pending.id)!.state as 'completed'));
            pending = null;
          }
          continue;
        }
        const rec = await settle(pending.id, 60_000);
        tally(stats, await spec.check(pending.trial, rec ? (rec.state as 'completed' | 'failed') : null));
        if (!rec) stats.details.push(`job ${pending.id} of trial ${pending.trial} neither completed nor failed within 60 s after a new worker started`);
        if (rec?.state === 'completed') await leftoversNow(`after the retry of trial ${pending.trial}`);
        pending = null;
      }
      await spec.prepare(i);
      const id = await spec.submit(i);
      if (i === 0) {
        const rec = await settle(id, 120_000);
        if (rec?.state !== 'completed')
          throw new Error(`${spec.name}: the calibration job ended ${rec?.state ?? 'nowhere'}: ${rec?.error ?? ''}\n${w.output().slice(-3000)}`);
        stats.calibrationMs = handlerMs(w, id) ?? 500;
        stats.delayWindowMs = [50, Math.min(1500, Math.max(250, Math.round(stats.calibrationMs * 1.3)))];
        tally(stats, await spec.check(0, 'completed'));
        await leftoversNow('after the calibration job');
        await w.stop('SIGTERM');
        continue;
      }
      await jobStarted(w, id, 60_000);
      await sleep(delay());
      await kill(w);
      stats.firstAttemptKills++;
      stats.trials++;
      tally(stats, await spec.check(i, null));
      const natural = !!opts.natural && i === opts.trials - 1;
      if (await afterKill(id, natural)) pending = { id, trial: i };
      else {
        const state = stats.jobs.get(id)!.state as 'completed' | 'failed';
        tally(stats, await spec.check(i, state));
        if (state === 'completed') await leftoversNow(`after trial ${i}, whose job completed before the kill`);
      }
    } finally {
      if (w.proc.exitCode === null && w.proc.signalCode === null) await w.stop('SIGKILL');
    }
  }

  // A last worker, with nothing aged for it when the run is "natural": BullMQ's own timers.
  const w = await startWorker(spec.workerEnv);
  try {
    if (pending) {
      const t0 = Date.now();
      const rec = await settle(pending.id, opts.natural ? 150_000 : 60_000);
      if (opts.natural) stats.naturalRecoveryMs = Date.now() - t0;
      tally(stats, await spec.check(pending.trial, rec ? (rec.state as 'completed' | 'failed') : null));
      if (!rec) stats.details.push(`job ${pending.id} of trial ${pending.trial} was never retried nor failed`);
    }
    try {
      await spec.finish?.();
    } catch (err) {
      stats.details.push(`the last pass: ${(err as Error).message}`);
    }
    for (let i = 0; i < opts.trials; i++) tally(stats, await spec.check(i, 'final'));
    await leftoversNow('after the last pass');
    // Every job this kind created ended with a record: completed, or failed with a reason.
    for (const [id, j] of stats.jobs) {
      if (j.state !== 'completed' && j.state !== 'failed') {
        const rec = await settle(id, 30_000);
        if (!rec) stats.details.push(`job ${id}: ${j.state}`);
      }
    }
  } finally {
    await w.stop('SIGTERM');
  }
  return stats;
}

export function jobCounts(stats: TrialStats) {
  let completed = 0;
  let failedWithReason = 0;
  let lost = 0;
  const reasons = new Set<string>();
  for (const j of stats.jobs.values()) {
    if (j.state === 'completed') completed++;
    else if (j.state === 'failed' && j.error) {
      failedWithReason++;
      reasons.add(j.error.slice(0, 80));
    } else lost++;
  }
  return { completed, failedWithReason, lost, reasons: [...reasons] };
}
