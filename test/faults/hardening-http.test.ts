// The HTTP attacks and client findings of "Secure by default", each as a case that now does no harm,
// against real processes (the production bundles), a real Redis and the shipped nginx config:
// - GET /api/downloads with the downloads folder at /usr walked the whole tree per request (20 MB
//   of JSON); now it serves the bounded listing the scanner pass saved;
// - a body just over 1 MiB through nginx was a 502 (the API closed the connection unread); now
//   every size is the API's JSON 413;
// - a known route with another method was a 404, `?wait=1e1` a 400, and the metrics mistyped;
// - Bull Board and the API docs page could be framed by any site (clickjacking the owner's session).
import { writeFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LISTED_DEPTH, MAX_LISTED_FILES, walkDownloads } from '@mo/core/scanner';
import { MAX_DISCARD_BYTES } from '@mo/api/limits';
import { PROM_CLIENT_TOTAL_GAUGES, readExposition } from '@mo/test-support/prometheus-text';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { buildApps, startProcess, tempInstall, TEST_API_KEY, waitFor, type RunningProcess, type TempInstall } from '@mo/test-support/service';
import { startNginx, type RunningNginx } from '../deploy/support/nginx.ts';
import { json, send, type Answer, type SendOptions } from './support/http.ts';
import { Figures } from './support/report.ts';

const MiB = 1024 * 1024;
/** The system folder of the report: large, deep, and readable by anyone. */
const SYSTEM_FOLDER = '/usr';
const figures = new Figures('hardening-http');
const redisUrl = testRedisUrl();
const prefix = uniquePrefix('hardhttp');
const auth = { 'x-api-key': TEST_API_KEY };

let install: TempInstall;
let api: RunningProcess;
let worker: RunningProcess;
let nginx: RunningNginx;
let port: number;

const call = (p: number, method: string, path: string, opts: SendOptions = {}) => send(p, method, path, { ...opts, headers: { ...auth, ...opts.headers } });

beforeAll(async () => {
  buildApps();
  install = await tempInstall('[app]\nscan_interval_seconds = 0\nwatch = false\n');
  // The attack's config: the downloads folder is a system folder (the TOML file may name any).
  await writeFile(
    install.configFile,
    `[app]\nscan_interval_seconds = 0\nwatch = false\n\n[paths]\ndownloads = "${SYSTEM_FOLDER}"\nconfig = "${install.paths.config}"\ndata = "${install.paths.data}"\n\n` +
      `[[drives]]\nname = "disk1"\npath = "${install.paths.drive}"\n`,
  );
  port = await freePort();
  const env = { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: '127.0.0.1' };
  api = startProcess('api', env, { built: true });
  worker = startProcess('worker', { ...env, WORKER_QUEUES: 'scan,library' }, { built: true });
  await waitFor(async () => (await send(port, 'GET', '/api/ready')).status === 200, 30_000, 'the api');
  await waitFor(async () => worker.output().includes('"msg":"worker started"'), 30_000, 'the worker');
  nginx = await startNginx({ listenPort: await freePort(), apiPort: port });
}, 180_000);

afterAll(async () => {
  figures.print();
  await nginx?.stop();
  await api?.stop('SIGKILL');
  await worker?.stop('SIGKILL');
  await dropPrefix(redisUrl, prefix);
  await install?.cleanup();
});

describe(`GET /api/downloads with the downloads folder at ${SYSTEM_FOLDER}`, () => {
  it('answers no files and scanned_at null before the first pass, without walking the folder', async () => {
    const r = await call(port, 'GET', '/api/downloads');
    expect(r.status).toBe(200);
    expect(json(r)).toEqual({ files: [], scanned_at: null, truncated: false, recent: [] });
  });

  it(`after a pass, serves at most ${MAX_LISTED_FILES} files at most ${MAX_LISTED_DEPTH} folders deep, says it cut the rest, and serves the same bytes again`, async () => {
    const walked = (await walkDownloads(SYSTEM_FOLDER)).length;
    // `3e2`: a JSON number in exponent form is a wait like any other.
    const scan = await call(port, 'POST', '/api/scan?wait=3e2', { timeoutMs: 320_000 });
    expect(scan.status, scan.text.slice(0, 200)).toBe(200);
    const r = await call(port, 'GET', '/api/downloads');
    expect(r.status).toBe(200);
    const body = json(r);
    const pass = json(scan);
    expect(body.scanned_at >= pass.started_at && body.scanned_at <= pass.finished_at, `${body.scanned_at} within ${pass.started_at}..${pass.finished_at}`).toBe(
      true,
    );
    expect(body.truncated).toBe(true);
    expect(body.files.length).toBeLessThanOrEqual(MAX_LISTED_FILES);
    const depths = body.files.map((f: { path: string }) => f.path.slice(SYSTEM_FOLDER.length + 1).split('/').length - 1);
    expect(Math.max(...depths)).toBeLessThanOrEqual(MAX_LISTED_DEPTH);
    const again = await call(port, 'GET', '/api/downloads');
    expect(again.headers.etag).toBe(r.headers.etag);
    expect(again.text).toBe(r.text);
    const gzip = await call(port, 'GET', '/api/downloads', { headers: { 'accept-encoding': 'gzip' } });
    figures.set(`files under ${SYSTEM_FOLDER} (walked by the pass)`, walked);
    figures.set('files listed', body.files.length);
    figures.set('listing answer, KB', Math.round(Buffer.byteLength(r.text) / 1024));
    figures.set('listing answer gzipped, KB', Math.round(Number(gzip.headers['content-length']) / 1024));
    expect(walked).toBeGreaterThan(MAX_LISTED_FILES);
    expect(Buffer.byteLength(r.text)).toBeLessThan(3 * MiB);
  }, 330_000);
});

