// Library scale: the library scan and the API's library-backed endpoints on a generated library
// (default 100,000 files over 2 drives; BENCH_FILES overrides), with baselines measured in the
// same run:
//
//  - scan: `scanLibrary` (packages/core) with DEFAULT_CONFIG's folder and extension lists over both
//    drives, beside GNU `find <library folders> -type f -printf '%s %T@ %p\n'` (the same files: the
//    drives' Movies / TV / TV Shows folders, not the decoy Downloads folder next to them) and beside a
//    bare node walk (readdirSync withFileTypes + statSync per entry, nothing else: the floor of the
//    scanner's design). The page cache cannot be dropped reliably here, so each is run twice and
//    the second (warm) run is reported. Writing the index (`writeLibraryIndex`) is timed apart.
//  - API: the real API process (`startProcess('api')`, own QUEUE_PREFIX) serving that index; each
//    endpoint gets a closed-loop load of BENCH_CONCURRENCY clients (8) for BENCH_REQUESTS requests
//    (2000, at most BENCH_SECONDS = 15 s) over keep-alive connections to 127.0.0.1 (node:http,
//    a browser's Accept-Encoding), after a timed warm-up of every endpoint (BENCH_WARMUP_SECONDS,
//    1.5 s each); /api/health and /api/dashboard alternate in 4 rounds of a quarter each, so that
//    their ratio is not coloured by drift. RSS is read from /proc/<pid>/status (VmRSS now, VmHWM
//    the peak).
//
// Goals (exit 1 when one is missed; an endpoint answering 404 is reported "not available" and not
// counted): scan ≥ 50,000 files/s; p99 < 50 ms on /api/library, /api/dashboard and the tools
// endpoints; /api/dashboard ≥ 0.5× the requests/s of /api/health; API peak RSS < 250 MB.
//
// Run: pnpm bench library   (or: node --import tsx --expose-gc bench/library.bench.ts)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, type Dirent } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../packages/shared/src/config/schema.ts';
import type { LibraryIndex } from '../packages/shared/src/library/index-schema.ts';
import { scanLibrary } from '../packages/core/src/library/scan-library.ts';
import { indexPath, writeLibraryIndex } from '../packages/core/src/library/index-store.ts';
import { buildApps, startProcess, waitFor, writeTestKey, type RunningProcess } from '../test/support/service.ts';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '../test/support/redis.ts';
import { generateLibrary } from './support/library-fixture.ts';
import { closedLoop, get, mergeResults, type LoadResult } from './support/http-load.ts';

const FILES = Number(process.env.BENCH_FILES ?? 100_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const MAX_SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1.5);
const RUNS = 2;
const PAIRED_ROUNDS = 4;

const GOALS = { filesPerSecond: 50_000, p99Ms: 50, dashboardVsHealth: 0.5, rssMb: 250 };
const ENDPOINTS = ['/api/health', '/api/dashboard', '/api/library', '/api/releases', '/api/tools/subtitles', '/api/tools/transcoder', '/api/tools/duplicates'];

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const now = () => performance.now();
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

/** VmRSS and VmHWM of a process, in bytes. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** readdir + stat of every entry, nothing else: what any stat-based scanner must pay. */
function bareWalk(roots: readonly string[]): number {
  let files = 0;
  const stack = [...roots];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const p = `${dir}/${e.name}`;
      const st = statSync(p);
      if (st.isDirectory()) stack.push(p);
      else if (st.isFile()) files++;
    }
  }
  return files;
}

/** GNU find with the baseline's -printf; resolves with the lines it printed and the wall time. */
function runFind(roots: readonly string[]): Promise<{ ms: number; lines: number }> {
  return new Promise((resolve, reject) => {
    const t0 = now();
    const p = spawn('find', [...roots, '-type', 'f', '-printf', '%s %T@ %p\\n'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let lines = 0;
    p.stdout.on('data', (chunk: Buffer) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    });
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve({ ms: now() - t0, lines }) : reject(new Error(`find exited with ${code}`))));
  });
}

interface EndpointResult {
  path: string;
  available: boolean;
  firstMs: number;
  firstStatus: number;
  load?: LoadResult;
  rssAfter?: number;
}

const misses: string[] = [];
const notes: string[] = [];
let tmp: string | undefined;
let api: RunningProcess | undefined;
let prefix: string | undefined;
const redisUrl = testRedisUrl();

