import { z } from 'zod';
import { jobAboutSchema } from '../jobs/job-about.ts';
import { qualitySchema, storedQuality } from '../media/quality.ts';
import {
  appSection,
  drivesSection,
  librarySection,
  metadataSection,
  notifyTargetSchema,
  pathsSection,
  releaseProvidersSection,
  themeSection,
  transcoderSection,
  HISTORY_MODES,
} from '../config/schema.ts';
import {
  droppedStreamSchema,
  JOB_STATES,
  librarySummarySchema,
  libraryOrganizeResultSchema,
  moveSchema,
  passCountsSchema,
  passSummarySchema,
  planSchema,
  scanResultSchema,
  sidecarMoveSchema,
  skippedSchema,
  streamSchema,
  mediaSnapshotSchema,
  transcodeItemSchema,
  transcodeProgressSchema,
} from '../jobs/catalogue.ts';
import { QUEUE_NAMES } from '../jobs/queues.ts';
import { ERROR_CODES } from './errors.ts';
import { recycleTotalsSchema } from './recycle.ts';

// The answers of CONTRACT.md as schemas: the OpenAPI document is generated from them and the tests
// check real answers against them. Objects are not strict: CONTRACT.md lets fields be added.

const iso = z.string().describe('ISO-8601 UTC time');
const nullableIso = iso.nullable();

export const healthResponse = z.object({ ok: z.literal(true) });
export const readyResponse = z.object({
  ok: z.boolean(),
  redis: z.enum(['up', 'down']),
  hardlinks: z
    .record(z.string(), z.boolean())
    .describe('Per drive name: whether a hard link from the downloads folder reaches it (false: another filesystem, or a separate mount of the same one)'),
});

export const HEALTH_WARNING_CODES = [
  'drive-missing',
  'drive-empty',
  'drive-low-space',
  'queue-without-worker',
  'redis-memory',
  'provider-failing',
  'pass-failed',
] as const;
export const healthWarning = z.object({
  code: z.enum(HEALTH_WARNING_CODES),
  subject: z.string().describe("What it is about: a drive's or a queue's name, `redis`, `tvmaze`, `scan-pass`"),
  message: z.string().describe('What is wrong and what to do, in a sentence or two'),
});
export const systemHealthResponse = z.object({
  warnings: z.array(healthWarning).describe('Each problem a person can act on; empty when there is none'),
});

const runtimeSettings = {
  app: appSection.omit({ api_key: true }),
  paths: pathsSection,
  drives: drivesSection,
  library: librarySection,
  metadata: metadataSection,
  theme: themeSection,
  release_providers: releaseProvidersSection,
  notifications: z.object({ targets: z.array(notifyTargetSchema.omit({ api_key: true, token: true, secret: true })) }),
};
export const publicConfigResponse = z.object({ ...runtimeSettings, transcoder: transcoderSection });
export const settingsResponse = z.object({ settings: z.object(runtimeSettings) });

export const jobRefSchema = z.object({ id: z.string(), queue: z.enum(QUEUE_NAMES), state: z.enum(JOB_STATES) });
export const jobAcceptedResponse = z.object({ job: jobRefSchema, status_url: z.string() });
export const transcodeCancelResponse = z.object({ cancelled: z.literal(true), job: jobRefSchema, status_url: z.string() });
export const jobViewResponse = z.object({
  id: z.string(),
  queue: z.enum(QUEUE_NAMES),
  name: z.string(),
  state: z.enum(JOB_STATES),
  progress: z.unknown(),
  result: z.unknown(),
  error: z.string().nullable(),
  /** For a job that failed on input a retry would not fix: the API's error code (conflict, not_found, …). */
  error_code: z.enum(ERROR_CODES).nullable(),
  created_at: nullableIso,
  finished_at: nullableIso,
});

export const scanResponse = scanResultSchema;

/** GET /api/jobs: how many it answers unless `limit` says otherwise, and the most it answers. */
export const JOB_LIST_DEFAULT = 50;
export const JOB_LIST_MAX = 200;

/** One job of GET /api/jobs: its view without the result, which can be large; the whole job is at GET /api/jobs/:queue/:id. */
export const jobListItemSchema = jobViewResponse.omit({ result: true }).extend({
  /** When a worker last took it up; null while it has never run. */
  started_at: nullableIso,
  /** A finished scanner pass: dry run and counts; null for every other job. */
  summary: passSummarySchema.omit({ pass_file: true }).nullable(),
  /** What the job works on, from its payload, so that a page names it by its file, movie or series. */
  about: jobAboutSchema,
});
export const jobListResponse = z.object({ jobs: z.array(jobListItemSchema) });

