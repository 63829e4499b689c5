import { createRoute } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import { credentialsStillValid } from '../http/auth.ts';
import type { AppDeps } from '../http/env.ts';
import { other, router } from '../openapi/route.ts';

/** How long a browser waits before it reconnects (sent with the snapshot as the SSE `retry`). */
export const RECONNECT_MS = 2000;
/**
 * Writes a client may leave unread before it is dropped: a tab that stopped reading (a suspended
 * laptop, a stuck proxy) must not hold every later event in memory. Dropped, it reconnects and
 * starts again from a snapshot.
 */
export const MAX_UNREAD_WRITES = 1000;

const getEvents = createRoute({
  method: 'get',
  path: '/events',
  operationId: 'getEvents',
  summary: 'Live events (Server-Sent Events)',
  tags: ['service'],
  description:
    'One stream per tab. First a `snapshot` (active jobs with progress, `redis` up or not, the settings version, the library index version and time), ' +
    'then `job` ({queue, id, name, state: active|progress|completed|failed, progress?, error?, error_code?}; progress at most about once a second per job), ' +
    '`settings` ({version, sections}), `library` ({version, scanned_at}) and `transcode` ({changed: [{path, entry}]}); each `data` is JSON. ' +
    'A comment every 15 s keeps it open. Missed events are not replayed: re-fetch after each snapshot.',
  responses: { 200: other('text/event-stream', 'An event stream that stays open') },
});

export function eventRoutes(deps: AppDeps) {
  return router().openapi(getEvents, async (c) => {
    const stillValid = await credentialsStillValid(c, deps);
    // nginx, and proxies that honour its header, then pass each event on unbuffered, whatever their own config.
    c.header('X-Accel-Buffering', 'no');
    const res = streamSSE(c, async (stream) => {
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      stream.onAbort(finish);
      let unread = 0;
      let chain = Promise.resolve();
      const enqueue = (write: () => Promise<unknown>) => {
        if (stream.aborted) return;
        if (unread >= MAX_UNREAD_WRITES) {
          // Closing would wait for the unread writes; cancelling ends the answer now.
          stream.abort();
          return;
        }
        unread++;
        chain = chain.then(write).then(
          () => void unread--,
          () => void unread--,
        );
      };
      const leave = deps.live.join({
        send: (e) => enqueue(() => stream.writeSSE({ event: e.event, data: JSON.stringify(e.data) })),
        end: finish,
      });
      // Joined first, then read: what changes in between arrives as an event after the snapshot.
      // Events only come from timers and I/O, so none can be queued ahead of it.
      enqueue(async () => stream.writeSSE({ event: 'snapshot', data: JSON.stringify(await deps.live.snapshot()), retry: RECONNECT_MS }));
      const heartbeat = setInterval(() => {
        void stillValid().then(
          (ok) => (ok ? enqueue(() => stream.write(': heartbeat\n\n')) : finish()),
          () => finish(),
        );
      }, deps.live.heartbeatMs);
      try {
        await finished;
      } finally {
        clearInterval(heartbeat);
        leave();
      }
    });
    // Once a stream ends (shutdown, credentials gone) its connection closes rather than idling for
    // reuse: a server that is stopping would otherwise wait out the browser's keep-alive.
    res.headers.set('Connection', 'close');
    return res;
  });
}
