import { z } from 'zod';
import { ERROR_CODES } from '../api/errors.ts';
import { QUEUE_NAMES } from '../jobs/queues.ts';
import { transcodeStatusSchema } from '../state/schema.ts';

/**
 * What GET /api/events sends: each SSE message's `event:` is a key of LIVE_EVENTS and its `data:`
 * is that schema as JSON. A client re-fetches what it shows after every `snapshot` (the first
 * message of each connection, so also after a reconnect): events missed while away are not replayed.
 */

/** `progress` is what the handler reported (a number, or an object such as `{percent, speed}`). */
export const jobProgressSchema = z.union([z.number(), z.record(z.string(), z.unknown())]);

export const jobEventSchema = z.object({
  queue: z.enum(QUEUE_NAMES),
  id: z.string(),
  /** The job's name (`scan-pass`, `transcode-run`, …); null only when its record was already gone. */
  name: z.string().nullable(),
  state: z.enum(['active', 'progress', 'completed', 'failed']),
  /** With `progress`, the latest value (at most about one a second per job). */
  progress: jobProgressSchema.optional(),
  /** With `failed` (a final failure, after the last attempt): the message and, if it had one, its code. */
  error: z.string().optional(),
  error_code: z.enum(ERROR_CODES).nullable().optional(),
});
export type JobEvent = z.infer<typeof jobEventSchema>;
export type JobProgress = z.infer<typeof jobProgressSchema>;

export const activeJobSchema = z.object({
  queue: z.enum(QUEUE_NAMES),
  id: z.string(),
  name: z.string(),
  state: z.literal('active'),
  progress: jobProgressSchema,
});
export type ActiveJob = z.infer<typeof activeJobSchema>;

export const settingsEventSchema = z.object({
  /** Changes whenever the effective settings change; the same value as the snapshot's `settings.version`. */
  version: z.string(),
  /** The top-level sections that changed (`app`, `scanner`, `paths`, …). */
  sections: z.array(z.string()),
});
export type SettingsEvent = z.infer<typeof settingsEventSchema>;

export const libraryEventSchema = z.object({
  /** Goes up by one with every index the API loads (per API process, from 1 at start). */
  version: z.number().int(),
  /** The new index's `scanned_at`; null when the index was removed. */
  scanned_at: z.string().nullable(),
});
export type LibraryEvent = z.infer<typeof libraryEventSchema>;

export const transcodeEventSchema = z.object({
  /** The transcode entries (by source path) whose record in state.json changed; `entry` null: removed. */
  changed: z.array(z.object({ path: z.string(), entry: transcodeStatusSchema.nullable() })),
});
export type TranscodeEvent = z.infer<typeof transcodeEventSchema>;

export const snapshotEventSchema = z.object({
  /** Whether Redis answered; when not, `jobs` is null and job events resume once it is back. */
  redis: z.boolean(),
  /** Every active job of every queue, with its latest progress (0 before its first report). */
  jobs: z.array(activeJobSchema).nullable(),
  settings: settingsEventSchema.pick({ version: true }),
  library: libraryEventSchema,
});
export type SnapshotEvent = z.infer<typeof snapshotEventSchema>;

export const LIVE_EVENTS = {
  snapshot: snapshotEventSchema,
  job: jobEventSchema,
  settings: settingsEventSchema,
  library: libraryEventSchema,
  transcode: transcodeEventSchema,
} as const;
export type LiveEventName = keyof typeof LIVE_EVENTS;
export type LiveEvent = { [K in LiveEventName]: { event: K; data: z.infer<(typeof LIVE_EVENTS)[K]> } }[LiveEventName];
