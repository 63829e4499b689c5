import type { TranscodeStatus } from '@mo/shared';

/** What the queue says of a transcode job; null when it no longer has the job. */
export interface JobOutcome {
  state: string;
  reason: string | null;
}

export interface StrandedTranscode {
  path: string;
  job_id: string | null;
  error: string;
}

/**
 * How long a claimed entry may wait for its job id: the API claims an entry, then queues the job
 * and writes the id, within a second or two unless it died in between.
 */
export const CLAIM_GRACE_MS = 10 * 60_000;

/**
 * The queue entries marked `running` that nothing will ever finish: their job failed where no
 * handler saw it (stalled too often after its workers died, and the worker that gave up on it was
 * killed before it could say so), their job is gone, or the API died between claiming the entry
 * and queueing its job. `outcomes` holds what the queue said of each running entry's job id.
 */
export function strandedTranscodes(
  transcodes: Readonly<Record<string, TranscodeStatus>>,
  outcomes: ReadonlyMap<string, JobOutcome | null>,
  nowMs: number,
): StrandedTranscode[] {
  const out: StrandedTranscode[] = [];
  for (const [path, e] of Object.entries(transcodes)) {
    if (e.status !== 'running') continue;
    if (e.job_id === null) {
      if (nowMs - Date.parse(e.updated_at) > CLAIM_GRACE_MS) out.push({ path, job_id: null, error: 'never queued: the API stopped between claiming the entry and queueing its job' });
      continue;
    }
    if (!outcomes.has(e.job_id)) continue;
    const outcome = outcomes.get(e.job_id)!;
    if (outcome === null) out.push({ path, job_id: e.job_id, error: `job transcode/${e.job_id} is no longer in the queue` });
    else if (outcome.state === 'failed') out.push({ path, job_id: e.job_id, error: outcome.reason ?? 'failed' });
  }
  return out;
}
