import { Hono } from 'hono';
import { libraryView } from '@mo/core';
import type { AppDeps, AppEnv } from '../http/env.ts';

export function libraryRoutes({ library }: AppDeps) {
  return new Hono<AppEnv>().get('/library', (c) => {
    // Serialised once per index: at 100,000 files a fresh JSON.stringify per request would dominate.
    const body = library.derive('library.json', (index) => JSON.stringify(library.derive('library.view', () => libraryView(index))));
    return c.body(body, 200, { 'Content-Type': 'application/json' });
  });
}
