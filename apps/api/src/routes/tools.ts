import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../http/env.ts';

/** GET /api/tools/subtitles and GET /api/tools/duplicates, from the cached index. */
export function toolRoutes(_deps: AppDeps) {
  return new Hono<AppEnv>();
}
