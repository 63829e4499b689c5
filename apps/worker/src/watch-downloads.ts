import { stat } from 'node:fs/promises';
import { watch, type FSWatcher } from 'chokidar';
import type { Logger, RuntimeConfig } from '@mo/core';
import { changed, decide, enqueued, IDLE, isFreshChange, type QueuedPass, type WatchState } from '@mo/core/scanner';

/** How often a failed watch looks for its folder again. */
export const REARM_MS = 30_000;

/**
 * While app.watch is on, runs a scanner pass once the downloads folder has been still for
 * settle_seconds. Removals are not watched: they never need importing, and every import removes
 * files; nor changes that leave a file settled, which a pass makes by reading it. A watch that fails
 * (an inotify limit, the folder gone) leaves new downloads to the periodic pass until it re-arms.
 * `onChange` hears every change, removals included, and `onWatching` each start and stop of the
 * watch: the downloads listing follows both.
 */
export function watchDownloads(opts: {
  config: RuntimeConfig;
  logger: Logger;
  requestPass: () => Promise<QueuedPass>;
  rearmMs?: number;
  onChange?: () => void;
  onWatching?: () => void;
}) {
  const { config, logger } = opts;
  let state: WatchState = IDLE;
  let settleTimer: NodeJS.Timeout | undefined;
  let rearmTimer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  let folder = config.current().paths.downloads;
  let failed = false;
  let closed = false;
  let armed = false;
  let requesting: Promise<void> | undefined;
  // Each arming gets a number, so events from a watcher being replaced are dropped.
  let generation = 0;

  function plan() {
    clearTimeout(settleTimer);
    if (closed || requesting) return;
    const next = decide(state, Date.now(), config.current().app.settle_seconds);
    if (next.kind === 'wait') settleTimer = setTimeout(plan, next.ms);
    if (next.kind === 'enqueue') requesting = request(next.asOfMs);
  }

  async function request(asOfMs: number) {
    let pass: QueuedPass | null = null;
    try {
      pass = await opts.requestPass();
      logger.info({ folder, job_state: pass.state }, 'downloads settled: scanner pass queued');
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'could not queue the scanner pass for new downloads; trying again');
    }
    state = enqueued(state, asOfMs, pass, Date.now());
    requesting = undefined;
    plan();
  }

  function noteChange() {
    state = changed(state, Date.now());
    plan();
  }

  function setArmed(next: boolean) {
    if (armed === next) return;
    armed = next;
    opts.onWatching?.();
  }

  function fail(gen: number, reason: string) {
    if (gen !== generation || closed) return;
    void watcher?.close();
    watcher = undefined;
    setArmed(false);
    if (!failed) {
      const interval = config.current().app.scan_interval_seconds;
      logger.warn(
        { folder, reason, scan_interval_seconds: interval },
        interval > 0
          ? 'cannot watch the downloads folder: new downloads wait for the periodic pass'
          : 'cannot watch the downloads folder, and the periodic pass is off',
      );
    }
    failed = true;
    clearTimeout(rearmTimer);
    rearmTimer = setTimeout(() => void arm(), opts.rearmMs ?? REARM_MS);
  }

  const gone = (path: string) =>
    stat(path).then(
      (st) => !st.isDirectory(),
      () => true,
    );

  async function arm() {
    const gen = ++generation;
    clearTimeout(rearmTimer);
    setArmed(false);
    await watcher?.close();
    watcher = undefined;
    if (!config.current().app.watch) {
      if (gen !== generation || closed) return;
      state = IDLE;
      clearTimeout(settleTimer);
      logger.info({ folder }, 'not watching the downloads folder: app.watch is off');
      return;
    }
    try {
      if (!(await stat(folder)).isDirectory()) return fail(gen, 'not a folder');
    } catch (err) {
      return fail(gen, (err as NodeJS.ErrnoException).code ?? (err as Error).message);
    }
    if (gen !== generation || closed) return;
    // A symlink in the downloads folder is a name, not a way in: followed, one pointing at / would
    // have chokidar walk and watch the whole filesystem (the scanner does not follow them either).
    const w = watch(folder, { ignoreInitial: true, alwaysStat: true, followSymlinks: false });
    watcher = w;
    const listed = () => gen === generation && opts.onChange?.();
    const seen = () => gen === generation && (noteChange(), listed());
    w.on('add', seen).on('addDir', seen);
    w.on('unlink', listed).on('unlinkDir', listed);
    w.on('change', (_path, st) => {
      if (!st || isFreshChange(st.mtimeMs, Date.now(), config.current().app.settle_seconds)) seen();
      else listed();
    });
    // chokidar reports the folder's own removal only when it held something; a rename event on it says look.
    w.on('raw', (event, _path, details) => {
      if (event === 'rename' && (details as { watchedPath?: string }).watchedPath === folder)
        void gone(folder).then((yes) => yes && fail(gen, 'the folder is gone'));
    });
    w.on('error', (err) => fail(gen, (err as NodeJS.ErrnoException).code ?? (err as Error).message));
    await new Promise<void>((resolve) => w.once('ready', resolve));
    if (gen !== generation || closed) return;
    logger.info({ folder }, failed ? 'watching the downloads folder again' : 'watching the downloads folder');
    failed = false;
    setArmed(true);
    // Whatever arrived while nobody watched gets its pass too.
    noteChange();
  }

  const off = config.onChange((next, prev) => {
    if (next.paths.downloads !== folder || next.app.watch !== prev.app.watch) {
      folder = next.paths.downloads;
      failed = false;
      void arm();
    } else if (next.app.settle_seconds !== prev.app.settle_seconds) {
      plan();
    }
  });

  return {
    ready: arm(),
    /** Whether the watch reports changes now. */
    watching: () => armed,
    async close() {
      closed = true;
      generation++;
      off();
      clearTimeout(settleTimer);
      clearTimeout(rearmTimer);
      await watcher?.close();
      await requesting;
    },
  };
}
