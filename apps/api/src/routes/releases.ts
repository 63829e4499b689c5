import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../http/env.ts';

export function releasesRoutes(_deps: AppDeps) {
  return new Hono<AppEnv>();
}
