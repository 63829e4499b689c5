import type { TranscodeStatus } from '@mo/shared';
import type { JobOutcome } from '../queue/job-view.ts';

export interface StrandedTranscode {
  path: string;
  job_id: string;
  error: string;
}

/**
 * How long a claimed entry may wait for its job to appear: the API claims an entry, then queues
 * its job within a second or two, unless it died in between.
 */
export const CLAIM_GRACE_MS = 10 * 60_000;

/**
 * The entries holding a job that nothing will ever finish: the job failed where no handler saw it
 * (stalled too often after its workers died, and the worker that gave up on it was killed before
 * it could say so), or the queue no longer has it (lost with a Redis that keeps nothing, or the
 * API died between claiming the entry and queueing its job). `outcomes` holds what the queue said
 * of each job asked about.
 */
export function strandedTranscodes(
  transcodes: Readonly<Record<string, TranscodeStatus>>,
  outcomes: ReadonlyMap<string, JobOutcome | null>,
  nowMs: number,
): StrandedTranscode[] {
  const out: StrandedTranscode[] = [];
  for (const [path, e] of Object.entries(transcodes)) {
    if (e.job_id === null || (e.status !== 'running' && e.status !== 'queued') || !outcomes.has(e.job_id)) continue;
    const outcome = outcomes.get(e.job_id)!;
    if (outcome === null) {
      if (e.status === 'queued' && nowMs - Date.parse(e.updated_at) <= CLAIM_GRACE_MS) continue;
      out.push({ path, job_id: e.job_id, error: `job transcode/${e.job_id} is no longer in the queue` });
    } else if (outcome.state === 'failed') {
      out.push({ path, job_id: e.job_id, error: outcome.reason ?? 'failed' });
    }
  }
  return out;
}
