// GET /api/events through the shipped deploy/nginx.conf and a real nginx: each event reaches the
// browser while the stream stays open, and a browser that goes away frees its place in the API
// (nginx must close the upstream connection too, or the API would keep the readers open for it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsEventSchema } from '@mo/shared';
import { TEST_API_KEY, testApp, type TestApp } from '@mo/api/test-support/app';
import { sseReader } from '@mo/api/test-support/sse';
import { listen } from '@mo/api/test-support/serve';
import { startNginx, type RunningNginx } from '../deploy/support/nginx.ts';
import { freePort } from '@mo/test-support/redis';

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let nginx: RunningNginx;

beforeAll(async () => {
  t = await testApp({ heartbeatMs: 200 });
  server = await listen(t.app.fetch);
  nginx = await startNginx({ listenPort: await freePort(), apiPort: server.port });
});

afterAll(async () => {
  await nginx?.stop();
  await server?.close();
  await t?.close();
});

describe('the event stream behind the shipped nginx config', () => {
  it('passes each event on as it happens, heartbeats included, and frees the API when the browser leaves', async () => {
    const abort = new AbortController();
    const res = await fetch(`http://127.0.0.1:${nginx.port}/api/events`, { headers: { 'x-api-key': TEST_API_KEY }, signal: abort.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = sseReader(res.body!);
    expect((await stream.next()).event).toBe('snapshot');
    for (const settle_seconds of [7, 8, 9]) {
      await t.config.updateSettings({ app: { settle_seconds } });
      const e = await stream.next((m) => m.event === 'settings');
      expect(settingsEventSchema.parse(e.data).sections).toEqual(['app']);
    }
    expect((await stream.next((m) => m.event === 'comment')).comment).toBe('heartbeat');
    expect(t.live.clients()).toBe(1);
    abort.abort();
    await expect.poll(() => t.live.clients(), { timeout: 10_000 }).toBe(0);
    expect(await nginx.errorLog()).not.toMatch(/upstream prematurely closed|\[error\]/);
  });
});
