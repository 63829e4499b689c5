import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { JobEvents, LibraryCache, Logger, RuntimeConfig } from '@mo/core';
import type { Config, JobEvent, LiveEvent, SnapshotEvent, State, TranscodeEvent } from '@mo/shared';
import { createEventThrottle, type ThrottledKind } from './event-throttle.ts';

/** One open GET /api/events: the hub hands it each event; `end` closes its stream from this side. */
export interface LiveClient {
  send(event: LiveEvent): void;
  end(): void;
}

/**
 * The fan-out behind GET /api/events. It listens to the job streams, the settings, state.json and
 * the library index only while at least one client is connected, and sends each event to all of
 * them, job progress throttled once for everyone.
 */
export interface LiveEvents {
  /** Adds a client; the returned function removes it (and, for the last one, stops listening). */
  join(client: LiveClient): () => void;
  snapshot(): Promise<SnapshotEvent>;
  clients(): number;
  /** Listeners this hub holds on its sources: 4 while any client is connected, else 0. */
  subscriptions(): number;
  /** How often each stream sends a comment, so that proxies and browsers keep an idle stream open. */
  readonly heartbeatMs: number;
  /** Ends every client's stream (shutdown: the connections must close for the server to stop). */
  close(): void;
}

export const PROGRESS_INTERVAL_MS = 1000;
export const HEARTBEAT_MS = 15_000;

const KIND: Record<JobEvent['state'], ThrottledKind> = { active: 'start', progress: 'progress', completed: 'end', failed: 'end' };

/** Changes with the effective settings; from the config itself, so it is the same in every API process. */
export function settingsVersion(config: Config): string {
  return createHash('sha256').update(JSON.stringify(config)).digest('hex').slice(0, 16);
}

export function transcodeChanges(next: State, prev: State): TranscodeEvent['changed'] {
  const paths = new Set([...Object.keys(prev.transcodes), ...Object.keys(next.transcodes)]);
  return [...paths]
    .filter((path) => !isDeepStrictEqual(prev.transcodes[path], next.transcodes[path]))
    .map((path) => ({ path, entry: next.transcodes[path] ?? null }));
}

export function createLiveEvents(deps: {
  jobEvents: JobEvents;
  config: RuntimeConfig;
  library: LibraryCache;
  logger: Logger;
  progressIntervalMs?: number;
  heartbeatMs?: number;
  now?: () => number;
}): LiveEvents {
  const now = deps.now ?? (() => performance.now());
  const clients = new Set<LiveClient>();
  const throttle = createEventThrottle<JobEvent>(deps.progressIntervalMs ?? PROGRESS_INTERVAL_MS);
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void)[] = [];

  function broadcast(event: LiveEvent) {
    for (const c of clients) {
      try {
        c.send(event);
      } catch (err) {
        deps.logger.error({ err }, 'live event client failed');
      }
    }
  }

  function schedule() {
    const at = throttle.nextDue();
    // A job tracked later is due later, so a timer already set is never late.
    if (at === null || timer) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        for (const e of throttle.due(now())) broadcast({ event: 'job', data: e });
        schedule();
      },
      Math.max(0, at - now()),
    );
  }

  function onJob(e: JobEvent) {
    const out = throttle.offer(`${e.queue}:${e.id}`, KIND[e.state], e, now());
    if (out) broadcast({ event: 'job', data: out });
    schedule();
  }

  function start() {
    unsubscribe = [
      deps.jobEvents.subscribe(onJob),
      deps.config.onChange((next, prev) => {
        const sections = Object.keys(next).filter((k) => !isDeepStrictEqual(next[k as keyof Config], prev[k as keyof Config]));
        broadcast({ event: 'settings', data: { version: settingsVersion(next), sections } });
      }),
      deps.config.onStateChange((next, prev) => {
        const changed = transcodeChanges(next, prev);
        if (changed.length > 0) broadcast({ event: 'transcode', data: { changed } });
      }),
      deps.library.onIndex((header, version) => broadcast({ event: 'library', data: { version, scanned_at: header?.scanned_at ?? null } })),
    ];
  }

  function stop() {
    for (const off of unsubscribe) off();
    unsubscribe = [];
    clearTimeout(timer);
    timer = undefined;
    throttle.clear();
  }

  return {
    join(client) {
      clients.add(client);
      if (clients.size === 1) start();
      let joined = true;
      return () => {
        if (!joined) return;
        joined = false;
        clients.delete(client);
        if (clients.size === 0) stop();
      };
    },

    async snapshot() {
      const jobs = await deps.jobEvents.active();
      return {
        redis: jobs !== null,
        jobs,
        settings: { version: settingsVersion(deps.config.current()) },
        library: { version: deps.library.version(), scanned_at: deps.library.header()?.scanned_at ?? null },
      };
    },

    heartbeatMs: deps.heartbeatMs ?? HEARTBEAT_MS,
    clients: () => clients.size,
    subscriptions: () => unsubscribe.length,

    close() {
      for (const c of [...clients]) c.end();
    },
  };
}
