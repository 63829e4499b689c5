import { Hono } from 'hono';
import { downloadsListing } from '@mo/core/scanner/downloads-listing.ts';
import { walkDownloads } from '@mo/core/scanner/walk-downloads.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';

export function downloadsRoutes({ config }: AppDeps) {
  return new Hono<AppEnv>().get('/downloads', async (c) => {
    // A pass that just finished in the worker shows at once, not at the next poll of state.json.
    await config.refresh();
    const cfg = config.current();
    const files = await walkDownloads(cfg.paths.downloads, {
      onSkip: (path, error) => c.get('log').warn({ path, error }, 'downloads folder skipped'),
    });
    return c.json(downloadsListing(cfg, files, config.currentState().recent, Date.now()));
  });
}
