import type { JobHandler } from '@mo/core';
import type { WorkerDeps } from '../deps.ts';

export function mediaTracksHandler(_deps: WorkerDeps): JobHandler<'media-tracks'> {
  return async (payload) => ({ dry_run: false, path: payload.path, command: [], streams: [] });
}
