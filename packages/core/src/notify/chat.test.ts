import { describe, expect, it } from 'vitest';
import type { NotifyTarget } from '@mo/shared';
import { cleanText, noticeMessage, plainText, testMessage, truncate } from './message.ts';
import {
  answerExcerpt,
  answerProblem,
  appriseRequest,
  discordEscape,
  discordRequest,
  gotifyRequest,
  mediaServerTestRequest,
  ntfyRequest,
  targetSecrets,
} from './requests.ts';

const AT = '2025-01-02T03:04:05.000Z';
const target = (t: Partial<NotifyTarget> & Pick<NotifyTarget, 'kind' | 'url'>): NotifyTarget => ({ name: 't', enabled: true, ...t });
const imported = (names: string[]) => ({ pass: 'p1', imports: names.map((n) => ({ source: `/dl/${n}`, destination: `/media/Movies/${n}` })) });

describe('noticeMessage', () => {
  it('counts the files in the title and names each as the library does', () => {
    const m = noticeMessage({ pass: 'p', imports: [{ source: '/dl/x.mkv', destination: '/media/Movies/Amélie (2001)/Amélie (2001).mkv' }] }, AT);
    expect(m).toEqual({ event: 'imported', title: 'Imported 1 file', lines: ['Amélie (2001).mkv'], more: 0, at: AT });
  });

  it('lists ten names, then says how many more', () => {
    const m = noticeMessage(imported(Array.from({ length: 13 }, (_, i) => `f${i}.mkv`)), AT);
    expect(m.title).toBe('Imported 13 files');
    expect(m.lines).toHaveLength(10);
    expect(m.more).toBe(3);
    expect(plainText(m).split('\n').at(-1)).toBe('…and 3 more');
  });

  it('names an undo by the import it took back', () => {
    expect(noticeMessage({ ...imported(['a.mkv', 'b.mkv']), undone: 12 }, AT)).toMatchObject({
      event: 'undone',
      title: 'Undid import #12 (2 files)',
      lines: ['a.mkv', 'b.mkv'],
    });
  });

  it('cuts control and direction characters out of names, and long names short', () => {
    expect(cleanText('a\u0007b\r\nc\u202egpj.exe\u0085')).toBe('a b c gpj.exe');
    const long = cleanText('é'.repeat(300));
    expect([...long]).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
    expect(truncate('😀😀😀', 2)).toBe('😀…');
  });

  it('a test message names the target', () => {
    expect(plainText(testMessage('phone', AT))).toContain('"phone"');
  });
});

describe('discordRequest', () => {
  const url = 'https://discord.com/api/webhooks/123456/tok_en-XYZ?thread_id=9';

  it('posts one embed with no mentions allowed, to the webhook URL as given', () => {
    const req = discordRequest(target({ kind: 'discord', url }), noticeMessage(imported(['Heat (1995).mkv']), AT));
    expect(req).toEqual({ method: 'POST', url, headers: { 'Content-Type': 'application/json' }, body: expect.any(String) });
    expect(JSON.parse(req.body!)).toEqual({
      allowed_mentions: { parse: [] },
      embeds: [{ title: 'Imported 1 file', description: 'Heat \\(1995\\).mkv', color: 0x2e7d32, timestamp: AT }],
    });
  });

  it('escapes Markdown and mentions in names, so that none formats, links or pings', () => {
    expect(discordEscape('@everyone <@123> **x** [a](http://e) ||s|| `c` #h')).toBe(
      '\\@everyone \\<\\@123\\> \\*\\*x\\*\\* \\[a\\]\\(http\\://e\\) \\|\\|s\\|\\| \\`c\\` \\#h',
    );
    const body = JSON.parse(discordRequest(target({ kind: 'discord', url }), noticeMessage(imported(['@everyone.mkv']), AT)).body!);
    expect(body.embeds[0].description).toBe('\\@everyone.mkv');
  });

  it("keeps the title and the description within Discord's limits", () => {
    const m = { event: 'test' as const, title: 'T'.repeat(300), lines: Array.from({ length: 10 }, () => '*'.repeat(450)), more: 0, at: AT };
    const embed = JSON.parse(discordRequest(target({ kind: 'discord', url }), m).body!).embeds[0];
    expect([...embed.title]).toHaveLength(256);
    expect([...embed.description]).toHaveLength(4096);
  });
});

