import { z } from 'zod';

/**
 * What a job is about, read from its payload, so that a page names a job by its file, movie or
 * series rather than by its id. Fields that do not apply to the job's kind are null.
 */
export const jobAboutSchema = z.object({
  /** The file it works on: a transcode's or track edit's source, a manual import's download, the first file a notify job tells of. */
  path: z.string().nullable(),
  /** A manual import: what the owner said the download is. */
  kind: z.enum(['movie', 'episode']).nullable(),
  title: z.string().nullable(),
  year: z.number().int().nullable(),
  season: z.number().int().nullable(),
  episodes: z.array(z.number().int()),
  air_date: z.string().nullable(),
  /** What started a scanner pass or library scan: `api`, `schedule`, `watch`. */
  trigger: z.string().nullable(),
  /** A track edit: what it does to which stream. */
  track: z.object({ action: z.string(), index: z.number().int(), type: z.string().nullable(), language: z.string().nullable() }).nullable(),
  /** A notify job: how many imports it tells of, and whether they were undone. */
  imports: z.number().int().nullable(),
  undone: z.boolean(),
});
export type JobAbout = z.infer<typeof jobAboutSchema>;

/** A job that says nothing of what it is about: the start of every reading, and an unknown job's. */
export const nothingAbout = (): JobAbout => ({
  path: null,
  kind: null,
  title: null,
  year: null,
  season: null,
  episodes: [],
  air_date: null,
  trigger: null,
  track: null,
  imports: null,
  undone: false,
});
