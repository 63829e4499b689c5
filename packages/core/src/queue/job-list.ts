import type { z } from 'zod';
import type { jobListItemSchema, JobState } from '@mo/shared';

export type JobListItem = z.infer<typeof jobListItemSchema>;

/**
 * The BullMQ lists that hold the jobs of each state of CONTRACT.md: every kind of waiting is
 * `waiting` (as contractState reads them).
 */
export const BULL_TYPES_OF_STATE: Record<JobState, readonly string[]> = {
  waiting: ['waiting', 'prioritized', 'waiting-children', 'paused'],
  active: ['active'],
  delayed: ['delayed'],
  completed: ['completed'],
  failed: ['failed'],
};

/** When the job last changed: finished, else taken up by a worker, else added. */
export function lastChangeMs(job: Pick<JobListItem, 'created_at' | 'started_at' | 'finished_at'>): number {
  const at = job.finished_at ?? job.started_at ?? job.created_at;
  return at === null ? 0 : Date.parse(at);
}

/**
 * The newest `limit` jobs of several BullMQ lists, newest first by their last change. Each list
 * was read in its own order up to `limit`: newest first for the finished, active and plain waiting
 * ones, so the newest of those are all here; prioritized and delayed jobs come by priority and by
 * due time, near enough for recent jobs. A job read twice (it moved from one list to the next
 * between the reads) counts once, as first read.
 */
export function newestJobs(found: readonly JobListItem[], limit: number): JobListItem[] {
  const seen = new Set<string>();
  const unique = found.filter((j) => {
    const key = `${j.queue}\0${j.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique
    .map((job, order) => ({ job, order, at: lastChangeMs(job) }))
    .sort((a, b) => b.at - a.at || a.order - b.order)
    .slice(0, Math.max(0, limit))
    .map(({ job }) => job);
}
