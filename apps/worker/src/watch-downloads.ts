import { stat } from 'node:fs/promises';
import { watch, type FSWatcher } from 'chokidar';
import type { Logger, RuntimeConfig } from '@mo/core';
import { changed, decide, enqueued, IDLE, isFreshChange, watchSettingsChange, type QueuedPass, type WatchState } from '@mo/core/scanner';

/** How often a failed watch looks for its folder again. */
export const REARM_MS = 30_000;

interface WatchOptions {
  config: RuntimeConfig;
  logger: Logger;
  requestPass: () => Promise<QueuedPass>;
  rearmMs?: number;
  onChange?: () => void;
  onWatching?: () => void;
}

/** The wait for the folder to be still, and the request for a pass once it is: the timers around watch-settle's decisions. */
function settledPasses(opts: WatchOptions, folder: () => string) {
  const { config, logger } = opts;
  let state: WatchState = IDLE;
  let timer: NodeJS.Timeout | undefined;
  let requesting: Promise<void> | undefined;
  let stopped = false;

  function plan() {
    clearTimeout(timer);
    if (stopped || requesting) return;
    const next = decide(state, Date.now(), config.current().app.settle_seconds);
    if (next.kind === 'wait') timer = setTimeout(plan, next.ms);
    if (next.kind === 'enqueue') requesting = request(next.asOfMs);
  }

  async function request(asOfMs: number) {
    let pass: QueuedPass | null = null;
    try {
      pass = await opts.requestPass();
      logger.info({ folder: folder(), job_state: pass.state }, 'downloads settled: scanner pass queued');
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'could not queue the scanner pass for new downloads; trying again');
    }
    state = enqueued(state, asOfMs, pass, Date.now());
    requesting = undefined;
    plan();
  }

  return {
    /** Something arrived or changed: the wait starts over. */
    noteChange() {
      state = changed(state, Date.now());
      plan();
    },
    /** settle_seconds changed: the wait under way is measured again. */
    replan: plan,
    /** The watch is off: no change is pending. */
    forget() {
      state = IDLE;
      clearTimeout(timer);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    /** The request under way, if any. */
    requesting: () => requesting,
  };
}

const gone = (path: string) =>
  stat(path).then(
    (st) => !st.isDirectory(),
    () => true,
  );

const errorCode = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

/** What one chokidar watch reports, for as long as it is the current one. */
interface WatchHooks {
  /** A file or folder arrived, or a file changed so that it is not settled. */
  seen(): void;
  /** Any change the downloads listing follows, removals included. */
  listed(): void;
  fail(reason: string): void;
}

/** A chokidar watch of the folder, not following symlinks, reporting to `hooks`. */
function watchFolder(folder: string, settleSeconds: () => number, hooks: WatchHooks): FSWatcher {
  // A symlink in the downloads folder is a name, not a way in: followed, one pointing at / would
  // have chokidar walk and watch the whole filesystem (the scanner does not follow them either).
  const w = watch(folder, { ignoreInitial: true, alwaysStat: true, followSymlinks: false });
  w.on('add', hooks.seen).on('addDir', hooks.seen);
  w.on('unlink', hooks.listed).on('unlinkDir', hooks.listed);
  w.on('change', (_path, st) => {
    if (!st || isFreshChange(st.mtimeMs, Date.now(), settleSeconds())) hooks.seen();
    else hooks.listed();
  });
  // chokidar reports the folder's own removal only when it held something; a rename event on it says look.
  w.on('raw', (event, _path, details) => {
    if (event === 'rename' && (details as { watchedPath?: string }).watchedPath === folder)
      void gone(folder).then((yes) => yes && hooks.fail('the folder is gone'));
  });
  w.on('error', (err) => hooks.fail(errorCode(err)));
  return w;
}

type SettledPasses = ReturnType<typeof settledPasses>;

