import type { Schemas } from '@mo/api-client';
import type { LiveEventName } from '@mo/shared';

export type Queue = Schemas['JobListItem']['queue'];

/**
 * Every query key of the UI. TanStack Query matches an invalidation by prefix, so a family's `all()`
 * also makes its narrower keys stale (`library.all()` covers `library.files(folder)`); a key written
 * anywhere else could miss the live-event tables below without a type error.
 */
export const queryKeys = {
  auth: () => ['auth'] as const,
  sessions: () => ['sessions'] as const,
  config: () => ['config'] as const,
  themeCss: () => ['theme-css'] as const,
  dashboard: () => ['dashboard'] as const,
  ready: () => ['ready'] as const,
  systemHealth: () => ['system-health'] as const,
  workers: () => ['workers'] as const,
  library: {
    /** GET /api/library, and the prefix of every library query. */
    all: () => ['library'] as const,
    files: (folder: string) => ['library', 'files', folder] as const,
    /** One page of GET /api/library, by its query (JSON). */
    page: (query: string) => ['library', 'page', query] as const,
    /** The movie or series holding a path (GET /api/library?holding=). */
    holding: (path: string) => ['library', 'holding', path] as const,
    /** GET /api/library/organize: read from the index, so stale whenever the library is. */
    organize: () => ['library', 'organize'] as const,
  },
  releases: () => ['releases'] as const,
  subtitles: () => ['subtitles'] as const,
  duplicates: () => ['duplicates'] as const,
  recycle: () => ['recycle'] as const,
  transcoder: () => ['transcoder'] as const,
  probe: {
    all: () => ['probe'] as const,
    file: (path: string) => ['probe', path] as const,
  },
  jobs: {
    all: () => ['jobs'] as const,
    /** `''`: every queue. */
    list: (queue: Queue | '') => ['jobs', queue] as const,
    /** GET /api/jobs/{queue}/{id}, by `queue/id`. */
    one: (ref: string) => ['jobs', 'one', ref] as const,
  },
  scanPasses: () => ['scan-passes'] as const,
  history: () => ['history'] as const,
  downloads: () => ['downloads'] as const,
  importsPending: () => ['imports-pending'] as const,
};

export type QueryKey = readonly string[];

/**
 * The events of GET /api/events that only say something changed (`snapshot` and `job` carry more):
 * an event the server adds needs its row in STALE_BY_EVENT before the UI typechecks.
 */
export type NewsEvent = Exclude<LiveEventName, 'snapshot' | 'job'>;

/** The queries each kind of news makes stale. */
export const STALE_BY_EVENT: Record<NewsEvent, readonly QueryKey[]> = {
  settings: [queryKeys.config(), queryKeys.dashboard()],
  library: [queryKeys.library.all(), queryKeys.dashboard(), queryKeys.releases(), queryKeys.subtitles(), queryKeys.transcoder(), queryKeys.duplicates()],
  transcode: [queryKeys.transcoder()],
};

/** The queries a finished (completed or failed) job of each queue makes stale. */
export const STALE_BY_QUEUE: Record<Queue, readonly QueryKey[]> = {
  scan: [queryKeys.downloads(), queryKeys.dashboard(), queryKeys.scanPasses(), queryKeys.history(), queryKeys.importsPending()],
  // A purge (library queue) changes the bin; organize's renames are history items.
  library: [...STALE_BY_EVENT.library, queryKeys.recycle(), queryKeys.history()],
  // What the media servers were told shows in each import's history.
  notify: [queryKeys.history()],
  transcode: [queryKeys.transcoder()],
  media: [queryKeys.probe.all()],
};

/** What a finished job makes stale; a queue this build does not know makes nothing stale. */
export function staleAfterJob(queue: string): readonly QueryKey[] {
  return Object.hasOwn(STALE_BY_QUEUE, queue) ? STALE_BY_QUEUE[queue as Queue] : [];
}
