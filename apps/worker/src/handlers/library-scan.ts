import type { JobHandler } from '@mo/core';
import { libraryScanOptions, libraryView, scanLibrary, writeLibraryIndex } from '@mo/core';
import type { WorkerDeps } from '../deps.ts';

export function libraryScanHandler({ config }: WorkerDeps): JobHandler<'library-scan'> {
  return async (_payload, ctx) => {
    const cfg = config.current();
    const index = await scanLibrary({
      ...libraryScanOptions(cfg),
      signal: ctx.signal,
      onProgress: (files) => void ctx.progress({ files }).catch(() => {}),
      onSkip: (path, error) => ctx.log.warn({ path, error }, 'library folder skipped'),
    });
    await writeLibraryIndex(cfg.paths.data, index);
    await config.state.update((s) => ({ ...s, last_library_scan_at: index.scanned_at }));
    const { summary } = libraryView(index);
    ctx.log.info({ ...summary }, 'library index written');
    return { summary };
  };
}
