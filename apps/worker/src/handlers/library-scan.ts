import { type JobHandler, libraryScanOptions, scanLibraryToIndex } from '@mo/core';
import type { WorkerDeps } from '../deps.ts';

export function libraryScanHandler({ config }: WorkerDeps): JobHandler<'library-scan'> {
  return async (_payload, ctx) => {
    const cfg = config.current();
    const { header, summary, folders } = await scanLibraryToIndex(cfg.paths.data, {
      ...libraryScanOptions(cfg),
      signal: ctx.signal,
      onProgress: (files) => void ctx.progress({ files }).catch(() => {}),
      onSkip: (path, error) => ctx.log.warn({ path, error }, 'library folder skipped'),
      onInlineListing: (reason) => ctx.log.warn({ reason }, 'library scan reads its folders without the listing thread from here on (slower, same index)'),
    });
    await config.state.update((s) => ({ ...s, last_library_scan_at: header.scanned_at }));
    ctx.log.info({ ...summary, folders_read: folders.read, folders_unchanged: folders.reused }, 'library index written');
    // The default limit (500,000) is below a large library's size: say which setting stops it.
    if (header.truncated) {
      ctx.log.warn(
        { library_scan_max_files: cfg.app.library_scan_max_files },
        'library scan stopped at library_scan_max_files: the files past it are not in the index; raise the setting to index them',
      );
    }
    return { summary };
  };
}
