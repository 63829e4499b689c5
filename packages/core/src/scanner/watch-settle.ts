/**
 * When a watched downloads folder should get a scanner pass. A pass imports only files whose
 * modification time is `settle_seconds` old, so a pass any sooner after the last change would skip
 * the file it was woken for; every change restarts the wait, so a burst (a season pack of 24 files)
 * ends in one pass.
 */

/** Room for file times that lag the change event (coarse timestamps, a slow disk). */
export const SETTLE_MARGIN_MS = 1000;
/** How soon to try again when the pass we joined had begun before the change, or the queue failed. */
export const RETRY_MS = 2000;

export interface WatchState {
  /** The newest change not yet known to be seen by a pass. */
  lastChangeMs: number | null;
  /** No pass before this: the last try did not cover the change. */
  retryAtMs: number | null;
}

export const IDLE: WatchState = { lastChangeMs: null, retryAtMs: null };

export type WatchDecision = { kind: 'idle' } | { kind: 'wait'; ms: number } | { kind: 'enqueue'; asOfMs: number };

/** A pass already waiting, or one that began no sooner than the change, lists the folder after it. */
export interface QueuedPass {
  state: string;
  /** When its current attempt began (BullMQ's processedOn). */
  startedMs: number | null;
}

const NOT_STARTED = new Set(['waiting', 'prioritized', 'delayed', 'waiting-children']);

/**
 * Whether a file's change event is worth a pass: one that left it unsettled. A pass reading a
 * settled file (atime) or setting its owner raises change events too, and must not wake another.
 */
export function isFreshChange(mtimeMs: number, nowMs: number, settleSeconds: number): boolean {
  return nowMs - mtimeMs < settleSeconds * 1000 + SETTLE_MARGIN_MS;
}

export function changed(s: WatchState, nowMs: number): WatchState {
  return { lastChangeMs: Math.max(s.lastChangeMs ?? nowMs, nowMs), retryAtMs: s.retryAtMs };
}

export function decide(s: WatchState, nowMs: number, settleSeconds: number): WatchDecision {
  if (s.lastChangeMs === null) return { kind: 'idle' };
  const due = Math.max(s.lastChangeMs + settleSeconds * 1000 + SETTLE_MARGIN_MS, s.retryAtMs ?? -Infinity);
  return due <= nowMs ? { kind: 'enqueue', asOfMs: s.lastChangeMs } : { kind: 'wait', ms: due - nowMs };
}

export function covers(pass: QueuedPass, asOfMs: number): boolean {
  if (NOT_STARTED.has(pass.state)) return true;
  return pass.startedMs !== null && pass.startedMs >= asOfMs;
}

/**
 * The state once a pass was asked for changes up to `asOfMs`; `pass` is null when the queue could
 * not be reached. Changes that arrived while asking stay pending.
 */
export function enqueued(s: WatchState, asOfMs: number, pass: QueuedPass | null, nowMs: number): WatchState {
  if (pass === null || !covers(pass, asOfMs)) return { lastChangeMs: s.lastChangeMs, retryAtMs: nowMs + RETRY_MS };
  if (s.lastChangeMs !== null && s.lastChangeMs > asOfMs) return { lastChangeMs: s.lastChangeMs, retryAtMs: null };
  return IDLE;
}

/** The settings a watch of the downloads folder follows. */
export interface WatchSettings {
  paths: { downloads: string };
  app: { watch: boolean; settle_seconds: number };
}

/**
 * What a settings change asks of a watch on `folder`: `rearm` for another folder or app.watch
 * turned on or off, `replan` for a new settle_seconds (the wait under way is measured again), null
 * for nothing.
 */
export function watchSettingsChange(folder: string, next: WatchSettings, prev: WatchSettings): 'rearm' | 'replan' | null {
  if (next.paths.downloads !== folder || next.app.watch !== prev.app.watch) return 'rearm';
  return next.app.settle_seconds !== prev.app.settle_seconds ? 'replan' : null;
}
