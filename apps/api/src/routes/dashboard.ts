import { statfs } from 'node:fs/promises';
import { createRoute, type z } from '@hono/zod-openapi';
import type { TypedResponse } from 'hono';
import { accumulate, extensionAccumulator, libraryAccumulator, libraryView } from '@mo/core';
import { readRecycleTotals } from '@mo/core/recycle';
import { dashboardResponse, type Drive, type IndexItem } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { json, router } from '../openapi/route.ts';

interface DriveUsage {
  name: string;
  path: string;
  total_bytes: number | null;
  free_bytes: number | null;
  used_bytes: number | null;
  available: boolean;
}

/** How long a statfs answer is reused: a dashboard polled by many clients must not stat every drive each time. */
const USAGE_TTL_MS = 5000;

async function usageOf(drive: Drive): Promise<DriveUsage> {
  try {
    const s = await statfs(drive.path);
    const total = s.blocks * s.bsize;
    const free = s.bavail * s.bsize;
    return { name: drive.name, path: drive.path, total_bytes: total, free_bytes: free, used_bytes: total - s.bfree * s.bsize, available: true };
  } catch {
    return { name: drive.name, path: drive.path, total_bytes: null, free_bytes: null, used_bytes: null, available: false };
  }
}

const getDashboard = createRoute({
  method: 'get',
  path: '/dashboard',
  operationId: 'getDashboard',
  summary: 'State, drive usage and cached library figures',
  tags: ['library'],
  responses: { 200: json(dashboardResponse) },
});

export function dashboardRoutes({ config, library }: AppDeps) {
  let usage: { key: string; at: number; value: Promise<DriveUsage[]> } | undefined;
  function driveUsage(drives: readonly Drive[]): Promise<DriveUsage[]> {
    const key = JSON.stringify(drives);
    if (!usage || usage.key !== key || Date.now() - usage.at > USAGE_TTL_MS) {
      usage = { key, at: Date.now(), value: Promise.all(drives.map(usageOf)) };
    }
    return usage.value;
  }

  return router().openapi(getDashboard, async (c) => {
    const cfg = config.current();
    const state = config.currentState();
    const figures = () => {
      const lib = libraryAccumulator();
      const extensions = extensionAccumulator();
      return { lib, extensions, add: (item: IndexItem) => (lib.add(item), extensions.add(item)) };
    };
    const cached = await library.derive(
      'dashboard.json',
      accumulate(figures, (acc, header) => {
        const summary = header ? acc.lib.summary(header) : libraryView(null).summary;
        return JSON.stringify({
          library: {
            files: summary.files,
            bytes: summary.bytes,
            movies: summary.movies,
            series: summary.series,
            episodes: summary.episodes,
            scanned_at: summary.scanned_at,
          },
          extensions: acc.extensions.breakdown(),
        });
      }),
    );
    const head = JSON.stringify({
      dry_run: cfg.app.dry_run,
      state: {
        last_scan_at: state.last_scan_at,
        last_library_scan_at: state.last_library_scan_at,
        recent_count: state.recent.length,
      },
      drives: await driveUsage(cfg.drives),
      recycle: await readRecycleTotals(config.data),
    });
    // Splice the per-index part in as text rather than parse and re-serialise it on every request.
    const answer = c.body(`${head.slice(0, -1)},${cached.slice(1)}`, 200, { 'Content-Type': 'application/json' });
    return answer as unknown as TypedResponse<z.output<typeof dashboardResponse>, 200, 'json'>;
  });
}
