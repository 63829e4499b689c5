import type { Schemas } from '@mo/api-client';
import { episodeCode, fileName, languageName } from '../components/format.ts';
import type { LiveJob } from './live.ts';

export type ListedJob = Schemas['JobListItem'];
export type JobAbout = ListedJob['about'];

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
  /** Null for a job only the event stream has told of yet: the list, fetched again at once, has it. */
  about: JobAbout | null;
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
    about: null,
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

/** What a manual import says the download is: "Heat (1995)", "The Office S01E02", "The Daily Show 2024-01-02". */
function importedAs(a: JobAbout): string | null {
  if (!a.title) return null;
  if (a.kind === 'movie') return a.year ? `${a.title} (${a.year})` : a.title;
  if (a.air_date) return `${a.title} ${a.air_date}`;
  const code = episodeCode(a.season, a.episodes);
  return code ? `${a.title} ${code}` : a.title;
}

function trackEdit(a: JobAbout, file: string | null): string {
  const t = a.track;
  const of = file ? ` of ${file}` : '';
  if (!t) return `Track edit${of}`;
  const language = languageName(t.language);
  const stream = `${t.type ?? 'stream'}${t.type ? ' stream' : ''} ${t.index}${language ? ` (${language})` : ''}`;
  if (t.action === 'remove') return `Remove ${stream}${file ? ` from ${file}` : ''}`;
  if (t.action === 'set_default') return `Make ${stream} the default${of}`;
  return `Track edit${of}`;
}

function notice(a: JobAbout, file: string | null): string {
  const more = a.imports !== null && a.imports > 1 ? ` and ${(a.imports - 1).toLocaleString('en')} more` : '';
  const what = file ? `${file}${more}` : a.imports !== null ? `${a.imports.toLocaleString('en')} imports` : null;
  if (a.undone) return what ? `Tell media servers of the undone import of ${what}` : 'Tell media servers of an undone import';
  return what ? `Tell media servers of ${what}` : 'Tell media servers of new imports';
}

/**
 * A job as a person names it: what it does to which file, movie or series, never its id alone.
 * Works from the job's name and what its payload is about; a job the stream told of before the
 * list had it (about null) is named by its kind until the list comes. The periodic pass's ids
 * (`repeat:periodic-scan-pass:…`) say it is the scheduled one even before then.
 */
export function jobTitle(job: Pick<JobRow, 'queue' | 'id' | 'name' | 'about'>): string {
  const a = job.about;
  const file = a?.path ? fileName(a.path) : null;
  const trigger = a?.trigger ?? (job.id.startsWith('repeat:') ? 'schedule' : null);
  switch (job.name) {
    case 'scan-pass':
      return trigger === 'schedule' ? 'Scheduled downloads scan' : trigger === 'watch' ? 'Downloads scan (new files)' : 'Downloads scan';
    case 'library-scan':
      return trigger === 'schedule' ? 'Scheduled library scan' : 'Library scan';
    case 'recycle-purge':
      return 'Recycle bin purge';
    case 'library-organize':
      return file ? `Rename ${file} to the naming templates` : 'Rename library files to the naming templates';
    case 'transcode-run':
      return file ? `Transcode ${file} to MP4` : a?.title ? `Transcode of ${a.title} to MP4` : 'Transcode to MP4';
    case 'media-tracks':
      return a ? trackEdit(a, file) : 'Track edit';
    case 'manual-import': {
      const as = a ? importedAs(a) : null;
      return `Import ${file ?? 'a download'}${as ? ` as ${as}` : ''}`;
    }
    case 'notify':
      return a ? notice(a, file) : 'Tell media servers of new imports';
    default:
      // A job this page does not know (a newer worker's): its own name, or its queue's.
      return job.name || `A job of the ${job.queue} queue`;
  }
}
