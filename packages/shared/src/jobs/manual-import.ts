import { z } from 'zod';

/** The oldest year a movie or series can carry; the newest is checked where the clock is. */
const MIN_YEAR = 1870;
const MAX_YEAR = 2200;

// The messages are sentences for the person who typed the value: the web page shows them as they come.
const title = z
  .string({ error: 'must be text' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(255, { error: 'must be at most 255 characters' })
  .refine((t) => !/[\0-\x1f\x7f]/.test(t), { error: 'must not contain control characters' })
  // Right-to-left overrides and other invisible marks would make a folder name read as another.
  .refine((t) => !/\p{Cf}/u.test(t), { error: 'must not contain invisible formatting characters' })
  .refine((t) => /[\p{L}\p{N}]/u.test(t), { error: 'must hold a letter or a digit' });
const year = z
  .number({ error: 'must be a year' })
  .int({ error: 'must be a year' })
  .min(MIN_YEAR, { error: `must be a year from ${MIN_YEAR}` })
  .max(MAX_YEAR, { error: `must be a year up to ${MAX_YEAR}` });
const season = z
  .number({ error: 'must be a season number' })
  .int({ error: 'must be a whole number' })
  .min(0, { error: 'must be 0 (specials) or more' })
  .max(9999, { error: 'must be at most 9999' });
const episode = z
  .number({ error: 'must be an episode number' })
  .int({ error: 'must be a whole number' })
  .min(1, { error: 'must be 1 or more' })
  .max(99_999, { error: 'must be at most 99999' });
const episodes = z
  .array(episode, { error: 'must be a list of episode numbers' })
  .min(1, { error: 'must name at least one episode' })
  .max(50, { error: 'must name at most 50 episodes' })
  .refine((list) => new Set(list).size === list.length, { error: 'must not name an episode twice' });
const airDate = z
  .string({ error: 'must be a date' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date as YYYY-MM-DD' })
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), { error: 'is not a real date' });

export const manualMovieSchema = z.strictObject({ kind: z.literal('movie'), title, year });

/**
 * An episode by season and episode numbers, or a daily show by its air date. For a folder (a season
 * pack) `episodes` is left out: each file's own name gives its episodes.
 */
export const manualEpisodeSchema = z
  .strictObject({
    kind: z.literal('episode'),
    title,
    year: year.nullable().optional(),
    season: season.optional(),
    episodes: episodes.optional(),
    air_date: airDate.optional(),
  })
  .superRefine((as, ctx) => {
    if (as.air_date !== undefined) {
      for (const key of ['season', 'episodes'] as const) {
        if (as[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: 'not with air_date: a daily show is named by its date' });
      }
    } else if (as.season === undefined) {
      ctx.addIssue({ code: 'custom', path: ['season'], message: 'is required (or air_date, for a daily show)' });
    }
  });

/** What the owner says a download is (POST /api/imports/manual's `as`). */
export const manualAsSchema = z.discriminatedUnion('kind', [manualMovieSchema, manualEpisodeSchema], {
  error: 'must be "movie" or "episode"',
});
export type ManualAs = z.infer<typeof manualAsSchema>;

/**
 * A manual-import job: checked again in the worker, which trusts no payload. `path` is absolute
 * and must still lie in the downloads folder (symlinks followed) when the job runs.
 */
export const manualImportPayloadSchema = z.strictObject({
  path: z
    .string()
    .min(2)
    .max(4096)
    .regex(/^\/[^\0]*$/, 'must be an absolute path without NUL bytes'),
  as: manualAsSchema,
  remember: z.boolean(),
  /** Its videos replace the library's files of them, whatever their qualities; absent in jobs queued before it. */
  replace: z.boolean().optional(),
});
export type ManualImportPayload = z.infer<typeof manualImportPayloadSchema>;