async function cleanup(): Promise<void> {
  if (api) {
    const a = api;
    api = undefined;
    const killer = setTimeout(() => a.proc.kill('SIGKILL'), 5000);
    await a.stop('SIGTERM').catch(() => {});
    clearTimeout(killer);
  }
  if (prefix) {
    const p = prefix;
    prefix = undefined;
    await dropPrefix(redisUrl, p).catch((err) => console.error(`could not drop Redis prefix ${p}: ${String(err)}`));
  }
  if (tmp) {
    const t = tmp;
    tmp = undefined;
    rmSync(t, { recursive: true, force: true });
  }
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    console.error(`\n${sig}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

async function main(): Promise<void> {
  // Short paths, about as long as real ones (/media/disk1/Movies/…): the index and the API's
  // answers carry absolute paths, so a long temp prefix would inflate them.
  tmp = mkdtempSync(join(tmpdir(), 'mo-bench-'));

  // ---- Generate -----------------------------------------------------------------------------------
  let t0 = now();
  const lib = generateLibrary(tmp, FILES);
  const genMs = now() - t0;
  console.log(
    `library: ${int(lib.files)} files in ${int(lib.folders)} folders over ${lib.drives.length} drives ` +
      `(${int(lib.movies)} movies, ${int(lib.series)} series, ${int(lib.episodeFiles)} episode files; ` +
      `${int(lib.byType.video)} video, ${int(lib.byType.subtitle)} subtitle, ${int(lib.byType.nfo)} nfo, ${int(lib.byType.other)} other), ` +
      `plus ${int(lib.decoyFiles)} decoy files outside the library folders; written in ${secs(genMs)} under ${tmp}`,
  );
  console.log(`library folders: ${lib.libraryRoots.map((r) => r.slice(tmp!.length + 1)).join(', ')}`);
  console.log(`page cache: not dropped; every scanner runs ${RUNS}× and the last (warm) run is reported`);
  console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} (other work on it colours every figure)\n`);

  // ---- Scan ---------------------------------------------------------------------------------------
  const scanOpts = {
    drives: lib.drives,
    movieFolders: DEFAULT_CONFIG.library.movie_folders,
    tvFolders: DEFAULT_CONFIG.library.tv_folders,
    videoExtensions: DEFAULT_CONFIG.library.video_extensions,
    subtitleExtensions: DEFAULT_CONFIG.library.subtitle_extensions,
    maxFiles: DEFAULT_CONFIG.app.library_scan_max_files,
    timeoutMs: DEFAULT_CONFIG.app.library_scan_timeout_seconds * 1000,
    readNfo: DEFAULT_CONFIG.metadata.read_nfo,
  };
  const scanMs: number[] = [];
  const findMs: number[] = [];
  const walkMs: number[] = [];
  let index: LibraryIndex | undefined;
  let findLines = 0;
  let walkFiles = 0;
  for (let run = 0; run < RUNS; run++) {
    index = undefined;
    gc();
    t0 = now();
    index = await scanLibrary(scanOpts);
    scanMs.push(now() - t0);

    gc();
    t0 = now();
    walkFiles = bareWalk(lib.libraryRoots);
    walkMs.push(now() - t0);

    const f = await runFind(lib.libraryRoots);
    findMs.push(f.ms);
    findLines = f.lines;
  }
  const idx = index!;
  const files = idx.items.length;
  const decoyRead = idx.items.filter((i) => i.path.includes('/Downloads/') || i.path.includes('/Music/') || i.path.includes('/movies-old/')).length;
  if (files !== lib.files) misses.push(`scan indexed ${int(files)} files, the library holds ${int(lib.files)}`);
  if (decoyRead > 0) misses.push(`scan indexed ${decoyRead} files outside the library folders`);
  if (idx.skipped.length > 0) notes.push(`scan skipped ${idx.skipped.length} folder(s): ${idx.skipped[0]!.path} ${idx.skipped[0]!.error}`);
  if (findLines !== lib.files) notes.push(`find printed ${int(findLines)} lines for ${int(lib.files)} files`);
  if (walkFiles !== lib.files) notes.push(`bare walk counted ${int(walkFiles)} files for ${int(lib.files)}`);

  const dataDir = join(tmp, 'data');
  mkdirSync(dataDir, { recursive: true });
  await writeTestKey(dataDir);
  gc();
  t0 = now();
  await writeLibraryIndex(dataDir, idx);
  const writeMs = now() - t0;
  const indexBytes = statSync(indexPath(dataDir)).size;
  // The JSON.stringify share of the write, measured apart (the write above includes it).
  gc();
  t0 = now();
  const jsonLen = JSON.stringify(idx).length;
  const stringifyMs = now() - t0;

  const warm = (xs: number[]) => xs[xs.length - 1]!;
  const rate = (ms: number) => files / (ms / 1000);
  const scanRate = rate(warm(scanMs));
  const findRate = findLines / (warm(findMs) / 1000);
  const walkRate = walkFiles / (warm(walkMs) / 1000);
  const totalMs = warm(scanMs) + writeMs;
  console.log(`scan (${int(files)} files; runs: ${scanMs.map(secs).join(', ')} → warm run reported)`);
  table(
    ['scanner', 'warm time', 'files/s', 'vs find'],
    [
      ['scanLibrary (core)', secs(warm(scanMs)), int(scanRate), `${(scanRate / findRate).toFixed(2)}×`],
      ['bare node walk (readdirSync + statSync)', secs(warm(walkMs)), int(walkRate), `${(walkRate / findRate).toFixed(2)}×`],
      [`find -type f -printf '%s %T@ %p\\n'`, secs(warm(findMs)), int(findRate), '1.00×'],
      [`writeLibraryIndex (${mb(indexBytes)} JSON; stringify alone ${secs(stringifyMs)})`, secs(writeMs), int(rate(writeMs)), ''],
      ['total: scanLibrary + writeLibraryIndex', secs(totalMs), int(rate(totalMs)), `${(rate(totalMs) / findRate).toFixed(2)}×`],
    ],
  );
  console.log(`find runs: ${findMs.map(secs).join(', ')}; bare walk runs: ${walkMs.map(secs).join(', ')}`);
  if (jsonLen !== indexBytes) notes.push(`index JSON ${jsonLen} chars vs ${indexBytes} bytes on disk (non-ASCII titles)`);
  index = undefined;

  // ---- API ----------------------------------------------------------------------------------------
  const configDir = join(tmp, 'config');
  const downloadsDir = join(tmp, 'downloads');
  mkdirSync(configDir, { recursive: true });
  mkdirSync(downloadsDir, { recursive: true });
  const configFile = join(configDir, 'config.toml');
  writeFileSync(
    configFile,
    `[paths]\ndownloads = "${downloadsDir}"\nconfig = "${configDir}"\ndata = "${dataDir}"\n\n` +
      lib.drives.map((d) => `[[drives]]\nname = "${d.name}"\npath = "${d.path}"\n`).join('\n'),
  );
  const port = await freePort();
  prefix = uniquePrefix('bench');
  const host = '127.0.0.1';
  t0 = now();
  // Measured as production runs it: the bundled app on plain node (`pnpm start:api`).
  buildApps();
  api = startProcess(
    'api',
    { MEDIA_ORGANIZER_CONFIG: configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: host },
    { built: true },
  );
  const pid = api.proc.pid!;
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    await waitFor(
      async () => {
        if (api!.proc.exitCode !== null) throw new Error(`api exited with ${api!.proc.exitCode}`);
        return (await get(agent, host, port, '/api/ready')).status === 200;
      },
      60_000,
      'the API to be ready',
    );
  } catch (err) {
    console.error(api.output().slice(-4000));
    throw err;
  }
  const startMs = now() - t0;
  const idle = memoryOf(pid);
  console.log(
    `\nAPI: pid ${pid} ready in ${secs(startMs)} (index loaded at start), RSS ${mb(idle.rss)} idle; ` +
      `load: ${CONCURRENCY} concurrent keep-alive clients sending a browser's Accept-Encoding, ${int(REQUESTS)} requests ` +
      `(≤ ${MAX_SECONDS} s) per endpoint, after a warm-up of ${WARMUP_SECONDS} s on every endpoint`,
  );

  // Every endpoint's first answer (it may derive its view from the index then) and a warm-up of all
  // of them before any is measured, so that the first one measured does not pay for the JIT
  // warming the shared middleware.
  const results: EndpointResult[] = [];
  for (const path of ENDPOINTS) {
    const first = await get(agent, host, port, path);
    results.push({ path, available: first.status !== 404, firstMs: first.ms, firstStatus: first.status });
  }
  // The JIT needs a few thousand requests through the middleware before the figures settle, so the
  // warm-up is by time; the cheap endpoints come last, so the garbage of the big answers is
  // collected before /api/health is measured.
  for (const r of [...results].reverse()) {
    if (r.available) await closedLoop({ host, port, path: r.path, concurrency: CONCURRENCY, requests: Number.MAX_SAFE_INTEGER, maxSeconds: WARMUP_SECONDS, agent });
  }
  const load = (path: string, requests: number, maxSeconds: number) =>
    closedLoop({ host, port, path, concurrency: CONCURRENCY, requests, maxSeconds, agent });
  // /api/health and /api/dashboard, whose ratio is a goal, are measured in alternating rounds, so
  // that a drift of the machine or of the API's heap (a GC of the index) weighs on both alike.
  const [healthResult, dashResult] = results;
  if (healthResult!.available && dashResult!.available) {
    const runs: [LoadResult[], LoadResult[]] = [[], []];
    for (let round = 0; round < PAIRED_ROUNDS; round++) {
      runs[0].push(await load(healthResult!.path, Math.ceil(REQUESTS / PAIRED_ROUNDS), MAX_SECONDS / PAIRED_ROUNDS));
      runs[1].push(await load(dashResult!.path, Math.ceil(REQUESTS / PAIRED_ROUNDS), MAX_SECONDS / PAIRED_ROUNDS));
    }
    healthResult!.load = mergeResults(runs[0]);
    dashResult!.load = mergeResults(runs[1]);
    healthResult!.rssAfter = dashResult!.rssAfter = memoryOf(pid).rss;
  }
  for (const r of results) {
    if (!r.available || r.load) continue;
    r.load = await load(r.path, REQUESTS, MAX_SECONDS);
    r.rssAfter = memoryOf(pid).rss;
  }
  const mem = memoryOf(pid);
  agent.destroy();

  console.log('');
  table(
    ['endpoint', 'first', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'body (wire)', 'non-200', 'RSS after'],
    results.map((r) =>
      r.load
        ? [
            r.path,
            `${r.firstMs.toFixed(1)} ms`,
            `${int(r.load.requests)}${r.load.stoppedByTime ? ' (time)' : ''}`,
            int(r.load.rps),
            r.load.p50.toFixed(2),
            r.load.p95.toFixed(2),
            r.load.p99.toFixed(2),
            r.load.max.toFixed(1),
            r.load.bytesPerAnswer >= 10_240 ? mb(r.load.bytesPerAnswer) : `${int(r.load.bytesPerAnswer)} B`,
            String(r.load.errors + Object.values(r.load.statuses).reduce((a, b) => a + b, 0)),
            mb(r.rssAfter!),
          ]
        : [r.path, `${r.firstMs.toFixed(1)} ms`, 'not available (404)', '', '', '', '', '', '', '', ''],
    ),
  );
  console.log(`API RSS: ${mb(mem.rss)} now, ${mb(mem.hwm)} peak (VmHWM), ${mb(idle.rss)} idle after start`);

  // ---- Goals --------------------------------------------------------------------------------------
  const checks: { ok: boolean | null; what: string }[] = [];
  checks.push({
    ok: scanRate >= GOALS.filesPerSecond,
    what: `scan ${int(scanRate)} files/s ≥ ${int(GOALS.filesPerSecond)} (${(scanRate / findRate).toFixed(2)}× find's ${int(findRate)} files/s)`,
  });
  for (const r of results.slice(1)) {
    if (!r.load) {
      checks.push({ ok: null, what: `${r.path}: not available (404), not checked` });
      continue;
    }
    const bad = r.load.errors + Object.values(r.load.statuses).reduce((a, b) => a + b, 0);
    checks.push({ ok: r.load.p99 < GOALS.p99Ms && bad === 0, what: `${r.path} p99 ${r.load.p99.toFixed(2)} ms < ${GOALS.p99Ms} ms${bad ? ` (${bad} non-200/errors)` : ''}` });
  }
  const health = results[0]!.load;
  const dash = results[1]!.load;
  if (health && dash) {
    const ratio = dash.rps / health.rps;
    checks.push({ ok: ratio >= GOALS.dashboardVsHealth, what: `/api/dashboard ${int(dash.rps)} req/s = ${ratio.toFixed(2)}× /api/health's ${int(health.rps)} req/s ≥ ${GOALS.dashboardVsHealth}×` });
  }
  checks.push({ ok: mem.hwm < GOALS.rssMb * 1024 * 1024, what: `API peak RSS ${mb(mem.hwm)} < ${GOALS.rssMb} MB` });
  for (const m of misses) checks.push({ ok: false, what: m });

  console.log('\ngoals:');
  for (const c of checks) console.log(`  ${c.ok === null ? 'n/a ' : c.ok ? 'ok  ' : 'MISS'} ${c.what}`);
  for (const n of notes) console.log(`  note: ${n}`);
  const failed = checks.filter((c) => c.ok === false);
  if (failed.length > 0) {
    console.error(`\nFAIL: ${failed.length} goal(s) missed`);
    process.exitCode = 1;
  } else console.log('\nOK: all available goals met');
}

try {
  await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanup();
}