/** GET /api/scan/passes: how many passes it answers unless `limit` says otherwise, and the most. */
export const PASS_LIST_DEFAULT = 20;
export const PASS_LIST_MAX = 50;
/** The most entries of each list (plans, moves, skipped) one pass answers with. */
export const PASS_ENTRIES_MAX = 200;

/** A scanner pass as its pass file keeps it, each list cut to PASS_ENTRIES_MAX entries. */
export const scanPassSchema = z.object({
  /** The scan job's id: GET /api/jobs/scan/:id while Redis still keeps the job. */
  id: z.string(),
  dry_run: z.boolean(),
  started_at: iso,
  finished_at: iso,
  counts: passCountsSchema,
  plans: z.array(planSchema),
  moves: z.array(moveSchema),
  skipped: z.array(skippedSchema),
  /** Entries of each list left out of this answer. */
  truncated: z.object({ plans: z.number().int(), moves: z.number().int(), skipped: z.number().int() }),
});
export const scanPassesResponse = z.object({ passes: z.array(scanPassSchema) });
export const libraryScanResponse = z.object({ summary: librarySummarySchema });

/**
 * What a paged GET /api/library (any of q, kind, drive, missing, sort, order, limit, offset) adds to
 * each movie and series; the answer without them has none of it, as it always had.
 */
const catalogFields = {
  /** Newest modification time of its files, as the index holds them. */
  added: nullableIso.optional(),
  /** A poster or folder image lies in its folder: GET /api/library/picture?folder= serves it. */
  picture: z.boolean().optional(),
  /** What it lacks, as far as the index tells: picture, subtitles, episodes (gaps in a season's numbers). */
  missing: z.array(z.enum(['picture', 'subtitles', 'episodes'])).optional(),
};

export const libraryResponse = z.object({
  summary: librarySummarySchema,
  movies: z.array(
    z.object({
      title: z.string(),
      year: z.number().int().nullable(),
      folder: z.string(),
      drive: z.string(),
      files: z.number().int(),
      bytes: z.number(),
      ...catalogFields,
    }),
  ),
  series: z.array(
    z.object({
      title: z.string(),
      folder: z.string(),
      drive: z.string(),
      seasons: z.array(
        z.object({
          season: z.number().int(),
          episodes: z.array(z.number().int()),
          /** The dated episodes of a daily show (YYYY-MM-DD), where the season has any. */
          air_dates: z.array(z.string()).optional(),
        }),
      ),
      episode_count: z.number().int(),
      files: z.number().int(),
      bytes: z.number(),
      ...catalogFields,
    }),
  ),
  /** Only in a paged answer: which page this is, and how many of each kind match. */
  page: z
    .object({
      offset: z.number().int(),
      /** Null: no limit was asked for. */
      limit: z.number().int().nullable(),
      sort: z.enum(['title', 'size', 'added']),
      order: z.enum(['asc', 'desc']),
      /** Movies and series matching q, drive and missing, whatever kind asks for. */
      total: z.object({ movies: z.number().int(), series: z.number().int() }),
      /** The drives that hold a movie or series, for a filter. */
      drives: z.array(z.string()),
    })
    .optional(),
});

/** GET /api/library/files?folder=: the indexed files of one movie or series folder, for the UI's file pages. */
export const libraryFilesResponse = z.object({
  folder: z.string(),
  scanned_at: nullableIso,
  files: z.array(
    z.object({
      path: z.string(),
      bytes: z.number(),
      ext: z.string(),
      type: z.enum(['video', 'subtitle', 'nfo', 'other']),
      season: z.number().int().nullable(),
      episodes: z.array(z.number().int()),
      extra: z.boolean(),
    }),
  ),
});

/** In the order they would run: each changes only the last segment of its path, a folder's files before the folder. */
const organizeRenames = z.array(
  z.object({
    from: z.string(),
    to: z.string(),
    kind: z.enum(['movie', 'episode', 'folder']),
    reason: z.string(),
  }),
);

/** GET /api/library/organize: the renames that give the library the templates' names, from the cached index. */
export const libraryOrganizeResponse = z.object({ scanned_at: nullableIso, renames: organizeRenames });

