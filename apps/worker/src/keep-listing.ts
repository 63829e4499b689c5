import type { Config } from '@mo/shared';
import type { Logger, RuntimeConfig } from '@mo/core';

/** How often the listing is walked again while no watch reports changes (app.watch off, or the watch failed). */
export const POLL_MS = 5000;
/** The least time between two walks, however many changes arrive: a download being written sends many. */
export const MIN_GAP_MS = 1000;
/**
 * A walk is followed by at least this many times its own length of rest: a downloads folder of
 * hundreds of thousands of files costs at most a fifth of a core, not a core.
 */
export const REST_PER_WALK = 4;

/**
 * Keeps GET /api/downloads' listing current without a scanner pass: walked once at start, again
 * soon after each change the watch reports (`changed()`), and every POLL_MS while nothing watches.
 * Walks never overlap; changes that arrive during one ask for one more.
 */
export function keepDownloadsListing(opts: {
  config: RuntimeConfig;
  logger: Logger;
  /** Whether a watch of the downloads folder reports changes now. */
  watched: () => boolean;
  refresh?: (cfg: Config, signal: AbortSignal) => Promise<unknown>;
  pollMs?: number;
}) {
  const { config, logger } = opts;
  const refresh = opts.refresh ?? ((cfg, signal) => config.data.downloadsListing().refresh(cfg, { signal }));
  const pollMs = opts.pollMs ?? POLL_MS;
  const abort = new AbortController();
  let dirty = true;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let lastEndMs = 0;
  let lastWalkMs = 0;
  let failing = false;

  function schedule() {
    if (abort.signal.aborted || running) return;
    clearTimeout(timer);
    const rest = Math.max(MIN_GAP_MS, REST_PER_WALK * lastWalkMs);
    const at = dirty ? lastEndMs + rest : opts.watched() ? null : lastEndMs + Math.max(pollMs, rest);
    timer = at === null ? undefined : setTimeout(walk, Math.max(0, at - Date.now()));
  }

  function walk() {
    timer = undefined;
    dirty = false;
    const started = Date.now();
    running = refresh(config.current(), abort.signal)
      .then(
        () => {
          if (failing) logger.info('the downloads listing is saved again');
          failing = false;
        },
        (err: Error) => {
          if (abort.signal.aborted) return;
          // Once, not every few seconds: a data folder that cannot be written stays so for a while.
          if (!failing) logger.warn({ err: err.message }, 'could not refresh the downloads listing; trying again');
          failing = true;
        },
      )
      .finally(() => {
        lastEndMs = Date.now();
        lastWalkMs = lastEndMs - started;
        running = undefined;
        schedule();
      });
  }

  // Another folder, another data folder, settle_seconds or the video extensions: each changes the listing.
  const off = config.onChange(() => changed());

  function changed() {
    dirty = true;
    schedule();
  }

  schedule();
  return {
    /** Something changed under the folder, or the watch started or stopped: walk soon. */
    changed,
    async close() {
      off();
      abort.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
