import { describe, expect, it } from 'vitest';
import type { NotifyTarget } from '@mo/shared';
import {
  answerProblem,
  commonFolder,
  importFolders,
  kodiScanRequest,
  mediaUpdatedRequest,
  plexRefreshRequest,
  plexSectionFor,
  plexSectionsRequest,
  webhookRequest,
} from './requests.ts';

const target = (t: Partial<NotifyTarget> & Pick<NotifyTarget, 'kind'>): NotifyTarget => ({ name: 't', url: 'http://10.0.0.2:8096', enabled: true, ...t });
const imports = [
  { source: '/dl/a.mkv', destination: '/media/TV/Show/Season 01/Show - S01E01.mkv' },
  { source: '/dl/b.mkv', destination: '/media/TV/Show/Season 01/Show - S01E02.mkv' },
  { source: '/dl/c.mkv', destination: '/media/Movies/Heat (1995)/Heat (1995).mkv' },
];

describe('importFolders and commonFolder', () => {
  it('lists each destination folder once, in order', () => {
    expect(importFolders(imports)).toEqual(['/media/TV/Show/Season 01', '/media/Movies/Heat (1995)']);
  });

  it.each([
    [['/media/TV/Show/Season 01'], '/media/TV/Show/Season 01'],
    [['/media/TV/Show/Season 01', '/media/TV/Show/Season 02'], '/media/TV/Show'],
    [['/media/TV/Show', '/media/Movies/Heat'], '/media'],
    [['/a/b', '/c/d'], '/'],
    [['/media/TV/Show', '/media/TV/Shows'], '/media/TV'],
  ])('the common folder of %j is %s', (folders, common) => {
    expect(commonFolder(folders)).toBe(common);
  });
});

describe('mediaUpdatedRequest', () => {
  it('Jellyfin: POST /Library/Media/Updated with every path, the key in the MediaBrowser Authorization scheme', () => {
    expect(
      mediaUpdatedRequest(target({ kind: 'jellyfin', url: 'http://10.0.0.2:8096/jf/', api_key: 'k1' }), { pass: '1', imports: imports.slice(0, 2) }),
    ).toEqual({
      method: 'POST',
      url: 'http://10.0.0.2:8096/jf/Library/Media/Updated',
      headers: { 'Content-Type': 'application/json', Authorization: 'MediaBrowser Token="k1"' },
      body: JSON.stringify({
        Updates: [
          { Path: '/media/TV/Show/Season 01/Show - S01E01.mkv', UpdateType: 'Created' },
          { Path: '/media/TV/Show/Season 01/Show - S01E02.mkv', UpdateType: 'Created' },
        ],
      }),
    });
  });

  it('Emby: the same call with X-Emby-Token', () => {
    const req = mediaUpdatedRequest(target({ kind: 'emby', url: 'https://emby.lan/emby', api_key: 'k2' }), { pass: '1', imports: imports.slice(2) });
    expect(req.url).toBe('https://emby.lan/emby/Library/Media/Updated');
    expect(req.headers).toEqual({ 'Content-Type': 'application/json', 'X-Emby-Token': 'k2' });
    expect(JSON.parse(req.body!)).toEqual({ Updates: [{ Path: '/media/Movies/Heat (1995)/Heat (1995).mkv', UpdateType: 'Created' }] });
  });

  it.each(['jellyfin', 'emby'] as const)('%s, after an undo: the removed library paths as Deleted', (kind) => {
    const req = mediaUpdatedRequest(target({ kind, api_key: 'k' }), { pass: '1', imports: imports.slice(0, 2), undone: 7 });
    expect(JSON.parse(req.body!)).toEqual({
      Updates: [
        { Path: '/media/TV/Show/Season 01/Show - S01E01.mkv', UpdateType: 'Deleted' },
        { Path: '/media/TV/Show/Season 01/Show - S01E02.mkv', UpdateType: 'Deleted' },
      ],
    });
  });
});

