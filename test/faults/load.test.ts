// Load: 50 concurrent keep-alive clients on the cached endpoints for 30 s (FAULTS_LOAD_SECONDS)
// against the bundled API, over a generated library of a few thousand files, while a real worker
// remuxes a larger clip over and over. Zero errors and zero non-200 answers; p50/p95/p99 per
// endpoint are printed. All traffic to 127.0.0.1, bounded in time.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get } from '../../bench/support/http-load.ts';
import { generateLibrary } from '../../bench/support/library-fixture.ts';
import { makeClip } from '@mo/core/test-fixtures';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { buildApps, startProcess, waitFor, type RunningProcess, TEST_API_KEY } from '@mo/test-support/service';
import { json, send } from './support/http.ts';
import { Figures, percentile } from './support/report.ts';

const SECONDS = Number(process.env.FAULTS_LOAD_SECONDS ?? 30);
const CLIENTS = Number(process.env.FAULTS_LOAD_CLIENTS ?? 50);
const FILES = Number(process.env.FAULTS_LOAD_FILES ?? 4000);
const ENDPOINTS = ['/api/library', '/api/dashboard', '/api/tools/subtitles', '/api/tools/transcoder', '/api/tools/duplicates', '/api/releases'];
const figures = new Figures('load');
const redisUrl = testRedisUrl();
const prefix = uniquePrefix('load');
const host = '127.0.0.1';

let root: string;
let api: RunningProcess;
let worker: RunningProcess;
let port: number;
let clip: string;

beforeAll(async () => {
  buildApps();
  root = mkdtempSync(join(tmpdir(), 'mo-faults-load-'));
  const lib = generateLibrary(join(root, 'lib'), FILES, 7);
  const paths = { downloads: join(root, 'downloads'), config: join(root, 'config'), data: join(root, 'data') };
  for (const p of Object.values(paths)) mkdirSync(p, { recursive: true });
  writeFileSync(join(paths.data, 'api_key'), `${TEST_API_KEY}\n`, { mode: 0o600 });
  const configFile = join(paths.config, 'config.toml');
  writeFileSync(
    configFile,
    `[app]\ndry_run = false\nscan_interval_seconds = 0\nwatch = false\n\n[paths]\ndownloads = "${paths.downloads}"\nconfig = "${paths.config}"\ndata = "${paths.data}"\n\n` +
      lib.drives.map((d) => `[[drives]]\nname = "${d.name}"\npath = "${d.path}"\n`).join('\n'),
  );
  clip = join(paths.downloads, 'Load Clip.mkv');
  await makeClip(clip, { seconds: 120, size: '640x360', subtitles: true, chapters: true, attachment: true });
  port = await freePort();
  const env = { MEDIA_ORGANIZER_CONFIG: configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: host };
  api = startProcess('api', env, { built: true });
  worker = startProcess('worker', { ...env, WORKER_QUEUES: 'library,media' }, { built: true });
  await waitFor(async () => (await send(port, 'GET', '/api/ready')).status === 200, 30_000, 'the api');
  const scan = await send(port, 'POST', '/api/library/scan?wait=120', { timeoutMs: 130_000 });
  expect(scan.status, scan.text).toBe(200);
  figures.set('library files indexed', json(scan).summary.files);
}, 240_000);

afterAll(async () => {
  figures.print();
  await api?.stop('SIGKILL');
  await worker?.stop('SIGKILL');
  await dropPrefix(redisUrl, prefix);
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('load on the cached endpoints while a remux runs', () => {
  it(`${CLIENTS} keep-alive clients for ${SECONDS} s: zero errors, zero non-200`, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    // First answers (each view is derived once per index), then a short warm-up.
    for (const p of ENDPOINTS) expect((await get(agent, host, port, p)).status).toBe(200);

    const lat: Record<string, number[]> = Object.fromEntries(ENDPOINTS.map((p) => [p, []]));
    const statuses: Record<string, number> = {};
    const errors: string[] = [];
    let stop = false;

    // The remux loop: set_default flips between the two audio streams, one job after another.
    const remux = { done: 0, failed: [] as string[], ms: [] as number[], at: [] as number[] };
    const slow: { at: number; path: string; ms: number }[] = [];
    const remuxAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const t0 = performance.now();
    const remuxLoop = (async () => {
      for (let k = 0; !stop; k++) {
        const a = await send(port, 'POST', '/api/media/tracks?wait=120', {
          body: JSON.stringify({ path: clip, action: 'set_default', stream: k % 2 === 0 ? 2 : 1 }),
          headers: { 'content-type': 'application/json' },
          agent: remuxAgent,
          timeoutMs: 130_000,
        });
        if (a.status === 200) {
          remux.done++;
          remux.ms.push(a.ms);
          remux.at.push((performance.now() - t0) / 1000);
        } else remux.failed.push(`${a.status} ${a.text.slice(0, 200)}`);
      }
    })();

    const deadline = t0 + SECONDS * 1000;
    const clients = Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = c; performance.now() < deadline; i++) {
        const path = ENDPOINTS[i % ENDPOINTS.length]!;
        try {
          const a = await get(agent, host, port, path);
          statuses[a.status] = (statuses[a.status] ?? 0) + 1;
          if (a.status !== 200) errors.push(`${path}: ${a.status}`);
          else lat[path]!.push(a.ms);
          if (a.ms > 500) slow.push({ at: (performance.now() - t0) / 1000, path, ms: a.ms });
        } catch (err) {
          errors.push(`${path}: ${(err as Error).message}`);
        }
      }
    });
    await Promise.all(clients);
    const elapsed = (performance.now() - t0) / 1000;
    stop = true;
    await remuxLoop;
    agent.destroy();
    remuxAgent.destroy();

    const all = Object.values(lat)
      .flat()
      .sort((a, b) => a - b);
    const total = all.length + errors.length;
    figures.set('clients / seconds', `${CLIENTS} / ${elapsed.toFixed(1)}`);
    figures.set('requests', total);
    figures.set('requests per second', Math.round(total / elapsed));
    figures.set('errors + non-200', errors.length);
    figures.set('status histogram', JSON.stringify(statuses));
    for (const p of ENDPOINTS) {
      const s = lat[p]!.sort((a, b) => a - b);
      figures.set(
        `${p} n / p50 / p95 / p99 / max (ms)`,
        `${s.length} / ${percentile(s, 50).toFixed(1)} / ${percentile(s, 95).toFixed(1)} / ${percentile(s, 99).toFixed(1)} / ${s[s.length - 1]?.toFixed(1)}`,
      );
    }
    figures.set(
      'all endpoints p50 / p95 / p99 (ms)',
      `${percentile(all, 50).toFixed(1)} / ${percentile(all, 95).toFixed(1)} / ${percentile(all, 99).toFixed(1)}`,
    );
    figures.set('remuxes completed during the load / failed', `${remux.done} / ${remux.failed.length}`);
    if (remux.ms.length)
      figures.set(
        'remux request time, median (ms)',
        Math.round(
          percentile(
            [...remux.ms].sort((a, b) => a - b),
            50,
          ),
        ),
      );
    // When answers were slow: one stall of the API shows as every client slow at the same second.
    const seconds = [...new Set(slow.map((x) => Math.floor(x.at)))].sort((a, b) => a - b);
    figures.set('answers over 500 ms', slow.length);
    if (slow.length) figures.set('  in these seconds of the run', seconds.join(', '));

    expect(errors.slice(0, 20)).toEqual([]);
    expect(remux.failed).toEqual([]);
    expect(remux.done).toBeGreaterThanOrEqual(1);
    expect(api.proc.exitCode).toBeNull();
  }, 300_000);
});