/** POST /api/library/organize with dry run on: the renames chosen, none carried out. */
export const libraryOrganizeDryRunResponse = z.object({ dry_run: z.literal(true), renames: organizeRenames });

/** POST /api/library/organize: the renames chosen (dry run), or what its job renamed and skipped. */
export const libraryOrganizeAnswer = z.union([libraryOrganizeDryRunResponse, libraryOrganizeResultSchema]);

export const dashboardResponse = z.object({
  dry_run: z.boolean(),
  state: z.object({
    last_scan_at: nullableIso,
    last_library_scan_at: nullableIso,
    /** Plans and moves kept in the recent list (what GET /api/downloads shows of them is under the downloads folder). */
    recent_count: z.number().int(),
  }),
  drives: z.array(
    z.object({
      name: z.string(),
      path: z.string(),
      total_bytes: z.number().nullable(),
      free_bytes: z.number().nullable(),
      used_bytes: z.number().nullable(),
      available: z.boolean(),
    }),
  ),
  library: librarySummarySchema.pick({ files: true, bytes: true, movies: true, series: true, episodes: true, scanned_at: true }),
  extensions: z.record(z.string(), z.object({ count: z.number().int(), bytes: z.number() })),
  /** Beyond CONTRACT.md: the drives' recycle bins as last counted (listed, recycled into, restored, emptied, purged); null before. */
  recycle: recycleTotalsSchema,
});

const parsedMedia = z.object({
  kind: z.enum(['movie', 'episode']),
  title: z.string(),
  year: z.number().int().nullable(),
  season: z.number().int().nullable(),
  episodes: z.array(z.number().int()).nullable(),
  air_date: z.string().nullable(),
  /** Episodes: the country code of a remade series (`US` for The.Office.US), else null. */
  country: z.string().nullable().optional(),
  /** What the name says of its quality. */
  quality: storedQuality,
});

/** Where a download went, by the import history: the import that is not undone. */
export const importedRefSchema = z.object({ id: z.number().int(), destination: z.string(), at: iso });

/** A file of the downloads folder as the last scanner pass saw (and saved) it. */
export const listedFileSchema = z.object({ path: z.string(), bytes: z.number(), modified_at: iso, settled: z.boolean(), media: parsedMedia.nullable() });

/** A file of GET /api/downloads: as listed, and whether the history holds it as imported. */
export const downloadFileSchema = listedFileSchema.extend({ imported: importedRefSchema.nullable() });

/** One import of the history (GET /api/history), newest first. */
export const historyItemSchema = z.object({
  id: z.number().int(),
  at: iso,
  /** `rename`: a library file or folder renamed in place by POST /api/library/organize (source: its old path). */
  mode: z.enum(HISTORY_MODES),
  /** How the video got there: `link`, or `copy` where hardlink mode met another filesystem. */
  method: z.enum(['rename', 'link', 'copy']),
  source: z.string(),
  destination: z.string(),
  bytes: z.number(),
  sidecars: z.array(sidecarMoveSchema),
  /** The scanner pass (its `started_at`). */
  pass: z.string(),
  undone_at: nullableIso,
  /**
   * What the media servers were told, once the notify job of its pass (`imported`) or of its undo
   * (`undone`) ended; the latest wins. null: not yet, or none was sent.
   */
  notified: z
    .object({
      event: z.enum(['imported', 'undone']),
      at: iso,
      /** The targets told, by name. */
      told: z.array(z.string()),
      /** Target name → why it could not be told, after the job's last attempt. */
      failed: z.record(z.string(), z.string()),
    })
    .nullable(),
  /**
   * An upgrade: the library file it replaced (`path`) and where that went in the recycle bin
   * (`recycled_to`), its sidecars likewise; undo puts them back. null: it replaced nothing.
   */
  replaced: z.object({ path: z.string(), recycled_to: z.string(), sidecars: z.array(z.object({ path: z.string(), recycled_to: z.string() })) }).nullable(),
});

export const historyResponse = z.object({
  items: z.array(historyItemSchema),
  /** The `before` of the next page; null on the last one. */
  next: z.number().int().nullable(),
});

export const undoResponse = z.object({
  dry_run: z.boolean(),
  id: z.number().int(),
  /** Each file taken back, `from` its library path `to` its download path: `moved_back`, or a link or copy `removed` (the download stays). */
  restored: z.array(z.object({ from: z.string(), to: z.string(), action: z.enum(['moved_back', 'removed']) })),
  /** An upgrade's undo: each replaced file put back, `from` its recycle bin path `to` its library path. */
  from_recycle_bin: z.array(z.object({ from: z.string(), to: z.string() })),
});

