// The issue "Secure by default", as an attacker on the home network tried it: a fresh quick start
// (no key anywhere, the API on every interface), driven from another machine or from a web page the
// owner visits. Against a real API and worker process; every attack must now fail to do harm.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobClient, createLogger, type JobClient } from '@mo/core';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { startProcess, tempInstall, waitFor, type RunningProcess, type TempInstall } from '@mo/test-support/service';
import { json, send } from './support/http.ts';
import { Figures } from './support/report.ts';

const figures = new Figures('hardening-auth');
const redisUrl = testRedisUrl();
const prefix = uniquePrefix('hard-auth');
let install: TempInstall;
let api: RunningProcess;
let worker: RunningProcess;
let jobs: JobClient;
let port: number;
let key: string;
let stateBefore: string;

const anonymous = (method: string, path: string, opts: Parameters<typeof send>[3] = {}) => send(port, method, path, { ...opts, anonymous: true });
const body = (value: unknown, headers: Record<string, string> = {}) => ({
  body: JSON.stringify(value),
  headers: { 'content-type': 'application/json', ...headers },
});

async function queued(): Promise<number> {
  const stats = await jobs.stats();
  return stats.reduce((n, s) => n + s.counts.waiting + s.counts.active + s.counts.delayed + s.counts.completed + s.counts.failed, 0);
}

async function state(): Promise<string> {
  return readFile(join(install.paths.data, 'state.json'), 'utf8').catch(() => '(none)');
}

beforeAll(async () => {
  install = await tempInstall('[app]\nscan_interval_seconds = 0\nwatch = false\n');
  // A fresh quick start: the API makes its own key.
  await rm(join(install.paths.data, 'api_key'));
  port = await freePort();
  const env = { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: '127.0.0.1' };
  api = startProcess('api', env);
  worker = startProcess('worker', env);
  await waitFor(async () => (await anonymous('GET', '/api/ready')).status === 200, 30_000, 'the api');
  key = (await readFile(join(install.paths.data, 'api_key'), 'utf8')).trim();
  jobs = createJobClient({ redisUrl, prefix, logger: createLogger({ name: 'faults', level: 'silent' }) });
  stateBefore = await state();
}, 60_000);

afterAll(async () => {
  figures.print();
  await api?.stop('SIGKILL');
  await worker?.stop('SIGKILL');
  await jobs?.close();
  await dropPrefix(redisUrl, prefix);
  await install?.cleanup();
});

