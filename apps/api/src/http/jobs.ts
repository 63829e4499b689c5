import type { Context } from 'hono';
import { AppError, type JobClient } from '@mo/core';
import type { ScanJobOutcome } from '@mo/core/scanner';
import type { JobName, JobPayload } from '@mo/shared';
import { errorResponse } from './errors.ts';

export const DEFAULT_WAIT_SECONDS = 30;
export const MAX_WAIT_SECONDS = 300;

const JSON_NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

export function waitSeconds(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_WAIT_SECONDS;
  // A JSON number (exponents included), leading zeros allowed; Number() alone would also take
  // "0x10", "0b1", " 5", "+5", ".5", "5." and "Infinity".
  const n = JSON_NUMBER.test(raw) ? Number(raw) : NaN;
  if (!(n >= 0 && n <= MAX_WAIT_SECONDS)) {
    throw new AppError('bad_request', `wait: must be a number of seconds from 0 to ${MAX_WAIT_SECONDS}`, { key: 'wait' });
  }
  // "-0" is a JSON number too; the wait is a plain 0.
  return n === 0 ? 0 : n;
}

export function statusUrl(queue: string, id: string): string {
  return `/api/jobs/${queue}/${encodeURIComponent(id)}`;
}

/**
 * Every job-backed POST answers through here: the job's result when it finishes within `?wait=`
 * (`opts.wait`, as the route's declared query read it), otherwise 202 with where to follow it.
 */
export async function runJob<N extends Exclude<JobName, 'transcode-run'>>(
  c: Context,
  jobs: JobClient,
  name: N,
  payload: JobPayload<N>,
  opts: { wait: number; onCompleted?: () => Promise<void> },
) {
  const outcome = await jobs.submit(name, payload, { waitSeconds: opts.wait });
  if (outcome.kind === 'completed') await opts.onCompleted?.();
  return answerJob(c, outcome);
}

/** A submitted job's answer: its result, its failure with the worker's own code, or 202 with where to follow it. */
export function answerJob(c: Context, outcome: ScanJobOutcome) {
  switch (outcome.kind) {
    case 'completed':
      return c.json(outcome.result as object, 200);
    case 'failed':
      // The file changed or vanished since the request was checked: the worker's own code (409, 404, …).
      return errorResponse(c, outcome.code ?? 'internal', `job ${outcome.job.queue}/${outcome.job.id} failed: ${outcome.error}`, {
        job: outcome.job,
        status_url: statusUrl(outcome.job.queue, outcome.job.id),
      });
    case 'pending':
      return c.json({ job: outcome.job, status_url: statusUrl(outcome.job.queue, outcome.job.id) }, 202);
  }
}
