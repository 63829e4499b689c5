import { z } from 'zod';

/** POST /api/notifications/test: the target to try, by its name in `[notifications]`. */
export const notificationTestBody = z.strictObject({ name: z.string().min(1).max(64) });

export const notificationTestResponse = z.object({ ok: z.literal(true) });
