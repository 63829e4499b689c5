import type { JobHandler } from '@mo/core';

export function mediaTracksHandler(): JobHandler<'media-tracks'> {
  return async (payload) => ({ dry_run: false, path: payload.path, command: [], streams: [] });
}
