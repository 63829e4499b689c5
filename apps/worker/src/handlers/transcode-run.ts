import type { JobHandler } from '@mo/core';
import type { WorkerDeps } from '../deps.ts';

export function transcodeRunHandler(_deps: WorkerDeps): JobHandler<'transcode-run'> {
  return async () => ({ item: null, output: null, command: [] });
}
