// Issue "Secure by default", item 3: the attacks on the runtime settings, each against a real API and
// worker on a temp install, each as a case that now fails to do harm. The bar: a 400 naming the key,
// state.json byte for byte as before, and no effect on disk or on the network afterwards (a scanner
// pass moves nothing where the attack pointed, the stylesheet serves no system file, the provider
// never connects to an internal address).
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readdir, readFile, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeLibraryIndex } from '@mo/core';
import { episode, index } from '@mo/core/test-fixtures';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { startProcess, tempInstall, TEST_API_KEY, waitFor, type RunningProcess, type TempInstall } from '@mo/test-support/service';
import { json, send, type Answer } from './support/http.ts';

const redisUrl = testRedisUrl();
const prefix = uniquePrefix('hardset');
const auth = { 'x-api-key': TEST_API_KEY };

let install: TempInstall;
let api: RunningProcess;
let worker: RunningProcess;
let port: number;
let stateFile: string;
/** A folder outside every allowed root, laid out like a drive: the stand-in for a system folder we may write to. */
let outside: string;
/** An internal service: it must never see a request. */
let canary: Server;
let canaryPort: number;
const canaryHits: string[] = [];

const get = (path: string) => send(port, 'GET', path, { headers: auth });
const post = (path: string, body?: unknown) =>
  send(port, 'POST', path, { headers: { ...auth, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

beforeAll(async () => {
  canary = createServer((req, res) => {
    canaryHits.push(req.url ?? '');
    res.writeHead(418, { 'content-type': 'application/json' }).end('{"canary":"internal-secret"}');
  });
  await new Promise<void>((r) => canary.listen(0, '127.0.0.1', r));
  canaryPort = (canary.address() as AddressInfo).port;

  // The owner's own file points the provider at an internal address without allow_private: the fetch
  // must refuse it all the same (the check "when fetched").
  install = await tempInstall(
    `[app]\nscan_interval_seconds = 0\nwatch = false\nsettle_seconds = 0\n\n[library]\nsample_max_bytes = 0\n\n` +
      `[release_providers.tvmaze]\nenabled = true\nurl = "http://127.0.0.1:${canaryPort}"\n`,
  );
  stateFile = join(install.paths.data, 'state.json');
  outside = join(install.root, 'outside');
  for (const d of ['Movies', 'dist-packages']) await mkdir(join(outside, d), { recursive: true });
  await writeFile(join(install.paths.downloads, 'evil.pth'), 'import os; os.system("touch /tmp/pwned")\n');
  await writeFile(join(install.paths.downloads, 'Heat.1995.1080p.BluRay.x264-GRP.mkv'), Buffer.alloc(4096, 1));
  // A series for the provider to look up.
  await writeLibraryIndex(install.paths.data, index([episode(join(install.paths.drive, 'TV', 'Lost'), 1, [1])]));

  port = await freePort();
  const env = { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix };
  api = startProcess('api', { ...env, PORT: String(port), HOST: '127.0.0.1' });
  worker = startProcess('worker', { ...env, WORKER_QUEUES: 'scan' });
  await waitFor(async () => (await send(port, 'GET', '/api/ready')).status === 200, 60_000, 'the api');
  await waitFor(async () => worker.output().includes('"msg":"worker started"'), 60_000, 'the worker');

  // The owner turns dry_run off: from here on a pass carries out what it plans.
  expect((await post('/api/settings', { dry_run: false })).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await api?.stop('SIGKILL');
  await worker?.stop('SIGKILL');
  await new Promise((r) => canary?.close(r));
  await dropPrefix(redisUrl, prefix);
  await install?.cleanup();
});

/** A 400 that names `key` first, and state.json unchanged. */
async function expectRefused(body: unknown, key: string): Promise<Answer> {
  const before = await readFile(stateFile, 'utf8');
  const res = await post('/api/settings', body);
  expect(res.status, res.text).toBe(400);
  const err = json(res).error;
  expect(err.code).toBe('bad_request');
  expect(err.message.startsWith(`${key}: `), err.message).toBe(true);
  expect(err.details.key).toBe(key);
  expect(await readFile(stateFile, 'utf8')).toBe(before);
  return res;
}

describe('reading any file through the theme', () => {
  it.each(['etc/shadow', 'etc/passwd'])('paths.config "/" with css_file %s is refused, and the stylesheet serves nothing of it', async (cssFile) => {
    await expectRefused({ paths: { config: '/' }, theme: { css_file: cssFile } }, 'paths.config');
    const css = await send(port, 'GET', '/api/theme/custom.css');
    expect(css.status).toBe(200);
    expect(css.text).toBe('');
  });

  it('pointing the stylesheet at the API key in the data folder is refused, and the key is not served', async () => {
    await expectRefused({ paths: { config: install.paths.data }, theme: { css_file: 'api_key' } }, 'paths.config');
    await expectRefused({ theme: { css_file: 'api_key' } }, 'theme.css_file');
    const css = await send(port, 'GET', '/api/theme/custom.css');
    expect(css.text).not.toContain(TEST_API_KEY);
  });

  it('a symlink to /etc/passwd in the config folder is not served', async () => {
    const link = join(install.paths.config, 'custom-theme.css');
    await symlink('/etc/passwd', link);
    try {
      const css = await send(port, 'GET', '/api/theme/custom.css');
      expect(css.status).toBe(403);
      expect(css.text).not.toContain('root:');
    } finally {
      await unlink(link);
    }
  });
});

describe('code execution through a scanner pass', () => {
  const payload = { movie_folders: ['dist-packages'], video_extensions: ['.pth'], movie_template: '{title}{ext}' };

  it.each(['/usr/lib/python3', '/usr/lib/python3/dist-packages', '/etc', '/lib/x86_64-linux-gnu', '/root', '/var/lib/dpkg', '/'])(
    'a drive at %s with .pth as video and a bare template is refused',
    async (path) => {
      const res = await expectRefused({ drives: [{ name: 'sys', path }], library: payload }, 'drives.0.path');
      expect(json(res).error.details.issues.map((i: { path: string }) => i.path)).toContain('library.video_extensions.0');
    },
  );

  it('a drive outside the roots is refused, and so is .pth alone', async () => {
    await expectRefused({ drives: [{ name: 'out', path: outside }], library: payload }, 'drives.0.path');
    await expectRefused({ library: { video_extensions: ['.mkv', '.pth'] } }, 'library.video_extensions.1');
    await expectRefused({ library: { subtitle_extensions: ['.so'] } }, 'library.subtitle_extensions.0');
    await expectRefused({ paths: { downloads: '/usr/lib/python3/dist-packages' } }, 'paths.downloads');
  });

  it('a template that would fail every pass is refused when saved', async () => {
    await expectRefused({ library: { movie_template: '{title}' } }, 'library.movie_template');
    await expectRefused({ library: { movie_template: '../../../{title}{ext}' } }, 'library.movie_template');
  });

  it('the next pass moves the film and leaves the .pth where it was', async () => {
    const res = await post('/api/scan?wait=60');
    expect(res.status, res.text).toBe(200);
    const result = json(res);
    expect(result.dry_run).toBe(false);
    expect(result.moves.map((m: { status: string }) => m.status)).toEqual(['moved']);
    expect(existsSync(join(install.paths.drive, 'Movies', 'Heat (1995)', 'Heat (1995).mkv'))).toBe(true);
    expect(existsSync(join(install.paths.downloads, 'evil.pth'))).toBe(true);
    expect(await readdir(join(outside, 'dist-packages'))).toEqual([]);
    expect(await readdir(join(outside, 'Movies'))).toEqual([]);
    expect(existsSync('/usr/lib/python3/dist-packages/evil.pth')).toBe(false);
  });
});

describe('locking the owner out', () => {
  it('app.api_key cannot be set, and the key in use still works', async () => {
    await expectRefused({ app: { api_key: 'attacker-key' } }, 'app.api_key');
    await expectRefused({ app: { allowed_roots: ['/'] } }, 'app.allowed_roots');
    expect((await get('/api/config')).status).toBe(200);
    expect(JSON.parse(await readFile(stateFile, 'utf8')).settings.app).not.toHaveProperty('api_key');
  });
});

describe('a drive on the data folder', () => {
  it('is refused, and so is every overlap of the drives, downloads, config and data folders; the data folder stays as it was', async () => {
    const before = await readdir(install.paths.data);
    const disk1 = { name: 'disk1', path: install.paths.drive };
    await expectRefused({ drives: [{ name: 'state', path: install.paths.data }] }, 'drives.0.path');
    await expectRefused({ drives: [disk1, { name: 'state', path: install.paths.data }] }, 'drives.1.path');
    await expectRefused({ drives: [disk1, { name: 'again', path: install.paths.drive }] }, 'drives.1.path');
    await expectRefused({ paths: { downloads: install.paths.data } }, 'paths.downloads');
    await expectRefused({ paths: { config: join(install.paths.drive, 'Movies') } }, 'paths.config');
    expect(await readdir(install.paths.data)).toEqual(before);
    expect((await get('/api/config')).status).toBe(200);
  });
});

describe('the provider URL at an internal address', () => {
  // PORT: the canary's, known once it listens.
  it.each([
    'http://127.0.0.1:PORT',
    'http://localhost:PORT/',
    'http://2130706433:PORT/',
    'http://0177.0.0.1:PORT/',
    'http://[::ffff:127.0.0.1]:PORT/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
  ])('%s is refused when saved', async (url) => {
    await expectRefused({ release_providers: { tvmaze: { enabled: true, url: url.replace('PORT', String(canaryPort)) } } }, 'release_providers.tvmaze.url');
  });

  it('allow_private cannot be turned on at run time', async () => {
    await expectRefused(
      { release_providers: { tvmaze: { allow_private: true, url: `http://127.0.0.1:${canaryPort}` } } },
      'release_providers.tvmaze.allow_private',
    );
  });

  it('an internal URL from the config file is refused when fetched, and nothing it would say is echoed', async () => {
    const res = await get('/api/releases');
    expect(res.status).toBe(200);
    const provider = json(res).providers[0];
    expect(provider).toMatchObject({ name: 'tvmaze', ok: false, failed: 1 });
    expect(provider.error).toMatch(/not a public address/);
    expect(provider.error).not.toMatch(/418|canary|internal-secret/);
    expect(canaryHits).toEqual([]);
  });
});
