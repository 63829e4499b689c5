import type { JobHandler } from '@mo/core';
import type { WorkerDeps } from '../deps.ts';

export function libraryScanHandler({ config }: WorkerDeps): JobHandler<'library-scan'> {
  return async () => {
    const scanned_at = new Date().toISOString();
    await config.state.update((s) => ({ ...s, last_library_scan_at: scanned_at }));
    return {
      summary: { files: 0, bytes: 0, movies: 0, series: 0, episodes: 0, scanned_at, duration_ms: 0, truncated: false, timed_out: false },
    };
  };
}
