import type { JobHandler } from '@mo/core';
import { libraryScanOptions, scanLibraryToIndex } from '@mo/core';
import type { WorkerDeps } from '../deps.ts';

export function libraryScanHandler({ config }: WorkerDeps): JobHandler<'library-scan'> {
  return async (_payload, ctx) => {
    const cfg = config.current();
    const { header, summary, folders } = await scanLibraryToIndex(cfg.paths.data, {
      ...libraryScanOptions(cfg),
      signal: ctx.signal,
      onProgress: (files) => void ctx.progress({ files }).catch(() => {}),
      onSkip: (path, error) => ctx.log.warn({ path, error }, 'library folder skipped'),
    });
    await config.state.update((s) => ({ ...s, last_library_scan_at: header.scanned_at }));
    ctx.log.info({ ...summary, folders_read: folders.read, folders_unchanged: folders.reused }, 'library index written');
    return { summary };
  };
}