export const downloadsResponse = z.object({
  files: z.array(downloadFileSchema),
  /** When the scanner pass that listed `files` walked the folder; null before the first pass. */
  scanned_at: nullableIso,
  /** Files were left out: more than the listing keeps, or deeper than it goes. */
  truncated: z.boolean(),
  recent: z.array(z.object({ type: z.enum(['plan', 'move']), source: z.string(), destination: z.string(), at: iso, status: z.string() })),
});

export const releaseSchema = z.object({
  series: z.string(),
  season: z.number().int(),
  episode: z.number().int(),
  status: z.enum(['missing', 'upcoming']),
  air_date: z.string().nullable(),
  title: z.string().nullable(),
  source: z.string(),
});

/** How one enabled release provider fared for this answer: its failures are reported here, not as an error. */
export const providerStatusSchema = z.object({
  name: z.string(),
  ok: z.boolean(),
  /** The first failure, naming the series; null when none failed. */
  error: z.string().nullable(),
  shows: z.number().int(),
  matched: z.number().int(),
  unmatched: z.number().int(),
  failed: z.number().int(),
  /** Series not looked up yet: over this answer's limit or time, or still under way. */
  pending: z.number().int(),
});

export const releasesResponse = z.object({
  /** When the library index the gaps come from was built; null before the first library scan. */
  scanned_at: nullableIso,
  releases: z.array(releaseSchema),
  /** One entry per enabled provider; empty when none is enabled. */
  providers: z.array(providerStatusSchema),
});

export const probeResponse = z.object({
  path: z.string(),
  container: z.string().nullable(),
  duration_seconds: z.number().nullable(),
  size_bytes: z.number(),
  streams: z.array(streamSchema),
});

export const tracksDryRunResponse = z.object({ dry_run: z.literal(true), path: z.string(), command: z.array(z.string()) });
export const tracksResultResponse = z.object({
  dry_run: z.literal(false),
  path: z.string(),
  command: z.array(z.string()),
  streams: z.array(streamSchema),
  /** Where the file as it was lies in its drive's recycle bin (`library.recycle_bin`); null when it was not kept. */
  original_recycled_to: z.string().nullable(),
});

export const subtitlesResponse = z.object({
  scanned_at: nullableIso,
  total: z.number().int(),
  missing: z.array(
    z.object({
      path: z.string(),
      kind: z.enum(['movie', 'episode']).nullable(),
      title: z.string().nullable(),
      season: z.number().int().nullable(),
      episode: z.number().int().nullable(),
    }),
  ),
});

export const transcodeListingSchema = transcodeItemSchema.extend({
  /** Place in line among the entries still to run (1 runs next); null once running, done or failed. */
  position: z.number().int().nullable(),
  /** Higher runs first. */
  priority: z.number().int(),
  /** The job that holds the entry: waiting, running, or the last one that ran it. */
  job_id: z.string().nullable(),
  progress: transcodeProgressSchema.nullable(),
  error: z.string().nullable(),
  output: z.string().nullable(),
  /** Once done: whether the original still lies beside the output (`keep_original`). */
  original: z.enum(['kept', 'removed']).nullable(),
  /** Once removed: where the original went in its drive's recycle bin (`library.recycle_bin`); null when deleted or kept. */
  original_recycled_to: z.string().nullable(),
  result: z.object({ before: mediaSnapshotSchema, after: mediaSnapshotSchema, seconds: z.number().nullable() }).nullable(),
});

export const transcoderResponse = z.object({
  scanned_at: nullableIso,
  /** While true no transcode starts; running ones finish. */
  paused: z.boolean(),
  queue: z.array(transcodeListingSchema),
});

/** Nothing queued: `{"item": null}`, whether dry run is on or off. */
export const runNextNothingResponse = z.object({ item: z.null() });
export const runNextDryRunResponse = z.object({
  dry_run: z.literal(true),
  item: transcodeItemSchema,
  command: z.array(z.string()),
  /** Streams MP4 cannot carry, which the transcode would leave out, with why. */
  dropped: z.array(droppedStreamSchema),
});
export const runNextStartedResponse = z.object({ item: transcodeItemSchema, job: jobRefSchema, status_url: z.string() });
export const runNextResponse = z.union([runNextNothingResponse, runNextDryRunResponse, runNextStartedResponse]);

