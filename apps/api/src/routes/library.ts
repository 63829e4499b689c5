import { Hono } from 'hono';
import { libraryView } from '@mo/core';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { cacheJson, sendJson } from '../http/cached-json.ts';

export function libraryRoutes({ library }: AppDeps) {
  return new Hono<AppEnv>().get('/library', (c) =>
    sendJson(c, library.derive('library.json', (index) => cacheJson(library.derive('library.view', () => libraryView(index))))),
  );
}
