import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createJobClient, createLogger, createRuntimeConfig, createWorkerHost, readProcessEnv, type JobContext, type RuntimeConfig } from '@mo/core';
import type { NotifyTarget } from '@mo/shared';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { tempInstall, waitFor, type TempInstall } from '@mo/test-support/service';
import { openHistoryLog, readHistory } from '@mo/core/history';
import type { WorkerDeps } from '../deps.ts';
import { notifyHandler } from './notify.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A fake of every kind of target at once: answers by path, records what it was sent. */
async function fakeServer(answer: (req: Seen) => { status: number; body?: string } | 'hang') {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const s = { method: req.method!, url: req.url!, headers: req.headers, body };
      seen.push(s);
      const a = answer(s);
      if (a === 'hang') return;
      res.writeHead(a.status, { 'Content-Type': 'application/json' }).end(a.body ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(server);
  return { base, seen };
}

let servers: Server[] = [];
let install: TempInstall | undefined;
let config: RuntimeConfig | undefined;
afterEach(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  servers = [];
  config?.close();
  await install?.cleanup();
});

const logLines: string[] = [];
const log = createLogger({ name: 'test', level: 'debug', destination: { write: (s: string) => void logLines.push(s) } });

async function deps(targets: NotifyTarget[]): Promise<WorkerDeps> {
  install = await tempInstall();
  config = await createRuntimeConfig({ configFile: install.configFile, pollMs: 50 });
  await config.updateSettings({ notifications: { targets } });
  return { config, logger: log, env: readProcessEnv({ MEDIA_ORGANIZER_CONFIG: install.configFile }) };
}

function context(progressSoFar: unknown = 0, attempt = 1) {
  const progress: unknown[] = [];
  const ctx: JobContext = {
    jobId: '9',
    attempt,
    signal: new AbortController().signal,
    progress: async (v) => void progress.push(v),
    progressSoFar,
    defer: () => Promise.reject(new Error('not deferred')),
    log,
  };
  return { ctx, progress };
}

const notice = {
  pass: '17',
  imports: [
    { source: '/dl/Show.S01E01.mkv', destination: '/media/TV/Show/Season 01/Show - S01E01.mkv' },
    { source: '/dl/Show.S01E02.mkv', destination: '/media/TV/Show/Season 01/Show - S01E02.mkv' },
  ],
};

const plexSections = JSON.stringify({
  MediaContainer: {
    Directory: [
      { key: '3', Location: [{ path: '/media/Movies' }] },
      { key: '5', Location: [{ path: '/media/TV' }] },
    ],
  },
});

/** The history of a pass that imported the notice's files (ids 1 and 2), after an unrelated import (id 3). */
async function importedNotice(d: WorkerDeps) {
  const history = await openHistoryLog(d.config.current().paths.data);
  const identity = { dev: 1, ino: 1, size: 1, mtime_ms: 1 };
  const entry = (i: { source: string; destination: string }) => ({
    ...i,
    from: identity,
    to: identity,
    at: 'x',
    mode: 'move' as const,
    method: 'rename' as const,
    sidecars: [],
    created_dirs: [],
    pass: 'started',
  });
  for (const i of [...notice.imports, { source: '/dl/other.mkv', destination: '/media/Movies/Other.mkv' }]) await history.recordImport(entry(i));
  return async () => (await readHistory(d.config.current().paths.data)).map((r) => [r.id, r.notified && { ...r.notified, at: 'at' }]);
}

