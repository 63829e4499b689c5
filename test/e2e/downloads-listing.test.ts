import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { startProcess, tempInstall, waitFor, withTestKey, type RunningProcess, type TempInstall } from '@mo/test-support/service';

// No periodic pass and a settle time no test outlives: whatever shows in the listing, no pass put it
// there, and nothing is moved.
const redisUrl = testRedisUrl();
const prefix = uniquePrefix('listing');
let install: TempInstall;
let api: RunningProcess;
let worker: RunningProcess;
let base: string;

async function listed(): Promise<string[]> {
  const r = await fetch(`${base}/api/downloads`, withTestKey());
  return ((await r.json()) as { files: { path: string }[] }).files.map((f) => f.path);
}

beforeAll(async () => {
  install = await tempInstall('[app]\ndry_run = false\nscan_interval_seconds = 0\nsettle_seconds = 86400\n');
  const port = await freePort();
  const env = { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: '127.0.0.1' };
  api = startProcess('api', env);
  worker = startProcess('worker', env);
  base = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${base}/api/ready`, withTestKey())).ok, 20_000, 'the api');
  await waitFor(async () => worker.output().includes('watching the downloads folder'), 20_000, 'the watch');
}, 60_000);

afterAll(async () => {
  await worker?.stop('SIGKILL');
  await api?.stop('SIGKILL');
  await dropPrefix(redisUrl, prefix);
  await install?.cleanup();
});

describe('GET /api/downloads', () => {
  async function dropAndSee(name: string) {
    const path = join(install.paths.downloads, name);
    writeFileSync(path, Buffer.alloc(1024, 1));
    const dropped = Date.now();
    await waitFor(async () => (await listed()).includes(path), 10_000, `${name} in the listing`);
    expect(Date.now() - dropped).toBeLessThan(10_000);
    expect(existsSync(path)).toBe(true);
  }

  it('shows a file dropped into the downloads folder within 10 s with scan_interval_seconds = 0, moving nothing', async () => {
    await dropAndSee('Heat.1995.1080p.BluRay.mkv');
  }, 20_000);

  it('and with app.watch off, from the worker walking the listing alone every few seconds', async () => {
    const r = await fetch(
      `${base}/api/settings`,
      withTestKey({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ app: { watch: false } }) }),
    );
    expect(r.status).toBe(200);
    await waitFor(async () => worker.output().includes('app.watch is off'), 10_000, 'the watch to stop');
    // Past the walk the change of settings asks for: only the polling can see the next file.
    await new Promise((r) => setTimeout(r, 2000));
    await dropAndSee('Alien.1979.1080p.BluRay.mkv');
  }, 30_000);
});