/** POST /api/tools/transcoder/retry: the path exactly as GET /api/tools/transcoder lists it. */
export const transcodeRetryBody = z.strictObject({ path: z.string().min(1) });
export const transcodeRetryResponse = z.object({ item: transcodeItemSchema });

/** POST /api/tools/transcoder/priority: a priority (higher runs first), or `top` for before every other entry. */
export const transcodePriorityBody = z.union([
  z.strictObject({ path: z.string().min(1), priority: z.number().int().min(-1_000_000).max(1_000_000) }),
  z.strictObject({ path: z.string().min(1), top: z.literal(true) }),
]);
export const transcodePriorityResponse = z.object({ item: transcodeListingSchema });
export const transcodePausedResponse = z.object({ paused: z.boolean() });
export const runAllDryRunResponse = z.object({
  dry_run: z.literal(true),
  items: z.array(z.object({ item: transcodeItemSchema, command: z.array(z.string()).nullable(), error: z.string().nullable() })),
  /** Entries that would be queued; only the first ones are listed with their command. */
  total: z.number().int(),
});
export const runAllStartedResponse = z.object({
  queued: z.number().int(),
  jobs: z.array(z.object({ path: z.string(), job: jobRefSchema, status_url: z.string() })),
  /** The queue is paused: the jobs wait until it is resumed. */
  paused: z.boolean(),
});
/** POST /api/tools/transcoder/cancel-all: the waiting jobs ended; their entries are back in line. */
export const transcodeCancelAllResponse = z.object({ cancelled: z.number().int().nonnegative() });
/** POST /api/tools/transcoder/discard-original: the path as the queue lists it. */
export const discardOriginalBody = z.strictObject({ path: z.string().min(1) });
export const discardOriginalResponse = z.object({
  dry_run: z.boolean(),
  item: transcodeListingSchema,
  removed: z.string().nullable(),
  /** Where the original went in its drive's recycle bin (`library.recycle_bin`); null when it was deleted, and in a dry run. */
  recycled_to: z.string().nullable(),
});

export const duplicatesResponse = z.object({
  scanned_at: nullableIso,
  movies: z.array(
    z.object({
      title: z.string(),
      year: z.number().int().nullable(),
      copies: z.array(
        z.object({
          folder: z.string(),
          drive: z.string(),
          files: z.number().int(),
          bytes: z.number(),
          /** What the name of its main video (or else its folder) says of its quality; null where it says nothing. */
          quality: qualitySchema.nullable(),
        }),
      ),
    }),
  ),
  series: z.array(
    z.object({
      title: z.string(),
      copies: z.array(z.object({ folder: z.string(), drive: z.string(), episode_count: z.number().int() })),
    }),
  ),
});

// The owner's account (routes under /api/auth/). Lengths are checked again by the service.
const secret = z.string().max(1024);
export const authSetupBody = z.strictObject({ token: z.string().max(200), username: z.string().max(256), password: secret });
export const authLoginBody = z.strictObject({ username: z.string().max(256), password: secret });
export const authPasswordBody = z.strictObject({ current_password: secret, new_password: secret });
export const authApiKeyBody = z.strictObject({ password: secret, regenerate: z.boolean().optional() });
export const authSessionResponse = z.object({ username: z.string(), expires_at: z.string() });
export const authStatusResponse = z.object({
  owner: z.boolean(),
  authenticated: z.boolean(),
  via: z.enum(['key', 'session', 'local']).nullable(),
  username: z.string().nullable(),
  auth: z.enum(['required', 'local_open']),
});
export const authApiKeyResponse = z.object({ api_key: z.string(), source: z.enum(['config', 'generated']) });
export const authLogoutResponse = z.object({ ok: z.literal(true) });
export const openSessionSchema = z.object({
  id: z.string().describe('Names the session in /api/auth/sessions/{id}/end; not the cookie, and the cookie cannot be worked out from it'),
  created_at: iso,
  last_seen_at: iso.describe('ISO-8601 UTC time of its last use, recorded at most once a minute'),
  address: z.string().nullable().describe('The client address it was last used from ("<forwarded> via <proxy>" through a proxy)'),
  user_agent: z.string().nullable().describe('Browser and system ("Firefox 128 on Linux"), or a script\'s first product token'),
  current: z.boolean().describe("The session this request's cookie holds"),
});
export const authSessionsResponse = z.object({ sessions: z.array(openSessionSchema) });
export const authSessionEndResponse = z.object({ ended: z.literal(true) });
