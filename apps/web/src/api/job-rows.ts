import type { Schemas } from '@mo/api-client';
import type { LiveJob } from './live.ts';

export type ListedJob = Schemas['JobListItem'];

/** A row of Activity's jobs table: the job as GET /api/jobs listed it, or as the event stream told of it since. */
export interface JobRow {
  queue: string;
  id: string;
  name: string;
  state: string;
  progress?: unknown;
  error: string | null;
  started_at: string | null;
  finished_at: string | null;
  summary: ListedJob['summary'];
}

function fromLive(job: LiveJob): JobRow {
  return {
    queue: job.queue,
    id: job.id,
    name: job.name,
    state: job.state,
    progress: job.progress,
    error: job.error ?? null,
    started_at: null,
    finished_at: null,
    summary: null,
  };
}

/**
 * The listed jobs with what the event stream said after the list was fetched (`listedAt`, ms):
 * a newer event's state, progress and error win over the list's, and jobs the list does not hold
 * yet come first, newest first. Older events say nothing the list does not.
 */
export function mergeJobs(listed: readonly ListedJob[], listedAt: number, live: readonly LiveJob[]): JobRow[] {
  const news = new Map(live.filter((j) => j.at > listedAt).map((j) => [`${j.queue}:${j.id}`, j]));
  const rows = listed.map((job): JobRow => {
    const key = `${job.queue}:${job.id}`;
    const event = news.get(key);
    news.delete(key);
    if (!event) return job;
    return { ...job, state: event.state, progress: event.progress ?? job.progress, error: event.error ?? job.error };
  });
  const unlisted = [...news.values()].sort((a, b) => b.at - a.at).map(fromLive);
  return [...unlisted, ...rows];
}

/**
 * Seconds a job ran: to its end, or until `now` while it runs; null when it has not run, or waits
 * for another attempt (its start is the last attempt's).
 */
export function runSeconds(row: Pick<JobRow, 'state' | 'started_at' | 'finished_at'>, now: number): number | null {
  if (!row.started_at) return null;
  if (row.finished_at) return Math.max(0, (Date.parse(row.finished_at) - Date.parse(row.started_at)) / 1000);
  return row.state === 'active' ? Math.max(0, (now - Date.parse(row.started_at)) / 1000) : null;
}