describe('ntfyRequest', () => {
  it('publishes JSON to the server root, the topic from the URL: a non-ASCII title arrives intact', () => {
    const m = noticeMessage({ pass: 'p', imports: [{ source: '/d/a', destination: '/m/Amélie (2001).mkv' }] }, AT);
    const req = ntfyRequest(target({ kind: 'ntfy', url: 'https://ntfy.sh/mo-alerts' }), { ...m, title: 'Amélie (2001)' });
    expect(req.url).toBe('https://ntfy.sh/');
    expect(req.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(JSON.parse(req.body!)).toEqual({ topic: 'mo-alerts', title: 'Amélie (2001)', message: 'Amélie (2001).mkv', tags: ['inbox_tray'], priority: 3 });
  });

  it('a server under a path, an access token as Bearer', () => {
    const req = ntfyRequest(target({ kind: 'ntfy', url: 'http://10.0.0.5:8080/ntfy/home/', token: 'tk_abc' }), testMessage('t', AT));
    expect(req.url).toBe('http://10.0.0.5:8080/ntfy/');
    expect(req.headers.Authorization).toBe('Bearer tk_abc');
    expect(JSON.parse(req.body!).topic).toBe('home');
  });

  it('a user and password in the URL as Basic, never in the URL sent', () => {
    const req = ntfyRequest(target({ kind: 'ntfy', url: 'https://phil:p%40ss@ntfy.lan/alerts' }), testMessage('t', AT));
    expect(req.url).toBe('https://ntfy.lan/');
    expect(req.headers.Authorization).toBe(`Basic ${Buffer.from('phil:p@ss').toString('base64')}`);
  });
});

describe('gotifyRequest and appriseRequest', () => {
  it('Gotify: POST /message, the app token in X-Gotify-Key and never in the URL', () => {
    const req = gotifyRequest(target({ kind: 'gotify', url: 'http://gotify.lan/sub/', token: 'AbC.123' }), noticeMessage(imported(['a.mkv', 'b.mkv']), AT));
    expect(req).toEqual({
      method: 'POST',
      url: 'http://gotify.lan/sub/message',
      headers: { 'Content-Type': 'application/json', 'X-Gotify-Key': 'AbC.123' },
      body: JSON.stringify({ title: 'Imported 2 files', message: 'a.mkv\nb.mkv', priority: 5 }),
    });
  });

  it('Apprise: POST /notify/<key> with a configuration key, /notify without', () => {
    const m = noticeMessage(imported(['a.mkv']), AT);
    const keyed = appriseRequest(target({ kind: 'apprise', url: 'http://apprise:8000', token: 'media_1' }), m);
    expect(keyed.url).toBe('http://apprise:8000/notify/media_1');
    expect(JSON.parse(keyed.body!)).toEqual({ title: 'Imported 1 file', body: 'a.mkv', type: 'success', format: 'text' });
    expect(appriseRequest(target({ kind: 'apprise', url: 'http://u:pw@apprise:8000/' }), m)).toMatchObject({
      url: 'http://apprise:8000/notify',
      headers: { Authorization: `Basic ${Buffer.from('u:pw').toString('base64')}` },
    });
  });
});

describe('mediaServerTestRequest', () => {
  it('asks each kind something that needs its key and changes nothing', () => {
    expect(mediaServerTestRequest(target({ kind: 'jellyfin', url: 'http://jf:8096', api_key: 'k' }))).toEqual({
      method: 'GET',
      url: 'http://jf:8096/System/Info',
      headers: { Authorization: 'MediaBrowser Token="k"' },
    });
    expect(mediaServerTestRequest(target({ kind: 'emby', url: 'http://emby:8096', api_key: 'k' })).headers).toEqual({ 'X-Emby-Token': 'k' });
    expect(mediaServerTestRequest(target({ kind: 'plex', url: 'http://plex:32400', token: 'p' })).url).toBe('http://plex:32400/library/sections');
    expect(JSON.parse(mediaServerTestRequest(target({ kind: 'kodi', url: 'http://kodi:8080' })).body!)).toEqual({
      jsonrpc: '2.0',
      method: 'JSONRPC.Ping',
      id: 1,
    });
    expect(mediaServerTestRequest(target({ kind: 'webhook', url: 'https://h.example/x', secret: 's3cr' }))).toEqual({
      method: 'POST',
      url: 'https://h.example/x',
      headers: { 'Content-Type': 'application/json', 'X-MO-Secret': 's3cr' },
      body: '{"event":"test","target":"t"}',
    });
  });
});

describe('what a failed answer says', () => {
  it("names the status and a short, clean excerpt with the target's secrets masked", () => {
    const t = target({ kind: 'discord', url: 'https://discord.com/api/webhooks/1/very-secret-token' });
    const body = `<html><body><h1>401</h1>\u0007 token very-secret-token is invalid ${'x'.repeat(500)}</body></html>`;
    const problem = answerProblem('discord', 401, body, { secrets: targetSecrets(t) })!;
    expect(problem.startsWith('answered HTTP 401: 401 token *** is invalid xxx')).toBe(true);
    expect(problem).not.toContain('very-secret-token');
    expect(problem.length).toBeLessThan(240);
  });

  it('the secrets of a target: keys, the URL password, a Discord token, an ntfy topic', () => {
    expect(targetSecrets(target({ kind: 'gotify', url: 'http://u:hunter2@g', token: 'AppTok' }))).toEqual(['AppTok', 'hunter2']);
    expect(targetSecrets(target({ kind: 'ntfy', url: 'https://ntfy.sh/my-topic' }))).toEqual(['my-topic']);
  });

  it('a 2xx passes; an empty error answer names only the status; Kodi\'s test expects "pong"', () => {
    expect(answerProblem('ntfy', 200, '{}')).toBeNull();
    expect(answerProblem('gotify', 500, '  ')).toBe('answered HTTP 500');
    expect(answerProblem('kodi', 200, '{"result":"pong"}', { kodiResult: 'pong' })).toBeNull();
    expect(answerProblem('kodi', 200, '{"result":"OK"}', { kodiResult: 'pong' })).toBe('did not answer "pong"');
    expect(answerExcerpt('a\u0000b', [])).toBe('a b');
  });
});
