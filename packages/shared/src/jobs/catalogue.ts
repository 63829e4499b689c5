import { z } from 'zod';
import type { QueueName } from './queues.ts';
import { aliasSchema, TRANSFER_MODES } from '../config/schema.ts';
import { manualImportPayloadSchema } from './manual-import.ts';
import { qualitySchema, storedQuality } from '../media/quality.ts';

const nullableString = z.string().nullable();

export const sidecarMoveSchema = z.object({ source: z.string(), destination: z.string() });

/** A reading of a download's name the scanner weighed, the library folder it fits, and where it would go. */
export const candidateSchema = z.object({
  kind: z.enum(['movie', 'episode']),
  title: z.string(),
  year: z.number().int().nullable(),
  season: z.number().int().nullable(),
  episodes: z.array(z.number().int()),
  absolute_episodes: z.array(z.number().int()),
  air_date: nullableString,
  /** Absolute path of the library folder this reading fits, or null. */
  folder: nullableString,
  /** Where the download would go under this reading, or null where it cannot be named (no season). */
  destination: nullableString,
  /** What the download's name says of its quality. */
  quality: storedQuality,
});

export const planSchema = z.object({
  source: z.string(),
  destination: z.string(),
  kind: z.enum(['movie', 'episode']),
  title: z.string(),
  year: z.number().int().nullable(),
  season: z.number().int().nullable(),
  episodes: z.array(z.number().int()).nullable(),
  air_date: nullableString,
  drive: nullableString,
  sidecars: z.array(sidecarMoveSchema),
  /** What the download's name says of its quality. */
  quality: storedQuality,
  /** The readings weighed, where the name read more than one way. */
  candidates: z.array(candidateSchema).optional(),
  /**
   * The library file this download replaces (an upgrade, or a manual import's `replace`), with
   * what its name or probed picture says of its quality; it goes to the recycle bin first. Absent
   * or null: none.
   */
  replaces: z.object({ path: z.string(), quality: qualitySchema }).nullable().optional(),
});

export const moveSchema = planSchema.extend({
  /** Pass files written before transfer modes existed hold moves. */
  mode: z.enum(TRANSFER_MODES).default('move'),
  /** How the video got there, when it did: `copy` in hardlink mode means another filesystem. */
  method: z.enum(['rename', 'link', 'copy']).optional(),
  status: z.enum(['moved', 'failed']),
  error: z.string().optional(),
  /** An upgrade: the library file it replaced and where that went in the recycle bin. Pass files older than upgrades lack it. */
  replaced: z.object({ path: z.string(), recycled_to: z.string() }).nullable().default(null),
});

export const SKIP_REASONS = ['settling', 'partial', 'sample', 'unrecognized', 'exists', 'no_drive', 'ambiguous', 'imported', 'undone'] as const;

/** `detail` is optional so that a client validating against CONTRACT.md's `{source, reason}` still passes. */
export const skippedSchema = z.object({
  source: z.string(),
  reason: z.enum(SKIP_REASONS),
  detail: z.string().optional(),
  /** `unrecognized` and `ambiguous` videos: the readings weighed, the best first, for `Import as…`. */
  candidates: z.array(candidateSchema).optional(),
});

export const scanResultSchema = z.object({
  dry_run: z.boolean(),
  started_at: z.string(),
  finished_at: z.string(),
  plans: z.array(planSchema),
  moves: z.array(moveSchema),
  skipped: z.array(skippedSchema),
  /**
   * A pass over chosen downloads alone (`POST /api/scan/import`): its lists say nothing of the
   * other files, so what waits for the owner is read from the last whole pass. Absent otherwise.
   */
  chosen: z.literal(true).optional(),
});

/** How many files a pass planned, moved, failed to move and skipped. */
export const passCountsSchema = z.strictObject({
  plans: z.number().int(),
  moved: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
});

/**
 * What a finished pass keeps in Redis: a pass's plans run to hundreds of bytes a file, kept for
 * every pass of the week, so the full result lives in `pass_file` (under paths.data) and the
 * API reads it back for its answers.
 */