describe('a fresh install, attacked without credentials', () => {
  it('gives up no file, setting, job or track: every route but the open ones is a 401 and nothing changes', async () => {
    const q0 = await queued();
    const attacks: [string, string, ReturnType<typeof body> | object][] = [
      ['POST', '/api/settings', body({ paths: { config: '/' }, theme: { css_file: 'etc/shadow' } })],
      ['POST', '/api/settings', body({ app: { api_key: 'attacker' } })],
      ['POST', '/api/settings', body({ dry_run: false })],
      [
        'POST',
        '/api/settings',
        body({
          drives: [{ name: 'sys', path: '/usr/lib/python3' }],
          library: { movie_folders: ['dist-packages'], video_extensions: ['.pth'], movie_template: '{title}{ext}' },
        }),
      ],
      ['POST', '/api/tools/transcoder/run-next', {}],
      ['POST', '/api/media/tracks', body({ path: join(install.paths.drive, 'Movies', 'x.mkv'), action: 'remove', stream: 1 })],
      ['POST', '/api/scan', {}],
      ['POST', '/api/library/scan', {}],
      ['POST', '/api/admin/queues/api/queues/transcode/add', body({ name: 'transcode-run', data: { item: { path: '/etc/passwd' } } })],
      ['GET', '/api/config', {}],
      ['GET', '/api/downloads', {}],
      ['GET', '/api/media/probe?path=/etc/passwd', {}],
      ['GET', '/api/admin/queues', {}],
      ['GET', '/api/metrics', {}],
    ];
    const out: string[] = [];
    for (const [method, path, opts] of attacks) {
      const r = await anonymous(method, path, opts);
      if (r.status !== 401 || json(r)?.error?.code !== 'unauthorized') out.push(`${method} ${path}: ${r.status} ${r.text.slice(0, 80)}`);
    }
    figures.set('attacks without credentials', attacks.length);
    figures.set('attacks not answered 401', out.length);
    expect(out).toEqual([]);
    expect(await state()).toBe(stateBefore);
    expect(await queued()).toBe(q0);
    // The stylesheet stays open, and serves no file outside the config folder.
    const css = await anonymous('GET', '/api/theme/custom.css');
    expect(css.status).toBe(200);
    expect(css.text).not.toMatch(/root:/);
  });

  it('cannot claim the owner account without the set-up token, nor guess it: 429 after 10 tries', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await anonymous('POST', '/api/auth/setup', body({ token: `guess-${i}`, username: 'attacker', password: 'attacker passphrase' }));
      statuses.push(r.status);
    }
    figures.set('set-up token guesses answered 401 / 429', `${statuses.filter((s) => s === 401).length} / ${statuses.filter((s) => s === 429).length}`);
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
    const status = json(await anonymous('GET', '/api/auth/status'));
    expect(status).toMatchObject({ owner: false });
    // The limit is the address's: the owner's key from the same machine waits too, then works.
    expect((await send(port, 'GET', '/api/config', { headers: { 'x-api-key': key } })).status).toBe(429);
  });

  it('a DNS-rebinding page (foreign Host, matching Origin, same-origin fetch) gets nothing', async () => {
    // The previous case used up this address's tries for a minute; a rebinding page sends no
    // credentials, and a request without any is judged without the limit.
    const rebinding = body(
      { dry_run: false },
      { host: `attacker.example:${port}`, origin: `http://attacker.example:${port}`, 'sec-fetch-site': 'same-origin' },
    );
    const r = await anonymous('POST', '/api/settings', rebinding);
    expect(r.status).toBe(401);
    const read = await anonymous('GET', '/api/library', { headers: { host: `attacker.example:${port}`, 'sec-fetch-site': 'same-origin' } });
    expect(read.status).toBe(401);
    expect(await state()).toBe(stateBefore);
    figures.set('DNS-rebinding requests let in', 0);
  });

  it('sixty wrong passwords sent at once are judged no more than the limit allows, and the right one is then refused', async () => {
    // Each attack from an address of its own: 127.0.0.1 spent its tries above.
    const token = /setup\?token=([\w-]+)/.exec(api.output())![1]!;
    const password = 'the owner passphrase';
    const owner = await anonymous('POST', '/api/auth/setup', { ...body({ token, username: 'owner', password }), from: '127.0.0.2' });
    expect(owner.status).toBe(201);
    const attacks: [string, string, (guess: string) => object, string][] = [
      ['127.0.0.3', '/api/auth/login', (guess) => ({ username: 'owner', password: guess }), 'login'],
      ['127.0.0.4', '/api/auth/api-key', (guess) => ({ password: guess }), 'API key for the password'],
    ];
    for (const [from, path, bodyOf, name] of attacks) {
      const guesses = await Promise.all(Array.from({ length: 60 }, (_, i) => anonymous('POST', path, { ...body(bodyOf(`guess number ${i}`)), from })));
      const right = await anonymous('POST', path, { ...body(bodyOf(password)), from });
      const judged = guesses.filter((r) => r.status === 401).length;
      figures.set(
        `${name}: of 60 wrong passwords at once, judged / 429; then the right one`,
        `${judged} / ${guesses.filter((r) => r.status === 429).length}; ${right.status}`,
      );
      expect(judged).toBe(10);
      expect(right.status).toBe(429);
      expect(right.text).not.toContain(key);
    }
    const keys = await Promise.all(
      Array.from({ length: 60 }, (_, i) => anonymous('GET', '/api/config', { headers: { 'x-api-key': `guess-${i}` }, from: '127.0.0.5' })),
    );
    expect(keys.filter((r) => r.status === 401).length).toBe(10);
    expect((await anonymous('GET', '/api/config', { headers: { 'x-api-key': key }, from: '127.0.0.5' })).status).toBe(429);
  });

  it('the generated key was never logged, and the state file holds no secret', async () => {
    expect(api.output()).not.toContain(key);
    expect(await state()).not.toContain(key);
  });
});
