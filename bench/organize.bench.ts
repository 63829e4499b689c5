// The organize preview at scale (issue 31 item 5, the preview half): GET /api/library/organize on a
// generated library of 100,000 files (`--files <n>` to change) over two drives of movie and series
// folders with subtitles beside their videos, where one video in ten is misnamed in a way the
// planner renames (bench/support/organize-library.ts). Fresh bundled API and worker processes (as
// `pnpm start:api` and `pnpm start:worker` run them, own QUEUE_PREFIX, the config's defaults but
// for the drives and no periodic scan), and:
//
//  - find: `find <library folders> -type f` over the same files, run twice (the page cache cannot
//    be dropped here; the first run warms it) and the second reported: the baseline of the ratios.
//  - scan, then a rescan with nothing changed before the preview was ever asked for.
//  - cold: the first GET /api/library/organize after the scan, which reads the index and plans.
//  - warm: BENCH_WARM (20) GETs in a row, one at a time; their median (the answer kept until the
//    next index).
//  - rescan with the preview asked for: a new index rebuilds what was asked since the last one
//    before it is served, so the preview's planning moves into the scan's answer; beside the
//    rescan before it, and the first GET after it.
//  - RSS from /proc/<pid>/status: the API's and the worker's before and after the preview, the
//    API's peak sampled every 5 ms while the cold GET ran, and each process's VmHWM.
//  - the answer: its size plain and gzipped (as a browser gets it), the renames counted by kind and
//    checked one by one against those the generator says it misnamed (exit 1 when they differ).
//
//  - apply: POST /api/library/organize with every rename (dry run off), waited for; the worker's and
//    the API's peak RSS sampled while it ran; the answer checked (every rename carried out, none
//    skipped) and the disk too (every `to` there, every `from` gone).
//  - mv: the same renames taken back by a shell loop of `mv -n` (one process per rename, the
//    folders first), the baseline of the apply's ratio.
//
// No goals on time: the figures are a record.
//
// Run: pnpm bench organize [--files 100000]
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { buildApps, writeTestKey, type RunningProcess } from '@mo/test-support/service';
import { freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { get } from './support/http-load.ts';
import { memoryOf, requestJson, runFind, startService, stopService } from './support/service-processes.ts';
import { generateOrganizeLibrary } from './support/organize-library.ts';

const WARM = Number(process.env.BENCH_WARM ?? 20);
const SCAN_WAIT_SECONDS = 300;
const SAMPLE_MS = 5;

function filesWanted(): number {
  const argv = process.argv.slice(2);
  let raw: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--files' && argv[i + 1] !== undefined) raw = argv[++i];
    else if (argv[i]!.startsWith('--files=')) raw = argv[i]!.slice('--files='.length);
    else throw new Error(`unknown argument ${argv[i]}; known: --files <n>`);
  }
  if (raw === undefined) return 100_000;
  const n = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < 100) throw new Error(`--files: ${raw} is not a whole number of files ≥ 100`);
  return n;
}

const now = () => performance.now();
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(1)} ms`);
const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
const size = (bytes: number) => (bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${(bytes / 1024).toFixed(0)} KB`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The highest VmRSS of `pid` seen every SAMPLE_MS while `work` runs. */
async function peakWhile<T>(pid: number, work: () => Promise<T>): Promise<{ value: T; peak: number }> {
  let peak = memoryOf(pid).rss;
  const timer = setInterval(() => (peak = Math.max(peak, memoryOf(pid).rss)), SAMPLE_MS);
  try {
    const value = await work();
    return { value, peak: Math.max(peak, memoryOf(pid).rss) };
  } finally {
    clearInterval(timer);
  }
}

/** `sh` quoting: the whole word in single quotes. */
const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The renames carried out again by `mv -n`, one process each, in the order given, from one shell script. */
function runMv(dir: string, moves: readonly { from: string; to: string }[]): Promise<{ ms: number }> {
  const script = join(dir, 'mv.sh');
  writeFileSync(script, `set -e\n${moves.map((m) => `mv -n -- ${shq(m.from)} ${shq(m.to)}`).join('\n')}\n`);
  return new Promise((resolve, reject) => {
    const t0 = now();
    const p = spawn('sh', [script], { stdio: ['ignore', 'inherit', 'inherit'] });
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve({ ms: now() - t0 }) : reject(new Error(`the mv loop exited with ${code}`))));
  });
}

let root: string | undefined;
const running: RunningProcess[] = [];
const redisUrl = testRedisUrl();
const prefix = uniquePrefix('bench');

