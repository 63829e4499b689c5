import { z } from 'zod';
import { candidateSchema, ORGANIZE_PATHS_MAX, manualImportResultSchema, planSchema, SCAN_SOURCES_MAX, skippedSchema } from '../jobs/catalogue.ts';
import { manualAsSchema } from '../jobs/manual-import.ts';
import { aliasSchema } from '../config/schema.ts';

/** The skip reasons a person can settle with `Import as…`; the others settle themselves or are not about the name. */
export const SETTLEABLE_REASONS = ['unrecognized', 'ambiguous', 'exists', 'undone'] as const;

export const pendingImportSchema = z.object({
  path: z.string(),
  bytes: z.number(),
  reason: z.enum(SETTLEABLE_REASONS),
  detail: z.string().nullable(),
  /** The readings the scanner weighed, the best first; [] where it read none. */
  candidates: z.array(candidateSchema),
});

export const pendingImportsResponse = z.object({
  items: z.array(pendingImportSchema),
  /** When the pass these skips come from finished; null before the first pass. */
  scanned_at: z.string().nullable(),
});

/** `POST /api/scan/import`: the downloads a preview planned, as its plans and sidecars name them. */
export const scanImportBody = z.strictObject({
  sources: z
    .array(z.string().min(1).max(4096))
    .min(1)
    .max(SCAN_SOURCES_MAX)
    .describe('Absolute paths inside the downloads folder: the sources of a preview’s plans and their sidecars'),
});

export const manualImportBody = z.strictObject({
  /** A video, or a folder of one season's videos (a season pack), inside the downloads folder. */
  path: z.string({ error: 'is required' }).min(1, { error: 'is required' }),
  as: manualAsSchema,
  /** Episodes: save the download's series name as an alias of the library folder it went into. */
  remember: z.boolean({ error: 'must be true or false' }).default(false),
  /** The library's file of this movie or episode (and its sidecars) goes to the recycle bin and the download takes its place, whatever their qualities. */
  replace: z.boolean({ error: 'must be true or false' }).default(false),
});

/** A dry run of one file: where it would go, with its sidecars. */
export const manualImportPreviewResponse = z.object({ dry_run: z.literal(true), plan: planSchema, skipped: z.array(skippedSchema) });
/** A dry run of a folder: each video's plan, and the files that would stay behind with why. */
export const manualImportPackPreviewResponse = z.object({ dry_run: z.literal(true), plans: z.array(planSchema), skipped: z.array(skippedSchema) });
export const manualImportResponse = manualImportResultSchema;

/** What POST /api/imports/manual answers with 200: a preview of a file or of a folder, or the import's result. */
export const manualImportAnswer = z.union([manualImportPreviewResponse, manualImportPackPreviewResponse, manualImportResponse]);

/** POST /api/imports/aliases/remove: one alias, as listed in `library.aliases`. */
export const aliasRemoveBody = z.strictObject({ name: z.string().min(1).max(200), series: z.string().min(1).max(255) });
export const aliasesResponse = z.object({ aliases: z.array(aliasSchema) });

export const libraryOrganizeBody = z.strictObject({
  paths: z
    .array(z.string().min(1).max(4096))
    .min(1)
    .max(ORGANIZE_PATHS_MAX)
    .optional()
    .describe('The `from` of renames GET /api/library/organize lists (at least one); absent: all of them'),
});
