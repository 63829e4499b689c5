import type { JobHandler } from '@mo/core';

export function transcodeRunHandler(): JobHandler<'transcode-run'> {
  return async () => ({ item: null, output: null, command: [] });
}