describe('notify handler', () => {
  it('tells each kind of target, as it expects, and skips a disabled one', async () => {
    const { base, seen } = await fakeServer((req) => {
      if (req.url === '/plex/library/sections') return { status: 200, body: plexSections };
      if (req.url.startsWith('/kodi/')) return { status: 200, body: '{"id":1,"jsonrpc":"2.0","result":"OK"}' };
      return { status: 204 };
    });
    const handler = notifyHandler(
      await deps([
        { name: 'jf', kind: 'jellyfin', url: `${base}/jf`, api_key: 'jf-key-111', enabled: true },
        { name: 'px', kind: 'plex', url: `${base}/plex`, token: 'plex-tok-222', enabled: true },
        { name: 'kd', kind: 'kodi', url: `http://kodi:kodi-pw-333@${base.slice(7)}/kodi`, enabled: true },
        { name: 'wh', kind: 'webhook', url: `${base}/hook`, secret: 'hook-sec-444', enabled: true },
        { name: 'off', kind: 'webhook', url: `${base}/off`, enabled: false },
      ]),
    );
    const { ctx, progress } = context();
    expect(await handler(notice, ctx)).toEqual({ told: ['jf', 'px', 'kd', 'wh'] });
    expect(progress).toEqual([{ told: ['jf', 'px', 'kd', 'wh'], failed: {} }]);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'POST /jf/Library/Media/Updated',
      'GET /plex/library/sections',
      'GET /plex/library/sections/5/refresh?path=%2Fmedia%2FTV%2FShow%2FSeason+01',
      'POST /kodi/jsonrpc',
      'POST /hook',
    ]);
    const [jf, sections, refresh, kodi, hook] = seen as [Seen, Seen, Seen, Seen, Seen];
    expect(jf.headers.authorization).toBe('MediaBrowser Token="jf-key-111"');
    expect(JSON.parse(jf.body)).toEqual({ Updates: notice.imports.map((i) => ({ Path: i.destination, UpdateType: 'Created' })) });
    expect(sections.headers['x-plex-token']).toBe('plex-tok-222');
    expect(refresh.headers['x-plex-token']).toBe('plex-tok-222');
    expect(kodi.headers.authorization).toBe(`Basic ${Buffer.from('kodi:kodi-pw-333').toString('base64')}`);
    expect(JSON.parse(kodi.body)).toEqual({ jsonrpc: '2.0', method: 'VideoLibrary.Scan', params: { directory: '/media/TV/Show/Season 01/' }, id: 1 });
    expect(hook.headers['x-mo-secret']).toBe('hook-sec-444');
    expect(JSON.parse(hook.body)).toEqual({ event: 'imported', ...notice });
  });

  it('fails the attempt naming a failing target, tells only the others, and a retry tells only that one', async () => {
    let hookCalls = 0;
    const { base, seen } = await fakeServer((req) => (req.url === '/hook' && ++hookCalls === 1 ? { status: 503 } : { status: 200 }));
    const handler = notifyHandler(
      await deps([
        { name: 'jf', kind: 'jellyfin', url: `${base}/jf`, api_key: 'jf-key-111', enabled: true },
        { name: 'wh', kind: 'webhook', url: `${base}/hook`, secret: 'hook-sec-444', enabled: true },
      ]),
    );
    const first = context();
    await expect(handler(notice, first.ctx)).rejects.toThrow('not told: wh (POST /hook: answered HTTP 503)');
    expect(first.progress).toEqual([{ told: ['jf'], failed: { wh: 'POST /hook: answered HTTP 503' } }]);

    const retry = context(first.progress[0]);
    expect(await handler(notice, retry.ctx)).toEqual({ told: ['jf', 'wh'] });
    expect(seen.map((s) => s.url)).toEqual(['/jf/Library/Media/Updated', '/hook', '/hook']);
  });

  it('gives up on a target that does not answer in time, follows no redirect, and reports a Plex path no section holds', async () => {
    const { base, seen } = await fakeServer((req) => {
      if (req.url === '/slow') return 'hang';
      if (req.url === '/moved') return { status: 302 };
      return { status: 200, body: JSON.stringify({ MediaContainer: { Directory: [{ key: '3', Location: [{ path: '/media/Movies' }] }] } }) };
    });
    const handler = notifyHandler(
      await deps([
        { name: 'slow', kind: 'webhook', url: `${base}/slow`, enabled: true },
        { name: 'moved', kind: 'webhook', url: `${base}/moved`, enabled: true },
        { name: 'px', kind: 'plex', url: `${base}/plex`, token: 't', enabled: true },
      ]),
      200,
    );
    const { ctx, progress } = context();
    await expect(handler(notice, ctx)).rejects.toThrow(/^not told: slow/);
    expect(progress).toEqual([
      {
        told: [],
        failed: {
          slow: 'POST /slow: no answer within 0.2 s',
          moved: 'POST /moved: answered with a redirect (HTTP 302), which is not followed',
          px: 'no Plex library section holds /media/TV/Show/Season 01',
        },
      },
    ]);
    expect(seen.map((s) => s.url)).toEqual(['/slow', '/moved', '/plex/library/sections']);
  });

  it('never writes a token, key, secret or URL password to the log', async () => {
    const { base } = await fakeServer((req) => (req.url.startsWith('/bad') ? { status: 500 } : { status: 204 }));
    logLines.length = 0;
    const handler = notifyHandler(
      await deps([
        { name: 'jf', kind: 'jellyfin', url: `${base}/bad`, api_key: 'jf-key-111', enabled: true },
        { name: 'emby', kind: 'emby', url: `${base}/ok`, api_key: 'emby-key-555', enabled: true },
        { name: 'kd', kind: 'kodi', url: `http://kodi:kodi-pw-333@${base.slice(7)}/bad`, enabled: true },
        { name: 'wh', kind: 'webhook', url: `${base}/bad`, secret: 'hook-sec-444', enabled: true },
      ]),
    );
    await expect(handler(notice, context().ctx)).rejects.toThrow(/not told: jf .*kd .*wh /);
    const logged = logLines.join('');
    expect(logged).toContain('could not tell a media server');
    expect(logged).toContain('media server told');
    for (const secret of ['jf-key-111', 'emby-key-555', 'kodi-pw-333', 'hook-sec-444']) expect(logged).not.toContain(secret);
  });

  it('never shows a secret that fetch refuses as a header value (a pasted line break, a non-Latin-1 character)', async () => {
    const { base, seen } = await fakeServer(() => ({ status: 204 }));
    logLines.length = 0;
    const handler = notifyHandler(
      await deps([
        { name: 'jf', kind: 'jellyfin', url: `${base}/jf`, api_key: 'jf-key-111\n', enabled: true },
        { name: 'px', kind: 'plex', url: `${base}/plex`, token: 'plex-tok\n222', enabled: true },
        { name: 'wh', kind: 'webhook', url: `${base}/hook`, secret: 'hook-sec-444€', enabled: true },
      ]),
    );
    const { ctx, progress } = context();
    const err = await handler(notice, ctx).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    const shown = [(err as Error).message, JSON.stringify(progress), logLines.join('')].join('\n');
    expect(shown).toContain('not a valid HTTP header value');
    for (const secret of ['jf-key-111', 'plex-tok', '222', 'hook-sec-444']) expect(shown).not.toContain(secret);
    expect(seen).toEqual([]);
  });
});

