import { z } from 'zod';
import { settingsPatchSchema } from '../config/schema.ts';

// Loose so that a state file written by a newer version keeps the fields this one does not know.
export const stateSchema = z.looseObject({
  version: z.literal(1),
  settings: settingsPatchSchema,
  last_scan_at: z.string().nullable(),
  last_library_scan_at: z.string().nullable(),
});
export type State = z.infer<typeof stateSchema>;

export function initialState(): State {
  return { version: 1, settings: {}, last_scan_at: null, last_library_scan_at: null };
}
