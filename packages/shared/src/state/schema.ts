import { z } from 'zod';
import { settingsPatchSchema } from '../config/schema.ts';

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

/** What became of a transcode queue entry, by source path. */
export const transcodeStatusSchema = z.object({
  status: z.enum(['running', 'done', 'failed']),
  job_id: z.string().nullable(),
  updated_at: z.string(),
  output: z.string().nullable(),
  error: z.string().nullable(),
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
});
export type State = z.infer<typeof stateSchema>;

/** How many `recent` entries state.json keeps, newest first. */
export const RECENT_LIMIT = 500;

export function initialState(): State {
  return { version: 1, settings: {}, last_scan_at: null, last_library_scan_at: null, recent: [], transcodes: {} };
}
