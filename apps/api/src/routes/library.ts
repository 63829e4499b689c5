import { Hono } from 'hono';
import { libraryView } from '@mo/core';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { cacheJson, sendJson } from '../http/cached-json.ts';

export function libraryRoutes({ library }: AppDeps) {
  return new Hono<AppEnv>().get('/library', async (c) =>
    sendJson(c, await library.derive('library.json', (index) => cacheJson(libraryView(index)))),
  );
}