describe('notify queue', () => {
  it('retries a failing target after a back-off, showing why in the job meanwhile, and tells it alone', async () => {
    let hookCalls = 0;
    const { base, seen } = await fakeServer((req) => (req.url === '/hook' && ++hookCalls === 1 ? { status: 500 } : { status: 204 }));
    const d = await deps([
      { name: 'jf', kind: 'jellyfin', url: `${base}/jf`, api_key: 'jf-key-111', enabled: true },
      { name: 'wh', kind: 'webhook', url: `${base}/hook`, enabled: true },
    ]);
    const prefix = uniquePrefix('notify');
    const quiet = createLogger({ name: 't', level: 'silent' });
    const jobs = createJobClient({ redisUrl: testRedisUrl(), prefix, logger: quiet });
    const host = createWorkerHost({ redisUrl: testRedisUrl(), prefix, queues: ['notify'], logger: quiet, handlers: { notify: notifyHandler(d) } });
    try {
      const { job } = await jobs.submit('notify', notice, { waitSeconds: 0 });
      const retrying = await waitFor(
        async () => {
          const j = await jobs.get('notify', job.id);
          return j?.state === 'delayed' && j;
        },
        10_000,
        'the first attempt to fail',
      );
      expect(retrying).toMatchObject({
        error: 'not told: wh (POST /hook: answered HTTP 500)',
        progress: { told: ['jf'], failed: { wh: 'POST /hook: answered HTTP 500' } },
      });
      const done = await waitFor(
        async () => {
          const j = await jobs.get('notify', job.id);
          return j?.state === 'completed' && j;
        },
        20_000,
        'the retry to succeed',
      );
      expect(done.result).toEqual({ told: ['jf', 'wh'] });
      expect(seen.map((s) => s.url)).toEqual(['/jf/Library/Media/Updated', '/hook', '/hook']);
    } finally {
      await host.close();
      await jobs.close();
      await dropPrefix(testRedisUrl(), prefix);
    }
  }, 30_000);

  it('records the outcome in the history once every target is told, or on the last attempt, not on an attempt to be retried', async () => {
    let hookCalls = 0;
    const { base } = await fakeServer((req) => (req.url === '/hook' && ++hookCalls <= 2 ? { status: 503 } : { status: 204 }));
    const d = await deps([
      { name: 'jf', kind: 'jellyfin', url: `${base}/jf`, api_key: 'k', enabled: true },
      { name: 'wh', kind: 'webhook', url: `${base}/hook`, enabled: true },
    ]);
    const notified = await importedNotice(d);
    const handler = notifyHandler(d);

    const first = context();
    await expect(handler(notice, first.ctx)).rejects.toThrow('not told: wh');
    expect(await notified()).toEqual([
      [1, null],
      [2, null],
      [3, null],
    ]);

    const last = context(first.progress[0], 5);
    await expect(handler(notice, last.ctx)).rejects.toThrow('not told: wh');
    const gaveUp = { event: 'imported', at: 'at', told: ['jf'], failed: { wh: 'POST /hook: answered HTTP 503' } };
    expect(await notified()).toEqual([
      [1, gaveUp],
      [2, gaveUp],
      [3, null],
    ]);

    await handler(notice, context().ctx);
    const allTold = { event: 'imported', at: 'at', told: ['jf', 'wh'], failed: {} };
    expect(await notified()).toEqual([
      [1, allTold],
      [2, allTold],
      [3, null],
    ]);
  });

  it('an undo\'s notice: tells Jellyfin the files are Deleted, the webhook "undone", and records it for that import alone', async () => {
    const { base, seen } = await fakeServer(() => ({ status: 204 }));
    const d = await deps([
      { name: 'jf', kind: 'jellyfin', url: `${base}/jf`, api_key: 'k', enabled: true },
      { name: 'wh', kind: 'webhook', url: `${base}/hook`, enabled: true },
    ]);
    const notified = await importedNotice(d);
    const undo = { pass: 'started', undone: 2, imports: notice.imports.slice(1) };
    expect(await notifyHandler(d)(undo, context().ctx)).toEqual({ told: ['jf', 'wh'] });
    expect(JSON.parse(seen[0]!.body)).toEqual({ Updates: [{ Path: notice.imports[1]!.destination, UpdateType: 'Deleted' }] });
    expect(JSON.parse(seen[1]!.body)).toEqual({ event: 'undone', pass: 'started', import: 2, imports: undo.imports });
    expect(await notified()).toEqual([
      [1, null],
      [2, { event: 'undone', at: 'at', told: ['jf', 'wh'], failed: {} }],
      [3, null],
    ]);
  });
});