function warnUnwatched(logger: Logger, folder: string, reason: string, interval: number) {
  logger.warn(
    { folder, reason, scan_interval_seconds: interval },
    interval > 0
      ? 'cannot watch the downloads folder: new downloads wait for the periodic pass'
      : 'cannot watch the downloads folder, and the periodic pass is off',
  );
}

/** The watch of the downloads folder: armed while app.watch is on, and armed again a while after it fails. */
function folderWatch(opts: WatchOptions, passes: SettledPasses) {
  const { config, logger } = opts;
  let rearmTimer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  let folder = config.current().paths.downloads;
  let failed = false;
  let closed = false;
  let armed = false;
  // Each arming gets a number, so events from a watcher being replaced are dropped.
  let generation = 0;
  const current = (gen: number) => gen === generation && !closed;

  function setArmed(next: boolean) {
    if (armed === next) return;
    armed = next;
    opts.onWatching?.();
  }

  function fail(gen: number, reason: string) {
    if (!current(gen)) return;
    void watcher?.close();
    watcher = undefined;
    setArmed(false);
    if (!failed) warnUnwatched(logger, folder, reason, config.current().app.scan_interval_seconds);
    failed = true;
    clearTimeout(rearmTimer);
    rearmTimer = setTimeout(() => void arm(), opts.rearmMs ?? REARM_MS);
  }

  async function arm() {
    const gen = ++generation;
    clearTimeout(rearmTimer);
    setArmed(false);
    await watcher?.close();
    watcher = undefined;
    if (!config.current().app.watch) {
      if (!current(gen)) return;
      passes.forget();
      logger.info({ folder }, 'not watching the downloads folder: app.watch is off');
      return;
    }
    try {
      if (!(await stat(folder)).isDirectory()) return fail(gen, 'not a folder');
    } catch (err) {
      return fail(gen, errorCode(err));
    }
    if (!current(gen)) return;
    const listed = () => gen === generation && opts.onChange?.();
    const seen = () => gen === generation && (passes.noteChange(), listed());
    const w = watchFolder(folder, () => config.current().app.settle_seconds, { seen, listed, fail: (reason) => fail(gen, reason) });
    watcher = w;
    await new Promise<void>((resolve) => w.once('ready', resolve));
    if (!current(gen)) return;
    logger.info({ folder }, failed ? 'watching the downloads folder again' : 'watching the downloads folder');
    failed = false;
    setArmed(true);
    // Whatever arrived while nobody watched gets its pass too.
    passes.noteChange();
  }

  return {
    arm,
    /** Watches `next`, or the same folder anew, as if it had never failed. */
    rearm(next: string) {
      folder = next;
      failed = false;
      void arm();
    },
    folder: () => folder,
    watching: () => armed,
    async close() {
      closed = true;
      generation++;
      clearTimeout(rearmTimer);
      await watcher?.close();
    },
  };
}

/**
 * While app.watch is on, runs a scanner pass once the downloads folder has been still for
 * settle_seconds. Removals are not watched: they never need importing, and every import removes
 * files; nor changes that leave a file settled, which a pass makes by reading it. A watch that fails
 * (an inotify limit, the folder gone) leaves new downloads to the periodic pass until it re-arms.
 * `onChange` hears every change, removals included, and `onWatching` each start and stop of the
 * watch: the downloads listing follows both.
 */
export function watchDownloads(opts: WatchOptions) {
  const passes = settledPasses(opts, () => watched.folder());
  const watched = folderWatch(opts, passes);
  const off = opts.config.onChange((next, prev) => {
    const asked = watchSettingsChange(watched.folder(), next, prev);
    if (asked === 'rearm') watched.rearm(next.paths.downloads);
    else if (asked === 'replan') passes.replan();
  });

  return {
    ready: watched.arm(),
    /** Whether the watch reports changes now. */
    watching: watched.watching,
    async close() {
      off();
      passes.stop();
      await watched.close();
      await passes.requesting();
    },
  };
}