describe('Plex', () => {
  const plex = target({ kind: 'plex', url: 'http://10.0.0.3:32400', token: 'tok' });
  const sections = {
    MediaContainer: {
      Directory: [
        { key: '1', type: 'movie', Location: [{ id: 1, path: '/media/Movies' }] },
        {
          key: '2',
          type: 'show',
          Location: [
            { id: 2, path: '/media/TV' },
            { id: 3, path: '/other/TV' },
          ],
        },
        { key: '7', type: 'show', Location: [{ id: 4, path: '/media/TV/Kids' }] },
      ],
    },
  };

  it('asks for the sections as JSON with the token in a header, not the URL', () => {
    expect(plexSectionsRequest(plex)).toEqual({
      method: 'GET',
      url: 'http://10.0.0.3:32400/library/sections',
      headers: { 'X-Plex-Token': 'tok', Accept: 'application/json' },
    });
  });

  it.each([
    ['/media/Movies/Heat (1995)', '1'],
    ['/media/TV/Show/Season 01', '2'],
    ['/other/TV/Show', '2'],
    ['/media/TV/Kids/Bluey/Season 01', '7'],
    ['/media/TV', '2'],
    ['/media/TVX/Show', null],
    ['/elsewhere', null],
  ])('finds the section holding %s: %s', (folder, key) => {
    expect(plexSectionFor(sections, folder)).toBe(key);
  });

  it.each([null, {}, { MediaContainer: {} }, { MediaContainer: { Directory: [{ key: 3 }, { key: '4', Location: [{}] }] } }, '<xml/>'])(
    'finds no section in the odd answer %j',
    (answer) => expect(plexSectionFor(answer, '/media/Movies')).toBeNull(),
  );

  it('refreshes one folder of one section, the folder in the query', () => {
    expect(plexRefreshRequest(plex, '2', '/media/TV/Show & Co/Season 01')).toEqual({
      method: 'GET',
      url: 'http://10.0.0.3:32400/library/sections/2/refresh?path=%2Fmedia%2FTV%2FShow+%26+Co%2FSeason+01',
      headers: { 'X-Plex-Token': 'tok', Accept: 'application/json' },
    });
  });
});

describe('kodiScanRequest', () => {
  it('asks for one scan of the folder holding every import, with a trailing slash', () => {
    const req = kodiScanRequest(target({ kind: 'kodi', url: 'http://10.0.0.4:8080' }), imports);
    expect(req).toEqual({
      method: 'POST',
      url: 'http://10.0.0.4:8080/jsonrpc',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'VideoLibrary.Scan', params: { directory: '/media/' }, id: 1 }),
    });
    expect(JSON.parse(kodiScanRequest(target({ kind: 'kodi' }), imports.slice(0, 2)).body!).params).toEqual({ directory: '/media/TV/Show/Season 01/' });
  });

  it('sends the URL’s user and password as Basic authentication, never in the URL', () => {
    const req = kodiScanRequest(target({ kind: 'kodi', url: 'http://kodi:p%40ss@10.0.0.4:8080/' }), imports);
    expect(req.url).toBe('http://10.0.0.4:8080/jsonrpc');
    expect(req.headers.Authorization).toBe(`Basic ${Buffer.from('kodi:p@ss').toString('base64')}`);
  });
});

describe('webhookRequest', () => {
  const notice = { pass: '42', imports: imports.slice(2) };

  it('POSTs the imports as JSON, with the secret header when there is a secret', () => {
    expect(webhookRequest(target({ kind: 'webhook', url: 'https://hooks.example.org/mo?x=1', secret: 's3' }), notice)).toEqual({
      method: 'POST',
      url: 'https://hooks.example.org/mo?x=1',
      headers: { 'Content-Type': 'application/json', 'X-MO-Secret': 's3' },
      body: JSON.stringify({ event: 'imported', pass: '42', imports: notice.imports }),
    });
  });

  it('after an undo: event "undone" with the import id and the paths it took back', () => {
    const req = webhookRequest(target({ kind: 'webhook', url: 'https://hooks.example.org/mo' }), { ...notice, undone: 7 });
    expect(req.body).toBe(JSON.stringify({ event: 'undone', pass: '42', import: 7, imports: notice.imports }));
  });

  it('sends no secret header without a secret', () => {
    expect(webhookRequest(target({ kind: 'webhook', url: 'https://hooks.example.org/mo' }), notice).headers).toEqual({ 'Content-Type': 'application/json' });
  });
});

describe('answerProblem', () => {
  it.each([
    ['jellyfin', 204, '', null],
    ['plex', 200, '{}', null],
    ['webhook', 202, 'whatever', null],
    ['emby', 401, '', 'answered HTTP 401'],
    ['webhook', 500, '', 'answered HTTP 500'],
    ['jellyfin', 302, '', 'answered with a redirect (HTTP 302), which is not followed'],
    ['kodi', 200, '{"id":1,"jsonrpc":"2.0","result":"OK"}', null],
    ['kodi', 200, '{"id":1,"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found."}}', 'answered a JSON-RPC error: Method not found.'],
    ['kodi', 200, '<html>', 'answered something other than JSON-RPC'],
    ['kodi', 200, '{"result":"nope"}', 'did not answer "OK"'],
    ['kodi', 401, '', 'answered HTTP 401'],
  ] as const)('%s answering %i %j: %s', (kind, status, body, problem) => {
    expect(answerProblem(kind, status, body)).toBe(problem);
  });
});
