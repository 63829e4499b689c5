import { serve } from '@hono/node-server';
import { freePort } from '@mo/test-support/redis';

/** The app on a real socket on 127.0.0.1, for what `app.request()` cannot show (a closed connection, a proxy). */
export async function listen(fetch: (req: Request) => Response | Promise<Response>): Promise<{ port: number; close(): Promise<void> }> {
  const port = await freePort();
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch, port, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return {
    port,
    close() {
      // fetch keeps its connection for reuse; closing only idle ones would wait for that to lapse.
      if ('closeAllConnections' in server) server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