async function cleanup(): Promise<void> {
  await stopService(running, redisUrl, [prefix]);
  if (root) {
    const r = root;
    root = undefined;
    rmSync(r, { recursive: true, force: true });
  }
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    console.error(`\n${sig}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

async function main(): Promise<void> {
  const files = filesWanted();
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GB, load average ${load()} ` +
      `(other work on it colours every figure); ${int(files)} files`,
  );
  buildApps();
  // A short path, about as long as real ones: every rename carries two absolute paths.
  root = mkdtempSync(join(tmpdir(), 'mo-org-'));
  const t0 = now();
  const lib = generateOrganizeLibrary(root, files);
  console.log(
    `library: ${int(lib.files)} files in ${int(lib.folders)} folders over ${lib.drives.length} drives (${int(lib.movies)} movies, ` +
      `${int(lib.series)} series, ${int(lib.videos)} videos, ${int(lib.misnamedVideos)} of them misnamed); written in ${ms(now() - t0)}`,
  );

  const dataDir = join(root, 'data');
  const configDir = join(root, 'config');
  const downloadsDir = join(root, 'downloads');
  for (const d of [dataDir, configDir, downloadsDir]) mkdirSync(d, { recursive: true });
  await writeTestKey(dataDir);
  const configFile = join(configDir, 'config.toml');
  writeFileSync(
    configFile,
    `[paths]\ndownloads = "${downloadsDir}"\nconfig = "${configDir}"\ndata = "${dataDir}"\n\n` +
      `[app]\ndry_run = false\nwatch = false\nscan_interval_seconds = 0\n${files > 500_000 ? `library_scan_max_files = ${files * 2}\n` : ''}\n` +
      lib.drives.map((d) => `[[drives]]\nname = "${d.name}"\npath = "${d.path}"\n`).join('\n'),
  );

  const port = await freePort();
  const host = '127.0.0.1';
  const env = { MEDIA_ORGANIZER_CONFIG: configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: host };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const { api, worker } = await startService(env, agent, running);
  const apiPid = api.proc.pid!;
  const workerPid = worker.proc.pid!;
  const idle = { api: memoryOf(apiPid), worker: memoryOf(workerPid) };

  await runFind(lib.libraryRoots);
  const find = await runFind(lib.libraryRoots);

  const scan = async (what: string) => {
    const r = await requestJson(agent, host, port, 'POST', `/api/library/scan?wait=${SCAN_WAIT_SECONDS}`);
    if (r.status !== 200) {
      console.error(worker.output().slice(-4000));
      throw new Error(`${what}: POST /api/library/scan answered ${r.status}: ${r.body.slice(0, 500)}`);
    }
    const summary = (JSON.parse(r.body) as { summary: { files: number; truncated: boolean; timed_out: boolean } }).summary;
    if (summary.truncated || summary.timed_out) throw new Error(`${what} was ${summary.truncated ? 'truncated' : 'timed out'}`);
    if (summary.files !== lib.files) throw new Error(`${what} indexed ${int(summary.files)} files; the library holds ${int(lib.files)}`);
    return r.ms;
  };
  const scanMs = await scan('the scan');
  const rescanMs = await scan('the rescan');
  const before = { api: memoryOf(apiPid), worker: memoryOf(workerPid) };

  const path = '/api/library/organize';
  const cold = await peakWhile(apiPid, () => get(agent, host, port, path));
  if (cold.value.status !== 200) throw new Error(`GET ${path} answered ${cold.value.status}`);
  const afterCold = memoryOf(apiPid);
  const whole = await requestJson(agent, host, port, 'GET', path);
  const warm: number[] = [];
  for (let i = 0; i < WARM; i++) warm.push((await get(agent, host, port, path)).ms);
  const after = { api: memoryOf(apiPid), worker: memoryOf(workerPid) };
  const rescanAskedMs = await scan('the rescan with the preview asked for');
  const afterRescan = await get(agent, host, port, path);
  const end = { api: memoryOf(apiPid), worker: memoryOf(workerPid) };
  const { renames } = JSON.parse(whole.body) as { renames: { from: string; to: string; kind: string }[] };

  // ---- The apply, then the same renames by mv --------------------------------------------------
  const applyBefore = { api: memoryOf(apiPid), worker: memoryOf(workerPid) };
  let apiPeak = applyBefore.api.rss;
  const apiTimer = setInterval(() => (apiPeak = Math.max(apiPeak, memoryOf(apiPid).rss)), SAMPLE_MS);
  const applied = await peakWhile(workerPid, () => requestJson(agent, host, port, 'POST', `${path}?wait=${SCAN_WAIT_SECONDS}`, '{}')).finally(() =>
    clearInterval(apiTimer),
  );
  const applyAfter = { api: memoryOf(apiPid), worker: memoryOf(workerPid) };
  agent.destroy();
  if (applied.value.status !== 200) throw new Error(`POST ${path} answered ${applied.value.status}: ${applied.value.body.slice(0, 500)}`);
  const result = JSON.parse(applied.value.body) as { renamed: { from: string; to: string }[]; skipped: { from: string; reason: string }[] };
  // A file's `to` is under its folder's old name; where the folder was renamed after it, the file is under the new one.
  const folders = new Map(renames.filter((r) => r.kind === 'folder').map((r) => [r.from, r.to]));
  const finalPath = (p: string) => {
    for (let dir = dirname(p); dir !== '/' && dir !== '.'; dir = dirname(dir)) {
      const to = folders.get(dir);
      if (to !== undefined) return to + p.slice(dir.length);
    }
    return p;
  };
  const notOnDisk = renames.filter((r) => !existsSync(finalPath(r.to)) || existsSync(finalPath(r.from)));
  // Taken back in reverse: each folder to its old name first, then its files under it.
  const mv = await runMv(
    root!,
    [...renames].reverse().map((r) => ({ from: r.to, to: r.from })),
  );

  // ---- The answer against what was generated ---------------------------------------------------
  const kinds = new Map<string, number>();
  for (const r of renames) kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
  const proposed = new Map(renames.map((r) => [r.from, r.to]));
  const missing = [...lib.expected].filter(([from, to]) => proposed.get(from) !== to);
  const extra = renames.filter((r) => lib.expected.get(r.from) !== r.to);

  console.log(
    `\nrenames: ${int(renames.length)} proposed (${[...kinds].map(([k, n]) => `${int(n)} ${k}`).join(', ')}); ` +
      `${int(lib.expected.size)} generated (${int(lib.misnamedVideos)} misnamed videos of ${int(lib.videos)}, their subtitles, ` +
      `and the release-named movie folders); ${missing.length} generated but not proposed, ${extra.length} proposed but not generated`,
  );
  for (const [from, to] of missing.slice(0, 5)) console.log(`  not proposed: ${from} → ${to} (proposed: ${proposed.get(from) ?? 'nothing'})`);
  for (const r of extra.slice(0, 5)) console.log(`  not generated: ${r.from} → ${r.to}`);
  console.log(`answer: ${size(Buffer.byteLength(whole.body))} plain, ${size(cold.value.bytes)} gzipped (as a browser gets it)`);

  console.log(`\nload average now ${load()}\n`);
  console.log('| step | time | ÷ find |');
  console.log('|---|---:|---:|');
  const row = (what: string, t: number) => console.log(`| ${what} | ${ms(t)} | ${(t / find.ms).toFixed(t < find.ms / 10 ? 3 : 1)}× |`);
  row(`find -type f over the library folders (${int(find.lines)} lines)`, find.ms);
  row('scan (request to answer)', scanMs);
  row('rescan, nothing changed, preview never asked for', rescanMs);
  row('GET /api/library/organize, first after the scan (cold)', cold.value.ms);
  row(`GET /api/library/organize, median of ${WARM} after it (warm)`, median(warm));
  row('rescan, nothing changed, preview asked for (rebuilt with the index)', rescanAskedMs);
  row('GET /api/library/organize, first after that rescan', afterRescan.ms);

  console.log('\n| process | idle | before the preview | peak during the cold GET | after the preview | after the last rescan | VmHWM at the end |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  console.log(
    `| API | ${mb(idle.api.rss)} | ${mb(before.api.rss)} | ${mb(cold.peak)} (VmHWM ${mb(before.api.hwm)} → ${mb(afterCold.hwm)}) | ` +
      `${mb(after.api.rss)} | ${mb(end.api.rss)} | ${mb(end.api.hwm)} |`,
  );
  console.log(`| worker | ${mb(idle.worker.rss)} | ${mb(before.worker.rss)} | | ${mb(after.worker.rss)} | ${mb(end.worker.rss)} | ${mb(end.worker.hwm)} |`);

  console.log('\n| apply | time | ÷ mv |');
  console.log('|---|---:|---:|');
  console.log(`| the same ${int(renames.length)} renames by a shell loop of \`mv -n\` | ${ms(mv.ms)} | 1.0× |`);
  console.log(`| POST /api/library/organize, every rename, waited for | ${ms(applied.value.ms)} | ${(applied.value.ms / mv.ms).toFixed(2)}× |`);
  console.log(
    `\napply: ${int(result.renamed.length)} renamed, ${int(result.skipped.length)} skipped; RSS API ${mb(applyBefore.api.rss)} → peak ${mb(apiPeak)} → ${mb(applyAfter.api.rss)}, ` +
      `worker ${mb(applyBefore.worker.rss)} → peak ${mb(applied.peak)} → ${mb(applyAfter.worker.rss)} (VmHWM ${mb(applyAfter.worker.hwm)})`,
  );
  for (const s of result.skipped.slice(0, 5)) console.log(`  skipped: ${s.from}: ${s.reason}`);
  for (const r of notOnDisk.slice(0, 5)) console.log(`  not on disk as renamed: ${r.from} → ${r.to}`);

  if (find.lines !== lib.files) console.log(`\nnote: find printed ${int(find.lines)} lines for ${int(lib.files)} files`);
  if (result.renamed.length !== renames.length || result.skipped.length > 0 || notOnDisk.length > 0) {
    console.error('\nFAIL: the apply did not carry out every rename proposed');
    process.exitCode = 1;
  }
  if (missing.length > 0 || extra.length > 0) {
    console.error('\nFAIL: the renames proposed are not those generated');
    process.exitCode = 1;
  } else console.log(`\nOK: every one of the ${int(lib.expected.size)} renames generated was proposed, and nothing else`);
}

try {
  await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanup();
}
