import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../http/env.ts';

export function libraryRoutes(_deps: AppDeps) {
  return new Hono<AppEnv>();
}
