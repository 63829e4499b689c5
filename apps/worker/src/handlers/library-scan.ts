import type { JobHandler } from '@mo/core';
import { libraryAccumulator, libraryScanOptions, openIndexWriter, scanLibraryInto } from '@mo/core';
import type { WorkerDeps } from '../deps.ts';

export function libraryScanHandler({ config }: WorkerDeps): JobHandler<'library-scan'> {
  return async (_payload, ctx) => {
    const cfg = config.current();
    // Each item goes to the index file and into the summary as it is found, none is kept: the
    // worker's memory stays flat however large the library.
    const writer = await openIndexWriter(cfg.paths.data);
    const view = libraryAccumulator();
    let scanned;
    try {
      scanned = await scanLibraryInto(
        {
          ...libraryScanOptions(cfg),
          signal: ctx.signal,
          onProgress: (files) => void ctx.progress({ files }).catch(() => {}),
          onSkip: (path, error) => ctx.log.warn({ path, error }, 'library folder skipped'),
        },
        (item) => {
          writer.add(item);
          view.add(item);
        },
      );
    } catch (err) {
      await writer.abort();
      throw err;
    }
    const { files: _, ...header } = scanned;
    await writer.finish(header);
    await config.state.update((s) => ({ ...s, last_library_scan_at: header.scanned_at }));
    const summary = view.summary(header);
    ctx.log.info({ ...summary }, 'library index written');
    return { summary };
  };
}