export const passSummarySchema = z.strictObject({
  dry_run: z.boolean(),
  started_at: z.string(),
  finished_at: z.string(),
  counts: passCountsSchema,
  /** Relative to paths.data. */
  pass_file: z.string(),
});

export const librarySummarySchema = z.object({
  files: z.number().int(),
  bytes: z.number(),
  movies: z.number().int(),
  series: z.number().int(),
  episodes: z.number().int(),
  scanned_at: nullableString,
  duration_ms: z.number().nullable(),
  truncated: z.boolean(),
  timed_out: z.boolean(),
});

export const streamSchema = z.object({
  index: z.number().int(),
  type: z.enum(['video', 'audio', 'subtitle']),
  codec: nullableString,
  language: nullableString,
  title: nullableString,
  default: z.boolean(),
  forced: z.boolean(),
  channels: z.number().int().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});

export const trackActionSchema = z.strictObject({
  path: z.string(),
  action: z.enum(['set_default', 'remove']),
  stream: z.number().int().min(0),
});

/** One stream of a file as a transcode's before/after record keeps it. */
export const streamBriefSchema = z.object({
  index: z.number().int(),
  type: z.string(),
  codec: z.string().nullable(),
  language: z.string().nullable(),
  default: z.boolean(),
});
/** A file's size and streams, before or after a transcode. */
export const mediaSnapshotSchema = z.object({ bytes: z.number(), streams: z.array(streamBriefSchema) });
export type MediaSnapshot = z.infer<typeof mediaSnapshotSchema>;

/** A running transcode's progress, as its job reports it. */
export const transcodeProgressSchema = z.object({
  /** 0-100 of the source's duration; null when the duration is unknown. */
  percent: z.number().nullable(),
  /** Times real time. */
  speed: z.number().nullable(),
  out_time_seconds: z.number(),
  /** Seconds left at the current speed; null until both are known. */
  eta_seconds: z.number().nullable(),
  encoder: nullableString,
});
export type TranscodeProgress = z.infer<typeof transcodeProgressSchema>;

const transcodeItemShape = {
  path: z.string(),
  ext: z.string(),
  bytes: z.number(),
  kind: z.enum(['movie', 'episode']).nullable(),
  title: nullableString,
  status: z.enum(['queued', 'running', 'done', 'failed']),
};

export const transcodeItemSchema = z.object(transcodeItemShape);

/** The extension of a path as the library index records it: lower case, with its dot. */
function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/**
 * A transcode job's item, as run-next makes it from the transcoder queue: an entry not yet in MP4
 * (an MP4 would be written over itself), whose extension is its path's, handed over `queued`.
 * Nothing else: where the output goes and whether the original stays are the worker's config.
 */
export const transcodeJobItemSchema = z
  .strictObject({ ...transcodeItemShape, status: z.literal('queued') })
  .refine((item) => item.ext !== '' && item.ext === extensionOf(item.path), { message: 'ext must be the extension of path', path: ['ext'] })
  .refine((item) => item.ext !== '.mp4', { message: 'a file already in MP4 is never transcoded', path: ['ext'] });

/**
 * A track job carries the streams the API saw, so that a worker can tell "not yet done" from
 * "already done" (a job delivered twice) from "the file changed since" before it touches anything.
 */
export const trackJobPayloadSchema = trackActionSchema.extend({ before: z.array(z.strictObject(streamSchema.shape)) });

export const droppedStreamSchema = z.object({
  index: z.number().int(),
  type: z.string(),
  codec: nullableString,
  reason: z.string(),
});

/** Minimal structural subset of BullMQ's JobsOptions, so this package needs no BullMQ types. */
export interface JobDefaults {
  attempts: number;
  backoff?: { type: 'exponential' | 'fixed'; delay: number };
  removeOnComplete: { age: number; count: number };
  removeOnFail: { age: number; count: number };
}

export interface JobDefinition<P extends z.ZodType, R extends z.ZodType> {
  queue: QueueName;
  payload: P;
  result: R;
  defaults: JobDefaults;
  /** While one such job is waiting or active, another request joins it instead of adding a second. */
  joinRunning: boolean;
}

