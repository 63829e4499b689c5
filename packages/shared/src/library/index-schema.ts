import { z } from 'zod';

/** What a Kodi .nfo file beside the media says; kept in the index so reports need no file reads. */
export const nfoInfoSchema = z.object({
  kind: z.enum(['tvshow', 'episode', 'movie']),
  title: z.string().nullable(),
  season: z.number().int().nullable(),
  episode: z.number().int().nullable(),
  aired: z.string().nullable(),
  /** `<uniqueid type="tvmaze|tvdb|imdb|tmdb">`: lets a provider find the show without a title search. */
  ids: z.record(z.string(), z.string()).optional(),
});
export type NfoInfo = z.infer<typeof nfoInfoSchema>;

export const indexItemSchema = z.object({
  /** Absolute path of the file. */
  path: z.string(),
  /** Name of the drive (config `drives[].name`). */
  drive: z.string(),
  section: z.enum(['movies', 'tv']),
  /** Absolute path of the library folder (`<drive>/Movies`, `<drive>/TV Shows`, …). */
  root: z.string(),
  /** Absolute path of the movie's or series' folder: the child of `root` the file lies in (root itself for loose files). */
  folder: z.string(),
  bytes: z.number(),
  mtime_ms: z.number(),
  /** Lower-case extension with its dot, '' when none. */
  ext: z.string(),
  type: z.enum(['video', 'subtitle', 'nfo', 'other']),
  /** Movie title, or the series title (from the series folder). */
  title: z.string().nullable(),
  year: z.number().int().nullable(),
  season: z.number().int().nullable(),
  episodes: z.array(z.number().int()),
  air_date: z.string().nullable(),
  /** Extras (Featurettes, Behind The Scenes, …) and samples: on disk, but not the movie or episode itself. */
  extra: z.boolean(),
  nfo: nfoInfoSchema.nullable(),
});
export type IndexItem = z.infer<typeof indexItemSchema>;

export const libraryIndexHeaderSchema = z.object({
  version: z.literal(1),
  scanned_at: z.string(),
  duration_ms: z.number(),
  truncated: z.boolean(),
  timed_out: z.boolean(),
  /** Folders that could not be read, with why; they were skipped. */
  skipped: z.array(z.object({ path: z.string(), error: z.string() })),
  drives: z.array(z.object({ name: z.string(), path: z.string() })),
});

export type LibraryIndex = z.infer<typeof libraryIndexHeaderSchema> & { items: IndexItem[] };
