import type { JobHandler } from '@mo/core';
import { libraryView, scanLibrary, writeLibraryIndex } from '@mo/core';
import type { WorkerDeps } from '../deps.ts';

export function libraryScanHandler({ config }: WorkerDeps): JobHandler<'library-scan'> {
  return async (_payload, ctx) => {
    const cfg = config.current();
    const index = await scanLibrary({
      drives: cfg.drives,
      movieFolders: cfg.library.movie_folders,
      tvFolders: cfg.library.tv_folders,
      videoExtensions: cfg.library.video_extensions,
      subtitleExtensions: cfg.library.subtitle_extensions,
      maxFiles: cfg.app.library_scan_max_files,
      timeoutMs: cfg.app.library_scan_timeout_seconds * 1000,
      readNfo: cfg.metadata.read_nfo,
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