const DAY = 86_400;
const keep = { removeOnComplete: { age: 7 * DAY, count: 1000 }, removeOnFail: { age: 30 * DAY, count: 1000 } };

/**
 * Pass files kept under <paths.data>/passes; Redis keeps fewer finished passes than that, so that
 * every pass whose job record is still there has its file.
 */
export const PASS_FILES_KEPT = 200;
const keepPasses = { removeOnComplete: { age: 7 * DAY, count: 100 }, removeOnFail: { age: 30 * DAY, count: 100 } };

/** The job scheduler of the periodic scanner pass: the one job that may carry repeat options. */
export const SCAN_SCHEDULER_ID = 'periodic-scan-pass';
/** The job scheduler of the daily recycle bin purge. */
export const RECYCLE_PURGE_SCHEDULER_ID = 'daily-recycle-purge';

function define<P extends z.ZodType, R extends z.ZodType>(def: JobDefinition<P, R>): JobDefinition<P, R> {
  return def;
}

export const notifyImportSchema = z.strictObject({ source: z.string().min(1), destination: z.string().min(1) });

/**
 * What a notify job tells every enabled target: the pass that imported files, and where they went;
 * with `undone`, the id of the import an undo took back, whose library files are gone.
 */
export const notifyPayloadSchema = z.strictObject({
  pass: z.string().min(1).max(256),
  imports: z.array(notifyImportSchema).min(1).max(100_000),
  undone: z.number().int().positive().optional(),
});

/** A notify job's progress, kept across its attempts: a retry tells only the targets not yet told. */
export const notifyProgressSchema = z.object({
  told: z.array(z.string()),
  /** Target name → why the last attempt could not tell it. */
  failed: z.record(z.string(), z.string()),
});

/** A manual import's result: a pass's, of the files it chose, and the aliases `remember` saved. */
export const manualImportResultSchema = scanResultSchema.extend({ remembered: z.array(aliasSchema) });

/** The most downloads one `POST /api/scan/import` names: a request body of about 1 MiB. */
export const SCAN_SOURCES_MAX = 5000;

/**
 * A scanner pass. `dry_run`: a preview whatever `app.dry_run` says. `sources`: only these downloads
 * (a preview's plan, confirmed by the owner); the worker checks again that each lies in the
 * downloads folder. Either makes a pass of its own that no other request joins.
 */
export const scanPassPayloadSchema = z.strictObject({
  trigger: z.enum(['api', 'schedule', 'watch']),
  dry_run: z.literal(true).optional(),
  sources: z.array(z.string().min(1).max(4096)).min(1).max(SCAN_SOURCES_MAX).optional(),
});

/** The most renames one `POST /api/library/organize` names: a request body of a few MiB. */
export const ORGANIZE_PATHS_MAX = 100_000;

/**
 * Renames GET /api/library/organize proposes, by their `from` (absent: all). The worker plans them
 * again from the index and checks each path again: a payload is never trusted.
 */
export const libraryOrganizePayloadSchema = z.strictObject({
  paths: z.array(z.string().min(1).max(4096)).max(ORGANIZE_PATHS_MAX).optional(),
});

/** What an organize job renamed (a video's sidecars each listed too), and what it left, with why. */
export const libraryOrganizeResultSchema = z.object({
  renamed: z.array(z.object({ from: z.string(), to: z.string() })),
  skipped: z.array(z.object({ from: z.string(), reason: z.string() })),
});

/** An organize job's progress: renames carried out or skipped so far, of how many. */
export const libraryOrganizeProgressSchema = z.object({ done: z.number().int(), total: z.number().int() });

