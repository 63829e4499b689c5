import { z } from 'zod';

/** A file in a drive's recycle bin: `path` in the bin, `original` where it came from and where a restore puts it. */
export const recycleItemSchema = z.object({
  path: z.string(),
  original: z.string(),
  bytes: z.number(),
  recycled_at: z.string(),
  /** Beyond CONTRACT.md: the drive's name. */
  drive: z.string(),
});

export const recycleResponse = z.object({
  items: z.array(recycleItemSchema),
  /** Beyond CONTRACT.md: the items' count and bytes. */
  files: z.number().int(),
  bytes: z.number(),
});

const binPath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => p.startsWith('/') && !p.includes('\0'), { message: 'must be an absolute path' });

export const recycleRestoreBody = z.strictObject({ path: binPath });
export const recycleRestoreResponse = z.object({ dry_run: z.boolean(), path: z.string(), original: z.string() });

/** The most bin paths one `POST /api/recycle/empty` names. */
export const RECYCLE_EMPTY_MAX = 10_000;
export const recycleEmptyBody = z.strictObject({ paths: z.array(binPath).min(1).max(RECYCLE_EMPTY_MAX).optional() });
export const recycleEmptyResponse = z.object({
  dry_run: z.boolean(),
  /** The bin files deleted (with dry_run on: that would be). */
  removed: z.array(z.string()),
  bytes: z.number(),
});

/** The dashboard's bin figures, as last counted; null before the first count. */
export const recycleTotalsSchema = z.object({ files: z.number().int(), bytes: z.number(), counted_at: z.string() }).nullable();
