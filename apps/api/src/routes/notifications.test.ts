import { afterEach, describe, expect, it } from 'vitest';
import type { NotifyTarget } from '@mo/shared';
import { testApp, type TestApp } from '../test-support/app.ts';
import { fakeTarget, type FakeAnswer, type FakeTarget, type SeenRequest } from '@mo/test-support/fake-target';

let t: TestApp | undefined;
let fakes: FakeTarget[] = [];
afterEach(async () => {
  await t?.close();
  await Promise.all(fakes.map((f) => f.close()));
  [t, fakes] = [undefined, []];
});

async function fake(answer?: (req: SeenRequest) => FakeAnswer) {
  const f = await fakeTarget(answer);
  fakes.push(f);
  return f;
}

async function withTargets(targets: NotifyTarget[], notifyTimeoutMs?: number) {
  t = await testApp({ notifyTimeoutMs });
  await t.config.updateSettings({ notifications: { targets } });
  return t;
}

const test = (name: unknown, init: RequestInit = {}) =>
  t!.app.request('/api/notifications/test', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name }), ...init });

describe('POST /api/notifications/test', () => {
  it('200 {"ok": true} when the target answered 2xx, after a real send (a disabled target too)', async () => {
    const f = await fake(() => ({ status: 204 }));
    await withTargets([{ name: 'dc', kind: 'discord', url: `${f.base}/api/webhooks/1/tok`, enabled: false }]);
    const res = await test('dc');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(f.seen).toHaveLength(1);
    expect(JSON.parse(f.seen[0]!.body).embeds[0].title).toBe('Test from media-organizer');
  });

  it('502 bad_gateway naming the target, the request, the status and what it said, never its token', async () => {
    const f = await fake(() => ({
      status: 401,
      body: '{"error":"Unauthorized","errorCode":401,"errorDescription":"you need to provide a valid access token (got GotifyTok42)"}',
    }));
    await withTargets([{ name: 'phone', kind: 'gotify', url: f.base, token: 'GotifyTok42', enabled: true }]);
    const res = await test('phone');
    expect(res.status).toBe(502);
    const body = await res.json();
    expect(body.error.code).toBe('bad_gateway');
    expect(body.error.message).toMatch(/^phone: POST \/message: answered HTTP 401: \{"error":"Unauthorized".*got \*\*\*\)"\}$/);
    expect(JSON.stringify(body)).not.toContain('GotifyTok42');
  });

  it('502 naming the timeout when the target does not answer in time', async () => {
    const f = await fake(() => 'hang');
    await withTargets([{ name: 'nt', kind: 'ntfy', url: `${f.base}/alerts`, enabled: true }], 300);
    const started = Date.now();
    const res = await test('nt');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(res.status).toBe(502);
    expect((await res.json()).error.message).toBe('nt: POST /: no answer within 0.3 s');
  });

  it('502 for a refused connection, and for a redirect, which is not followed', async () => {
    const f = await fake(() => ({ status: 302, body: '' }));
    const closed = await fakeTarget();
    await closed.close();
    await withTargets([
      { name: 'moved', kind: 'apprise', url: f.base, enabled: true },
      { name: 'gone', kind: 'webhook', url: `${closed.base}/hook`, enabled: true },
    ]);
    expect((await (await test('moved')).json()).error.message).toBe('moved: POST /notify: answered with a redirect (HTTP 302), which is not followed');
    const gone = await test('gone');
    expect(gone.status).toBe(502);
    expect((await gone.json()).error.message).toBe('gone: POST /hook: ECONNREFUSED');
  });

  it('404 for a name no saved target has; 400 for a bad body, sending nothing', async () => {
    const f = await fake();
    await withTargets([{ name: 'ap', kind: 'apprise', url: f.base, enabled: true }]);
    const missing = await test('nope');
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toMatchObject({ code: 'not_found', message: 'no notification target named "nope" is saved' });
    for (const init of [{ body: JSON.stringify({}) }, { body: JSON.stringify({ name: 'ap', extra: 1 }) }, { body: '' }, { body: 'not json' }]) {
      const res = await test(null, init);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe('bad_request');
    }
    expect((await test(5)).status).toBe(400);
    expect(f.seen).toHaveLength(0);
  });

  it('needs credentials', async () => {
    await withTargets([]);
    const res = await t!.anonymous('/api/notifications/test', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"name":"x"}' });
    expect(res.status).toBe(401);
  });
});
