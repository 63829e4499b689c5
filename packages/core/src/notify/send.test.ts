import { afterEach, describe, expect, it } from 'vitest';
import type { NotifyTarget } from '@mo/shared';
import { fakeTarget, type FakeAnswer, type FakeTarget, type SeenRequest } from '@mo/test-support/fake-target';
import { notifyTarget, testTarget } from './send.ts';

let fakes: FakeTarget[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

async function fake(answer?: (req: SeenRequest) => FakeAnswer) {
  const f = await fakeTarget(answer);
  fakes.push(f);
  return f;
}

const notice = {
  pass: 'p9',
  imports: [
    { source: '/dl/a.mkv', destination: '/media/Movies/Amélie (2001)/Amélie (2001).mkv' },
    { source: '/dl/b.mkv', destination: '/media/TV/@everyone/Season 01/@everyone - S01E01.mkv' },
  ],
};
const target = (t: Partial<NotifyTarget> & Pick<NotifyTarget, 'kind' | 'url'>): NotifyTarget => ({ name: 'chat', enabled: true, ...t });

describe('the chat kinds, sent for real to a fake service on loopback', () => {
  it('Discord: the webhook path as given, one embed, no mentions; 204 is success', async () => {
    const f = await fake(() => ({ status: 204 }));
    await notifyTarget(target({ kind: 'discord', url: `${f.base}/api/webhooks/42/secret-tok` }), notice);
    const [req] = f.seen;
    expect(req).toMatchObject({ method: 'POST', url: '/api/webhooks/42/secret-tok' });
    expect(req!.headers['content-type']).toBe('application/json');
    const body = JSON.parse(req!.body);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.embeds[0]).toMatchObject({ title: 'Imported 2 files', description: 'Amélie \\(2001\\).mkv\n\\@everyone \\- S01E01.mkv' });
  });

  it('ntfy: JSON at the server root, the topic in the body, the title intact, the token as Bearer', async () => {
    const f = await fake();
    await notifyTarget(target({ kind: 'ntfy', url: `${f.base}/films`, token: 'tk_x1' }), { ...notice, imports: notice.imports.slice(0, 1) });
    const [req] = f.seen;
    expect(req).toMatchObject({ method: 'POST', url: '/' });
    expect(req!.headers.authorization).toBe('Bearer tk_x1');
    expect(JSON.parse(req!.body)).toEqual({ topic: 'films', title: 'Imported 1 file', message: 'Amélie (2001).mkv', tags: ['inbox_tray'], priority: 3 });
  });

  it('Gotify: POST /message, X-Gotify-Key, nothing in the query', async () => {
    const f = await fake();
    await notifyTarget(target({ kind: 'gotify', url: f.base, token: 'AppTok' }), { ...notice, undone: 7 });
    const [req] = f.seen;
    expect(req).toMatchObject({ method: 'POST', url: '/message' });
    expect(req!.headers['x-gotify-key']).toBe('AppTok');
    expect(JSON.parse(req!.body)).toMatchObject({ title: 'Undid import #7 (2 files)', priority: 5 });
  });

  it('Apprise: POST /notify/<key>, with the test message when tested', async () => {
    const f = await fake();
    await testTarget(target({ kind: 'apprise', url: f.base, token: 'media' }));
    const [req] = f.seen;
    expect(req).toMatchObject({ method: 'POST', url: '/notify/media' });
    expect(JSON.parse(req!.body)).toMatchObject({ title: 'Test from media-organizer', type: 'info', format: 'text' });
  });
});

describe('testTarget', () => {
  it('a Kodi test is a JSON-RPC ping, "pong" the only good answer', async () => {
    const f = await fake((r) => ({ status: 200, body: JSON.parse(r.body).method === 'JSONRPC.Ping' ? '{"jsonrpc":"2.0","id":1,"result":"pong"}' : '{}' }));
    await testTarget(target({ kind: 'kodi', url: f.base }));
    expect(f.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /jsonrpc']);
  });

  it('a Jellyfin test asks /System/Info with the key, and names a 401 with what the server said, its key masked', async () => {
    const f = await fake(() => ({ status: 401, body: 'Access token jf-secret-key is invalid', type: 'text/plain' }));
    const err = await testTarget(target({ kind: 'jellyfin', url: f.base, api_key: 'jf-secret-key' })).catch((e: Error) => e);
    expect((err as Error).message).toBe('GET /System/Info: answered HTTP 401: Access token *** is invalid');
    expect(f.seen[0]!.headers.authorization).toBe('MediaBrowser Token="jf-secret-key"');
  });

  it('a Discord failure names the path without the webhook token', async () => {
    const f = await fake(() => ({ status: 404, body: '{"message": "Unknown Webhook", "code": 10015}' }));
    const err = await testTarget(target({ kind: 'discord', url: `${f.base}/api/webhooks/42/secret-tok` })).catch((e: Error) => e);
    expect((err as Error).message).toBe('POST /api/webhooks/42/***: answered HTTP 404: {"message": "Unknown Webhook", "code": 10015}');
  });

  it('reads no more than 1 MiB of an answer, and says so rather than taking a cut-off answer for one', async () => {
    const f = await fake(() => ({ status: 200, body: 'x'.repeat(2 * 1024 * 1024) }));
    const err = await testTarget(target({ kind: 'plex', url: f.base, token: 'PlexTok' })).catch((e: Error) => e);
    expect((err as Error).message).toBe('GET /library/sections: answered HTTP 200 with more than 1 MiB; nothing more was read');
    const ok = await fake(() => ({ status: 200, body: JSON.stringify({ pad: 'y'.repeat(1024 * 1024 - 20) }) }));
    await expect(testTarget(target({ kind: 'plex', url: ok.base, token: 'PlexTok' }))).resolves.toBeUndefined();
  });

  it('gives up after the timeout, saying so', async () => {
    const f = await fake(() => 'hang');
    const err = await testTarget(target({ kind: 'gotify', url: f.base, token: 'AppTok' }), 200).catch((e: Error) => e);
    expect((err as Error).message).toBe('POST /message: no answer within 0.2 s');
  });
});
