import { z } from 'zod';
import { settingsPatchSchema } from '../config/schema.ts';
import { mediaSnapshotSchema } from '../jobs/catalogue.ts';

/** A scanner plan or move whose source was under the downloads folder (GET /api/downloads `recent`). */
export const recentEntrySchema = z.object({
  type: z.enum(['plan', 'move']),
  source: z.string(),
  destination: z.string(),
  at: z.string(),
  /** `planned` for plans; `moved` or `failed` for moves. */
  status: z.enum(['planned', 'moved', 'failed']),
  error: z.string().nullable().optional(),
});
export type RecentEntry = z.infer<typeof recentEntrySchema>;

/**
 * What became of a transcode queue entry, by source path. An entry without a record is `queued`
 * with priority 0; a `queued` record holds a priority, a job that waits, or both.
 */
export const transcodeStatusSchema = z.object({
  status: z.enum(['queued', 'running', 'done', 'failed']),
  job_id: z.string().nullable(),
  updated_at: z.string(),
  output: z.string().nullable(),
  error: z.string().nullable(),
  /** Higher runs first; ties in path order. */
  priority: z.number().int().default(0),
  before: mediaSnapshotSchema.nullable().default(null),
  after: mediaSnapshotSchema.nullable().default(null),
  /** How long the finished transcode took. */
  seconds: z.number().nullable().default(null),
  /** Once done: whether the original is still beside the output (`keep_original`). */
  original: z.enum(['kept', 'removed']).nullable().default(null),
  /** Once removed: where the original went in its drive's recycle bin (`library.recycle_bin`); null when deleted. */
  original_recycled_to: z.string().nullable().default(null),
});
export type TranscodeStatus = z.infer<typeof transcodeStatusSchema>;

// Loose so that a state file written by a newer version keeps the fields this one does not know.
export const stateSchema = z.looseObject({
  version: z.literal(1),
  settings: settingsPatchSchema,
  last_scan_at: z.string().nullable(),
  last_library_scan_at: z.string().nullable(),
  recent: z.array(recentEntrySchema).default([]),
  transcodes: z.record(z.string(), transcodeStatusSchema).default({}),
  /** Set by POST /api/tools/transcoder/pause: no transcode starts until resumed, across restarts. */
  transcoder_paused: z.boolean().default(false),
});
export type State = z.infer<typeof stateSchema>;

/** How many `recent` entries state.json keeps, newest first. */
export const RECENT_LIMIT = 500;

export function initialState(): State {
  return { version: 1, settings: {}, last_scan_at: null, last_library_scan_at: null, recent: [], transcodes: {}, transcoder_paused: false };
}
