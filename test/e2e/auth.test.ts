import { readFile, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { startProcess, tempInstall, waitFor, type RunningProcess, type TempInstall } from '@mo/test-support/service';

// A fresh install as the quick start leaves it, over real sockets: nothing in the config about
// keys, no key in the data folder yet.
const redisUrl = testRedisUrl();
let install: TempInstall | undefined;
let api: RunningProcess | undefined;
let prefix: string | undefined;

afterEach(async () => {
  await api?.stop('SIGKILL');
  if (prefix) await dropPrefix(redisUrl, prefix);
  await install?.cleanup();
  api = install = prefix = undefined;
});

async function fresh(appToml = '') {
  install = await tempInstall(appToml);
  await rm(join(install.paths.data, 'api_key'));
  prefix = uniquePrefix('auth');
  const port = await freePort();
  api = startProcess('api', { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: '127.0.0.1' });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok, 20_000, 'the api');
  return { base, port };
}

/** node:http lets a test choose the Host header, which fetch does not. */
function get(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

describe('a fresh install over real HTTP', () => {
  it('generates a key at start, logs the one-time set-up link, and answers nothing without credentials', async () => {
    const { base } = await fresh();
    const file = join(install!.paths.data, 'api_key');
    const key = (await readFile(file, 'utf8')).trim();
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await fetch(`${base}/api/config`)).status).toBe(401);
    expect((await fetch(`${base}/api/config`, { headers: { 'x-api-key': key } })).status).toBe(200);
    // The key is never logged; the set-up link is, once, as the field setup_url.
    const line = await waitFor(
      async () =>
        api!
          .output()
          .split('\n')
          .find((l) => l.includes('"setup_url"')),
      10_000,
      'the set-up link',
    );
    expect(api!.output()).not.toContain(key);
    const url = new URL(JSON.parse(line).setup_url as string);
    expect(url.pathname).toBe('/setup');
    const token = url.searchParams.get('token')!;

    const setup = await fetch(`${base}/api/auth/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, username: 'owner', password: 'a good passphrase' }),
    });
    expect(setup.status).toBe(201);
    const cookie = /mo_session=[^;]+/.exec(setup.headers.get('set-cookie')!)![0];
    expect((await fetch(`${base}/api/config`, { headers: { cookie } })).status).toBe(200);
  }, 60_000);

  it('with auth = "local_open", lets a loopback client addressing localhost in, and not one naming another host', async () => {
    const { port } = await fresh('[app]\nauth = "local_open"\n');
    expect(await get(port, '/api/config', { host: `localhost:${port}` })).toBe(200);
    expect(await get(port, '/api/config', { host: `attacker.example:${port}` })).toBe(401);
    expect(await get(port, '/api/config', { host: `localhost:${port}`, 'x-forwarded-for': '203.0.113.9' })).toBe(401);
  }, 60_000);
});
