// Library scale: the library scan and the API's index-backed routes on generated libraries of
// several sizes (10,000 and 100,000 files over 2 drives by default; `--files 1000000` adds a size,
// `--files 5000,20000` several; BENCH_FILES=<list> replaces the defaults), so that growth with size
// is a table. For each size, fresh processes of the bundled API and worker (as `pnpm start:api` and
// `pnpm start:worker` run them, own QUEUE_PREFIX, the config's defaults but for the drives), and:
//
//  - find: GNU `find <library folders> -type f -printf '%s %T@ %p\n'` over the same files (the
//    drives' Movies / TV / TV Shows folders, not the decoy Downloads folder beside them), run twice
//    (the page cache cannot be dropped here; the first run warms it) and the second reported.
//  - scan: `POST /api/library/scan?wait=300` timed from request to answer: the job through Redis,
//    the worker's walk, the index written, the API reading it and rebuilding its answers (the route
//    refreshes the API's cache before it answers). Run right after find, so as warm as find's run.
//  - rescan: the same request again with nothing changed on disk.
//  - RSS from /proc/<pid>/status: the worker's peak (VmHWM, over both scans), the API's VmRSS idle
//    before the first scan, after the scans, after the load, and its peak.
//  - load: every index-backed route in turn under BENCH_CONCURRENCY (20) closed-loop keep-alive
//    clients for BENCH_REQUESTS requests (2000, at most BENCH_SECONDS = 10 s), after a warm-up of
//    every route (BENCH_WARMUP_SECONDS, 1 s each); /api/health, which reads no index, is the baseline.
//
// Goals, at 100,000 files (exit 1 when one is missed): scan ≤ 3× find; rescan with nothing changed
// < 0.3× the scan; worker peak RSS < 200 MB; API RSS after load < 160 MB; every index-backed
// route's p99 < 25 ms. From 100,000 files to a size ≥ 10× larger (`--files 1000000`), each figure
// grows at most linearly: ≤ the files ratio times the smaller's; for RSS, what the library adds
// above the process's idle RSS.
//
// Run: pnpm bench library [--files 1000000]   (or: node --import tsx --expose-gc bench/library.bench.ts --files …)
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { openDataDir } from '@mo/core';
import { buildApps, writeTestKey, type RunningProcess } from '@mo/test-support/service';
import { freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { generateLibrary, type GeneratedLibrary } from './support/library-fixture.ts';
import { closedLoop, get, type LoadResult } from './support/http-load.ts';
import { memoryOf, requestJson, runFind, startService, stopService } from './support/service-processes.ts';

/** The baseline's output: what the index keeps of each file. */
const FIND_PRINTF = ['-printf', '%s %T@ %p\\n'];

const DEFAULT_SIZES = [10_000, 100_000];
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const MAX_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
const SCAN_WAIT_SECONDS = 300;

const GOALS = { at: 100_000, scanVsFind: 3, rescanVsScan: 0.3, workerPeakMb: 200, apiAfterLoadMb: 160, p99Ms: 25 };

function parseSizes(): number[] {
  const list = (s: string) =>
    s.split(',').map((x) => {
      const n = Number(x.replace(/_/g, ''));
      if (!Number.isInteger(n) || n < 100) throw new Error(`--files: ${x} is not a whole number of files ≥ 100`);
      return n;
    });
  const argv = process.argv.slice(2);
  const given: number[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--files' && argv[i + 1] !== undefined) given.push(...list(argv[++i]!));
    else if (argv[i]!.startsWith('--files=')) given.push(...list(argv[i]!.slice('--files='.length)));
    else throw new Error(`unknown argument ${argv[i]}; known: --files <n>[,<n>…]`);
  }
  const base = process.env.BENCH_FILES ? list(process.env.BENCH_FILES) : DEFAULT_SIZES;
  return [...new Set([...base, ...given])].sort((a, b) => a - b);
}

const now = () => performance.now();
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;

function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

interface SizeResult {
  files: number;
  lib: GeneratedLibrary;
  genMs: number;
  findMs: number;
  scanMs: number;
  rescanMs: number;
  indexedFiles: number;
  indexBytes: number;
  workerIdle: number;
  workerPeak: number;
  apiIdle: number;
  apiAfterScan: number;
  apiAfterLoad: number;
  apiPeak: number;
  /** rssFirst: the API's RSS after the route's first answer (which computes it); rssLoad: after its load. */
  routes: { path: string; load: LoadResult | null; status: number; rssFirst: number; rssLoad: number }[];
}

const misses: string[] = [];
const notes: string[] = [];
let tmp: string | undefined;
const running: RunningProcess[] = [];
const prefixes: string[] = [];
const redisUrl = testRedisUrl();

const stopAll = () => stopService(running, redisUrl, prefixes);

async function cleanup(): Promise<void> {
  await stopAll();
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

async function runSize(files: number): Promise<SizeResult> {
  // Short paths, about as long as real ones (/media/disk1/Movies/…): the index and the API's
  // answers carry absolute paths, so a long temp prefix would inflate them.
  const root = mkdtempSync(join(tmp!, 'l'));
  const t0 = now();
  const lib = generateLibrary(root, files);
  const genMs = now() - t0;
  console.log(
    `\n== ${int(files)} files ==\nlibrary: ${int(lib.files)} files in ${int(lib.folders)} folders over ${lib.drives.length} drives ` +
      `(${int(lib.movies)} movies, ${int(lib.series)} series, ${int(lib.episodeFiles)} episode files; ` +
      `${int(lib.byType.video)} video, ${int(lib.byType.subtitle)} subtitle, ${int(lib.byType.nfo)} nfo, ${int(lib.byType.other)} other), ` +
      `plus ${int(lib.decoyFiles)} decoy files outside the library folders; written in ${secs(genMs)}`,
  );

  const dataDir = join(root, 'data');
  const configDir = join(root, 'config');
  const downloadsDir = join(root, 'downloads');
  for (const d of [dataDir, configDir, downloadsDir]) mkdirSync(d, { recursive: true });
  await writeTestKey(dataDir);
  const configFile = join(configDir, 'config.toml');
  // The defaults but for two: no periodic scanner pass (it would run beside the measurements), and
  // a file limit above the library's when the library is larger than the default limit allows.
  writeFileSync(
    configFile,
    `[paths]\ndownloads = "${downloadsDir}"\nconfig = "${configDir}"\ndata = "${dataDir}"\n\n` +
      `[app]\nscan_interval_seconds = 0\n${files > 500_000 ? `library_scan_max_files = ${files * 2}\n` : ''}\n` +
      lib.drives.map((d) => `[[drives]]\nname = "${d.name}"\npath = "${d.path}"\n`).join('\n'),
  );
  if (files > 500_000) notes.push(`${int(files)} files: library_scan_max_files raised to ${int(files * 2)} (the default, 500,000, would truncate the scan)`);

  const port = await freePort();
  const prefix = uniquePrefix('bench');
  prefixes.push(prefix);
  const host = '127.0.0.1';
  const env = { MEDIA_ORGANIZER_CONFIG: configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: host };
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const { api, worker } = await startService(env, agent, running);
  const apiPid = api.proc.pid!;
  const workerPid = worker.proc.pid!;
  const apiIdle = memoryOf(apiPid).rss;
  const workerIdle = memoryOf(workerPid).rss;

  await runFind(lib.libraryRoots, FIND_PRINTF);
  const find = await runFind(lib.libraryRoots, FIND_PRINTF);
  if (find.lines !== lib.files) notes.push(`${int(files)} files: find printed ${int(find.lines)} lines for ${int(lib.files)} files`);

  const scanOnce = async (what: string) => {
    const r = await requestJson(agent, host, port, 'POST', `/api/library/scan?wait=${SCAN_WAIT_SECONDS}`);
    if (r.status !== 200) {
      console.error(worker.output().slice(-4000));
      throw new Error(`${what}: POST /api/library/scan answered ${r.status}: ${r.body.slice(0, 500)}`);
    }
    const summary = (JSON.parse(r.body) as { summary: { files: number; truncated: boolean; timed_out: boolean } }).summary;
    if (summary.truncated || summary.timed_out) misses.push(`${int(files)} files: ${what} was ${summary.truncated ? 'truncated' : 'timed out'}`);
    return { ms: r.ms, files: summary.files };
  };
  const scan = await scanOnce('scan');
  const rescan = await scanOnce('rescan');
  const apiAfterScan = memoryOf(apiPid).rss;
  const worker1 = memoryOf(workerPid);
  if (scan.files !== lib.files) misses.push(`${int(files)} files: the scan indexed ${int(scan.files)} files, the library holds ${int(lib.files)}`);
  if (rescan.files !== scan.files) misses.push(`${int(files)} files: the rescan indexed ${int(rescan.files)} files, the scan ${int(scan.files)}`);
  const indexBytes = readFileSync(openDataDir(dataDir).index().file).length;

  // One movie folder the index holds, for the per-folder route.
  const firstMovie = `${lib.drives[0]!.path}/Movies`;
  const libraryAnswer = (await requestJson(agent, host, port, 'GET', '/api/library')).body;
  const folder = (JSON.parse(libraryAnswer) as { movies: { folder: string }[] }).movies.find((m) => m.folder.startsWith(`${firstMovie}/`))?.folder;
  const paths = [
    '/api/health',
    '/api/dashboard',
    '/api/library',
    // The Library page's own request: one page, sorted by size (bench/library-page.bench.ts sets it
    // against the whole answer at a million indexed files without scanning them).
    '/api/library?limit=100&sort=size',
    ...(folder ? [`/api/library/files?folder=${encodeURIComponent(folder)}`] : []),
    '/api/releases',
    '/api/tools/subtitles',
    '/api/tools/transcoder',
    '/api/tools/duplicates',
  ];
  // Every route's first answer, then a warm-up of all of them before any is measured, so that the
  // first one measured does not pay for the JIT warming the shared middleware.
  const routes: SizeResult['routes'] = [];
  for (const path of paths) {
    const { status } = await get(agent, host, port, path);
    routes.push({ path, load: null, status, rssFirst: memoryOf(apiPid).rss, rssLoad: 0 });
  }
  for (const r of routes) {
    if (r.status !== 200) continue;
    await closedLoop({ host, port, path: r.path, concurrency: CONCURRENCY, requests: Number.MAX_SAFE_INTEGER, maxSeconds: WARMUP_SECONDS, agent });
  }
  for (const r of routes) {
    if (r.status !== 200) continue;
    r.load = await closedLoop({ host, port, path: r.path, concurrency: CONCURRENCY, requests: REQUESTS, maxSeconds: MAX_SECONDS, agent });
    r.rssLoad = memoryOf(apiPid).rss;
  }
  agent.destroy();
  const apiEnd = memoryOf(apiPid);
  const workerEnd = memoryOf(workerPid);
  await stopAll();
  rmSync(root, { recursive: true, force: true });

  const result: SizeResult = {
    files,
    lib,
    genMs,
    findMs: find.ms,
    scanMs: scan.ms,
    rescanMs: rescan.ms,
    indexedFiles: scan.files,
    indexBytes,
    workerIdle,
    workerPeak: workerEnd.hwm,
    apiIdle,
    apiAfterScan,
    apiAfterLoad: apiEnd.rss,
    apiPeak: apiEnd.hwm,
    routes,
  };
  console.log(
    `find ${secs(find.ms)}; scan ${secs(scan.ms)} (${(scan.ms / find.ms).toFixed(1)}× find); rescan, nothing changed, ${secs(rescan.ms)} ` +
      `(${(rescan.ms / scan.ms).toFixed(2)}× the scan); index ${mb(indexBytes)}; worker RSS ${mb(workerIdle)} idle, ${mb(worker1.rss)} after the scans, ` +
      `peak ${mb(workerEnd.hwm)}; API RSS ${mb(apiIdle)} idle, ${mb(apiAfterScan)} after the scans, ${mb(apiEnd.rss)} after the load, peak ${mb(apiEnd.hwm)}`,
  );
  table(
    ['route', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'body (wire)', 'non-200', 'API RSS after 1st', 'after load'],
    routes.map((r) =>
      r.load
        ? [
            r.path.length > 40 ? `${r.path.slice(0, 37)}…` : r.path,
            int(r.load.rps),
            r.load.p50.toFixed(1),
            r.load.p99.toFixed(1),
            r.load.max.toFixed(0),
            r.load.bytesPerAnswer >= 10_240 ? `${(r.load.bytesPerAnswer / 1024).toFixed(0)} KB` : `${int(r.load.bytesPerAnswer)} B`,
            String(r.load.errors + Object.values(r.load.statuses).reduce((a, b) => a + b, 0)),
            mb(r.rssFirst),
            mb(r.rssLoad),
          ]
        : [r.path, `answered ${r.status}`, '', '', '', '', '', mb(r.rssFirst), ''],
    ),
  );
  return result;
}

const shortPath = (p: string) =>
  (p.startsWith('/api/library/files') ? '/api/library/files' : p.startsWith('/api/library?') ? '/api/library page' : p).replace('/api/', '');

async function main(): Promise<void> {
  const sizes = parseSizes();
  tmp = mkdtempSync(join(tmpdir(), 'mo-bench-'));
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GB, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} ` + `(other work on it colours every figure); sizes: ${sizes.map(int).join(', ')} files; ${CONCURRENCY} keep-alive clients per route`,
  );
  // Measured as production runs it: the bundled apps on plain node (`pnpm start:api`, `start:worker`).
  buildApps();
  const results: SizeResult[] = [];
  for (const files of sizes) results.push(await runSize(files));

  const routeNames = results[0]!.routes.map((r) => r.path);
  console.log('\nsummary (p99 in ms under the load above; RSS from /proc/<pid>/status):');
  table(
    [
      'files',
      'find',
      'scan',
      'scan/find',
      'rescan',
      'rescan/scan',
      'worker peak',
      'API idle',
      'API after scan',
      'API after load',
      'API peak',
      ...routeNames.map((p) => `p99 ${shortPath(p)}`),
    ],
    results.map((r) => [
      int(r.files),
      secs(r.findMs),
      secs(r.scanMs),
      `${(r.scanMs / r.findMs).toFixed(1)}×`,
      secs(r.rescanMs),
      `${(r.rescanMs / r.scanMs).toFixed(2)}×`,
      mb(r.workerPeak),
      mb(r.apiIdle),
      mb(r.apiAfterScan),
      mb(r.apiAfterLoad),
      mb(r.apiPeak),
      ...routeNames.map((p) => {
        const load = r.routes.find((x) => shortPath(x.path) === shortPath(p))?.load;
        return load ? load.p99.toFixed(1) : 'n/a';
      }),
    ]),
  );

  // ---- Goals --------------------------------------------------------------------------------------
  const checks: { ok: boolean; what: string }[] = [];
  const at = results.find((r) => r.files === GOALS.at);
  if (at) {
    const n = `at ${int(at.files)} files:`;
    checks.push({
      ok: at.scanMs <= GOALS.scanVsFind * at.findMs,
      what: `${n} scan ${secs(at.scanMs)} ≤ ${GOALS.scanVsFind}× find's ${secs(at.findMs)} (${(at.scanMs / at.findMs).toFixed(1)}×)`,
    });
    checks.push({
      ok: at.rescanMs < GOALS.rescanVsScan * at.scanMs,
      what: `${n} rescan, nothing changed, ${secs(at.rescanMs)} < ${GOALS.rescanVsScan}× the scan's ${secs(at.scanMs)} (${(at.rescanMs / at.scanMs).toFixed(2)}×)`,
    });
    checks.push({ ok: at.workerPeak < GOALS.workerPeakMb * MB, what: `${n} worker peak RSS ${mb(at.workerPeak)} < ${GOALS.workerPeakMb} MB` });
    checks.push({ ok: at.apiAfterLoad < GOALS.apiAfterLoadMb * MB, what: `${n} API RSS after load ${mb(at.apiAfterLoad)} < ${GOALS.apiAfterLoadMb} MB` });
    for (const r of at.routes.slice(1)) {
      const bad = r.load ? r.load.errors + Object.values(r.load.statuses).reduce((a, b) => a + b, 0) : 1;
      checks.push({
        ok: !!r.load && r.load.p99 < GOALS.p99Ms && bad === 0,
        what: `${n} ${shortPath(r.path)} p99 ${r.load ? `${r.load.p99.toFixed(1)} ms` : `answered ${r.status}`} < ${GOALS.p99Ms} ms${bad && r.load ? ` (${bad} non-200/errors)` : ''}`,
      });
    }
  } else notes.push(`no run at ${int(GOALS.at)} files: the 100,000-file goals were not checked`);
  // Linear growth from the goals' size up: below it, fixed costs (and noise) dominate the figures.
  for (const small of results.filter((r) => r.files >= GOALS.at)) {
    for (const big of results) {
      const k = big.files / small.files;
      if (k < 10) continue;
      const n = `${int(small.files)} → ${int(big.files)} files (${k.toFixed(0)}×):`;
      const grow = (what: string, a: number, b: number, fmt: (x: number) => string) =>
        checks.push({ ok: b <= k * a, what: `${n} ${what} ${fmt(a)} → ${fmt(b)} (${(b / a).toFixed(1)}×) ≤ ${k.toFixed(0)}×` });
      grow('scan', small.scanMs, big.scanMs, secs);
      grow('rescan', small.rescanMs, big.rescanMs, secs);
      // RSS: what the library adds above a process with no library.
      grow('worker peak RSS above its idle RSS', small.workerPeak - small.workerIdle, big.workerPeak - big.workerIdle, mb);
      grow('API RSS after load above idle', small.apiAfterLoad - small.apiIdle, big.apiAfterLoad - big.apiIdle, mb);
      for (const p of routeNames.slice(1)) {
        const a = small.routes.find((x) => shortPath(x.path) === shortPath(p))?.load;
        const b = big.routes.find((x) => shortPath(x.path) === shortPath(p))?.load;
        if (a && b) grow(`${shortPath(p)} p99`, a.p99, b.p99, (x) => `${x.toFixed(1)} ms`);
      }
    }
  }
  for (const m of misses) checks.push({ ok: false, what: m });

  console.log('\ngoals:');
  for (const c of checks) console.log(`  ${c.ok ? 'ok  ' : 'MISS'} ${c.what}`);
  for (const n of notes) console.log(`  note: ${n}`);
  const failed = checks.filter((c) => !c.ok);
  if (failed.length > 0) {
    console.error(`\nFAIL: ${failed.length} goal(s) missed`);
    process.exitCode = 1;
  } else console.log('\nOK: all goals met');
}

try {
  await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanup();
}
