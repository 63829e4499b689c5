import { z } from 'zod';

/** What a release name says of its quality (CONTRACT.md, "Upgrades and the recycle bin"); null or false where it says nothing. */
export const qualitySchema = z.object({
  resolution: z.union([z.literal(2160), z.literal(1080), z.literal(720), z.literal(576), z.literal(480)]).nullable(),
  source: z.enum(['remux', 'bluray', 'web-dl', 'webrip', 'hdtv', 'dvd', 'sdtv']).nullable(),
  codec: z.enum(['x265', 'x264', 'av1', 'xvid']).nullable(),
  proper: z.boolean(),
  repack: z.boolean(),
  group: z.string().nullable(),
});

/**
 * A `quality` field of something stored before names were read for quality (a pass file, the
 * downloads listing's cache): read as a name that says nothing of it.
 */
export const storedQuality = qualitySchema.default(() => ({ resolution: null, source: null, codec: null, proper: false, repack: false, group: null }));
