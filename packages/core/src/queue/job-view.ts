import type { ErrorCode, JobState, QueueName } from '@mo/shared';

export interface JobView {
  id: string;
  queue: QueueName;
  name: string;
  state: JobState;
  progress: unknown;
  result: unknown;
  error: string | null;
  error_code: ErrorCode | null;
  created_at: string | null;
  finished_at: string | null;
}

/** What the queue says of a job; null when it no longer has the job. */
export interface JobOutcome {
  state: string;
  reason: string | null;
}

/** BullMQ has more states than the contract; the extra ones are all kinds of waiting. */
export function contractState(bullState: string): JobState | null {
  switch (bullState) {
    case 'active':
    case 'delayed':
    case 'completed':
    case 'failed':
      return bullState;
    case 'waiting':
    case 'prioritized':
    case 'waiting-children':
    case 'paused':
      return 'waiting';
    default:
      return null;
  }
}

export function isoOrNull(ms: number | undefined | null): string | null {
  return typeof ms === 'number' && ms > 0 ? new Date(ms).toISOString() : null;
}