describe('bodies over 1 MiB through the shipped nginx config', () => {
  it('are the JSON 413 at every size, with Content-Length or chunked, never a 502', async () => {
    const sizes = [MiB + 1, 1.5 * MiB, MAX_DISCARD_BYTES, MAX_DISCARD_BYTES + 1, 3 * MiB, 16 * MiB];
    const out: string[] = [];
    const seen: Record<string, number> = {};
    for (const size of sizes) {
      for (const chunked of [false, true]) {
        const r: Answer = await call(nginx.port, 'POST', '/api/settings', {
          body: Buffer.alloc(size, 0x20),
          headers: { 'content-type': 'application/json' },
          chunked,
          timeoutMs: 30_000,
        });
        seen[r.status] = (seen[r.status] ?? 0) + 1;
        const code = json(r)?.error?.code;
        if (r.status !== 413 || code !== 'payload_too_large' || !/application\/json/.test(String(r.headers['content-type']))) {
          out.push(`${size} bytes ${chunked ? 'chunked' : 'with Content-Length'}: ${r.status} ${r.headers['content-type']} ${r.text.slice(0, 120)}`);
        }
      }
    }
    figures.set('oversized bodies through nginx', sizes.length * 2);
    figures.set('answered other than the JSON 413', out.length);
    console.log(`[hardening-http] statuses through nginx: ${JSON.stringify(seen)}`);
    expect(out).toEqual([]);
    expect(await nginx.errorLog()).not.toMatch(/reset by peer|prematurely closed/);
  }, 120_000);

  it('leave the keep-alive connection usable when the API answered them (up to 2 MiB)', async () => {
    const out: string[] = [];
    for (const size of [MiB + 1, MAX_DISCARD_BYTES]) {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const first = await call(nginx.port, 'POST', '/api/settings', { body: Buffer.alloc(size, 0x20), headers: { 'content-type': 'application/json' }, agent });
      const next = await call(nginx.port, 'GET', '/api/health', { agent });
      agent.destroy();
      if (first.status !== 413 || next.status !== 200) out.push(`${size} bytes: ${first.status}, then GET /api/health: ${next.status}`);
    }
    expect(out).toEqual([]);
  });
});

describe("framing a page under the owner's session", () => {
  it('no page can be framed: Bull Board, the API docs, the set-up page and errors say DENY and frame-ancestors none, directly and through nginx', async () => {
    const out: string[] = [];
    let checked = 0;
    for (const p of [port, nginx.port]) {
      for (const path of ['/api/admin/queues', '/api/docs', '/setup', '/api/health', '/api/nowhere']) {
        const r = await call(p, 'GET', path, { headers: { accept: 'text/html' } });
        checked++;
        const policy = String(r.headers['content-security-policy'] ?? '');
        if (r.headers['x-frame-options'] !== 'DENY' || !/(?:^|; )frame-ancestors 'none'$/.test(policy)) {
          out.push(`${p === port ? 'api' : 'nginx'} ${path} ${r.status}: X-Frame-Options ${String(r.headers['x-frame-options'])}, CSP ${policy || '(none)'}`);
        }
      }
    }
    figures.set('answers checked for framing / framable', `${checked} / ${out.length}`);
    expect(out).toEqual([]);
  });
});

describe('what real clients found', () => {
  it('a known route with another method is 405 with Allow, directly and through nginx', async () => {
    for (const p of [port, nginx.port]) {
      const r = await call(p, 'DELETE', '/api/downloads');
      expect(r.status).toBe(405);
      expect(r.headers.allow).toBe('GET, HEAD');
      expect(json(r).error.code).toBe('method_not_allowed');
      const scan = await call(p, 'GET', '/api/scan');
      expect(scan.status).toBe(405);
      expect(scan.headers.allow).toBe('POST');
    }
    expect((await call(port, 'DELETE', '/api/nowhere')).status).toBe(404);
  });

  it('?wait=1e1 is ten seconds, not a 400; a wait out of range in any form still is', async () => {
    const ok = await call(port, 'POST', '/api/library/scan?wait=1e1', { timeoutMs: 20_000 });
    expect([200, 202]).toContain(ok.status);
    for (const bad of ['1e3', '-1e0', '1e999', '0x1']) {
      const r = await call(port, 'POST', `/api/library/scan?wait=${bad}`);
      expect(r.status, bad).toBe(400);
    }
  });

  it('/api/metrics is a valid exposition: counters typed counter and named _total, one unit per metric', async () => {
    // The library figures are left out until a library scan has written the index (the test above starts one).
    const { families, problems } = await waitFor(
      async () => {
        const r = await call(port, 'GET', '/api/metrics');
        expect(r.status).toBe(200);
        const read = readExposition(r.text, { totalGauges: PROM_CLIENT_TOTAL_GAUGES });
        return read.families.has('mo_library_bytes') && read;
      },
      20_000,
      'the library figures',
    );
    expect(problems).toEqual([]);
    expect(families.get('mo_queue_jobs_finished_total')?.type).toBe('counter');
    expect(families.get('mo_library')).toBeUndefined();
    expect(families.get('mo_library_bytes')?.type).toBe('gauge');
  });
});