export const JOBS = {
  'scan-pass': define({
    queue: 'scan',
    payload: scanPassPayloadSchema,
    result: passSummarySchema,
    defaults: { attempts: 3, backoff: { type: 'exponential', delay: 5000 }, ...keepPasses },
    joinRunning: true,
  }),
  // On the scan queue, so that it never runs beside a pass: one at a time, under the same lock.
  'manual-import': define({
    queue: 'scan',
    payload: manualImportPayloadSchema,
    result: manualImportResultSchema,
    defaults: { attempts: 2, backoff: { type: 'fixed', delay: 5000 }, ...keep },
    joinRunning: false,
  }),
  'library-scan': define({
    queue: 'library',
    payload: z.strictObject({ trigger: z.enum(['api', 'schedule']) }),
    result: z.object({ summary: librarySummarySchema }),
    defaults: { attempts: 3, backoff: { type: 'exponential', delay: 5000 }, ...keep },
    joinRunning: true,
  }),
  // On the library queue: never beside a library scan, whose index it patches.
  'library-organize': define({
    queue: 'library',
    payload: libraryOrganizePayloadSchema,
    result: libraryOrganizeResultSchema,
    // A retry after a kill first settles what the killed attempt left (see recoverOrganize).
    defaults: { attempts: 2, backoff: { type: 'fixed', delay: 5000 }, ...keep },
    joinRunning: false,
  }),
  // On the library queue: it deletes library files' last copies, one purge at a time.
  'recycle-purge': define({
    queue: 'library',
    payload: z.strictObject({ trigger: z.enum(['schedule']) }),
    /** The bin files deleted, and the bin's size after. */
    result: z.object({ removed: z.number().int(), bytes: z.number(), left: z.object({ files: z.number().int(), bytes: z.number() }) }),
    defaults: { attempts: 2, backoff: { type: 'fixed', delay: 60_000 }, ...keep },
    joinRunning: true,
  }),
  'media-tracks': define({
    queue: 'media',
    payload: trackJobPayloadSchema,
    result: z.object({
      dry_run: z.literal(false),
      path: z.string(),
      command: z.array(z.string()),
      streams: z.array(streamSchema),
      /** Where the file as it was lies in its drive's recycle bin (`library.recycle_bin`); null when it was not kept (bin off, a download, nothing changed). */
      original_recycled_to: z.string().nullable(),
    }),
    defaults: { attempts: 2, backoff: { type: 'fixed', delay: 2000 }, ...keep },
    joinRunning: false,
  }),
  'transcode-run': define({
    queue: 'transcode',
    payload: z.strictObject({ item: transcodeJobItemSchema }),
    result: z.object({
      item: transcodeItemSchema,
      output: z.string(),
      command: z.array(z.string()),
      /** The video encoder that ran; null when every stream was copied. */
      encoder: z.string().nullable(),
      /** Streams MP4 cannot carry (image subtitles, attachments, data), with why. */
      dropped: z.array(droppedStreamSchema),
      original_removed: z.boolean(),
      /** Where the original went in its drive's recycle bin (`library.recycle_bin`); null when it was deleted or kept. */
      original_recycled_to: z.string().nullable(),
      /** The source and the MP4 as ffprobe read them; null for a job delivered again after it finished. */
      before: mediaSnapshotSchema.nullable(),
      after: mediaSnapshotSchema.nullable(),
      /** How long the transcode took. */
      seconds: z.number().nullable(),
    }),
    defaults: { attempts: 2, backoff: { type: 'fixed', delay: 10_000 }, ...keep },
    joinRunning: false,
  }),
  notify: define({
    queue: 'notify',
    payload: notifyPayloadSchema,
    /** The targets told, by name; a job whose targets could not all be told fails, naming them. */
    result: z.object({ told: z.array(z.string()) }),
    // 10 s, 20 s, 40 s, 80 s: a media server restarting is back within a few minutes.
    defaults: { attempts: 5, backoff: { type: 'exponential', delay: 10_000 }, ...keep },
    joinRunning: false,
  }),
} as const;

export type JobName = keyof typeof JOBS;
export type JobPayload<N extends JobName> = z.infer<(typeof JOBS)[N]['payload']>;
export type JobResult<N extends JobName> = z.infer<(typeof JOBS)[N]['result']>;
export const JOB_NAMES = Object.keys(JOBS) as JobName[];

export function jobsOfQueue(queue: QueueName): JobName[] {
  return JOB_NAMES.filter((n) => JOBS[n].queue === queue);
}

export const JOB_STATES = ['waiting', 'active', 'delayed', 'completed', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];
