// The Library page at scale: GET /api/library paged (limit=100, with sort, filters and offsets)
// against the whole answer, at 1,000,000 indexed files by default (`--files <n>`). The index is
// written straight from generated items, not scanned from disk (bench/library.bench.ts measures the
// scan; a million files on disk would take this bench from seconds to many minutes), then a fresh
// bundled API (as `pnpm start:api` runs it) reads it like any index a worker wrote.
//
// Per route: the first answer (cold: what the API builds from the index the first time it is asked
// after start, for a paged answer the catalog and that sort's order; later indexes are rebuilt
// before they replace the one served, so only a just-started API makes a page wait for it); then
// alone, one client asking BENCH_ALONE (20) times in a row, the time one person's page waits;
// then BENCH_CONCURRENCY (20) closed-loop keep-alive clients for BENCH_REQUESTS (500, at most
// BENCH_SECONDS = 10 s). Ratios are against the whole answer in the same run.
//
// Goal (exit 1 when missed): "under a second to interactive": each paged route's p50 alone, and its
// p99 under load, under 1,000 ms. The whole answer also has to be parsed by the browser (tens of
// megabytes of JSON at a million files), which a page of 100 titles spares it.
//
// Run: pnpm bench library-page [--files 1000000]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IndexItem } from '@mo/shared';
import { openDataDir, openIndexWriter } from '@mo/core';
import { buildApps, startProcess, waitFor, writeTestKey, type RunningProcess } from '@mo/test-support/service';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { closedLoop, get } from './support/http-load.ts';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const MAX_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ALONE = Number(process.env.BENCH_ALONE ?? 20);
const GOAL_MS = 1000;
const MOVIE_FILES = 3;
const EPISODES_PER_SEASON = 10;
const SEASONS = 5;

function filesWanted(): number {
  const argv = process.argv.slice(2);
  const i = argv.findIndex((a) => a === '--files' || a.startsWith('--files='));
  if (i === -1) return 1_000_000;
  const raw = argv[i]!.includes('=') ? argv[i]!.split('=')[1]! : argv[i + 1]!;
  const n = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < 1000) throw new Error(`--files: ${raw} is not a whole number of files ≥ 1000`);
  return n;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** Half the files in movies (a video, a subtitle, a poster or an nfo), half in series of 50 episodes; two drives. */
async function writeIndex(dataDir: string, root: string, files: number): Promise<{ movies: number; series: number }> {
  const writer = await openIndexWriter(openDataDir(dataDir).index().file);
  const drives = ['disk1', 'disk2'].map((name) => ({ name, path: join(root, name) }));
  const base = { season: null, episodes: [] as number[], air_date: null, extra: false, nfo: null };
  let written = 0;
  let movies = 0;
  let series = 0;
  const add = (item: IndexItem) => {
    writer.add(item);
    written++;
  };
  while (written < files / 2) {
    const drive = drives[movies % 2]!;
    const rootDir = `${drive.path}/Movies`;
    const title = `Film ${movies}`;
    const folder = `${rootDir}/${title} (${1950 + (movies % 70)})`;
    const at = { drive: drive.name, section: 'movies' as const, root: rootDir, folder, title, year: 1950 + (movies % 70), mtime_ms: 1.6e12 + movies * 1000 };
    add({ ...base, ...at, path: `${folder}/${title}.mkv`, bytes: 1e9 + ((movies * 7919) % 1e9), ext: '.mkv', type: 'video' });
    for (let k = 1; k < MOVIE_FILES; k++) {
      const [name, ext, type] =
        movies % 3 === 0
          ? [`${title}.en.srt`, '.srt', 'subtitle' as const]
          : k === 1
            ? ['poster.jpg', '.jpg', 'other' as const]
            : [`${title}.nfo`, '.nfo', 'nfo' as const];
      add({ ...base, ...at, path: `${folder}/${k === 1 ? name : `${k}-${name}`}`, bytes: 50_000, ext, type });
    }
    movies++;
  }
  while (written < files) {
    const drive = drives[series % 2]!;
    const rootDir = `${drive.path}/TV`;
    const title = `Show ${series}`;
    const folder = `${rootDir}/${title}`;
    const at = { drive: drive.name, section: 'tv' as const, root: rootDir, folder, title, year: null, mtime_ms: 1.6e12 + series * 5000 };
    for (let s = 1; s <= SEASONS && written < files; s++) {
      for (let e = 1; e <= EPISODES_PER_SEASON && written < files; e++) {
        // Every seventh show skips its third episodes: the gaps missing=episodes finds.
        if (series % 7 === 0 && e === 3) continue;
        const name = `${title} - S0${s}E${String(e).padStart(2, '0')}.mkv`;
        add({ ...base, ...at, path: `${folder}/Season ${s}/${name}`, bytes: 5e8 + e, ext: '.mkv', type: 'video', season: s, episodes: [e] });
      }
    }
    series++;
  }
  await writer.finish({ version: 1, scanned_at: new Date().toISOString(), duration_ms: 0, truncated: false, timed_out: false, skipped: [], drives });
  return { movies, series };
}

async function main(): Promise<void> {
  const files = filesWanted();
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${int(files)} indexed files`,
  );
  buildApps();
  const root = mkdtempSync(join(tmpdir(), 'mo-page-'));
  const redisUrl = testRedisUrl();
  const prefix = uniquePrefix('bench');
  let api: RunningProcess | undefined;
  try {
    const dataDir = join(root, 'data');
    for (const d of ['data', 'config', 'downloads', 'disk1', 'disk2']) mkdirSync(join(root, d), { recursive: true });
    await writeTestKey(dataDir);
    const t0 = performance.now();
    const lib = await writeIndex(dataDir, root, files);
    console.log(`index: ${int(lib.movies)} movies, ${int(lib.series)} series, written in ${(performance.now() - t0).toFixed(0)} ms`);
    const configFile = join(root, 'config', 'config.toml');
    writeFileSync(
      configFile,
      `[paths]\ndownloads = "${join(root, 'downloads')}"\nconfig = "${join(root, 'config')}"\ndata = "${dataDir}"\n\n[app]\nscan_interval_seconds = 0\n\n` +
        ['disk1', 'disk2'].map((d) => `[[drives]]\nname = "${d}"\npath = "${join(root, d)}"\n`).join('\n'),
    );
    const port = await freePort();
    const host = '127.0.0.1';
    api = startProcess(
      'api',
      { MEDIA_ORGANIZER_CONFIG: configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: host },
      { built: true },
    );
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    await waitFor(async () => (await get(agent, host, port, '/api/ready')).status === 200, 60_000, 'the API to be ready');

    const routes = [
      '/api/library',
      '/api/library?limit=100',
      '/api/library?limit=100&offset=100',
      '/api/library?limit=100&sort=size',
      `/api/library?limit=100&sort=added&offset=${Math.floor(lib.movies / 2)}`,
      '/api/library?limit=100&q=film%2012&drive=disk2&missing=subtitles',
      '/api/library?kind=series&limit=100&missing=episodes&sort=title&order=desc',
    ];
    const rows: { path: string; first: number; bytes: number; alone: number; p50: number; p99: number; rps: number; bad: number }[] = [];
    for (const path of routes) {
      const first = await get(agent, host, port, path);
      if (first.status !== 200) throw new Error(`${path} answered ${first.status}`);
      const alone: number[] = [];
      for (let i = 0; i < ALONE; i++) alone.push((await get(agent, host, port, path)).ms);
      alone.sort((a, b) => a - b);
      const load = await closedLoop({ host, port, path, concurrency: CONCURRENCY, requests: REQUESTS, maxSeconds: MAX_SECONDS, agent });
      const bad = load.errors + Object.values(load.statuses).reduce((a, b) => a + b, 0);
      rows.push({ path, first: first.ms, bytes: first.bytes, alone: alone[Math.floor(alone.length / 2)]!, p50: load.p50, p99: load.p99, rps: load.rps, bad });
    }
    agent.destroy();
    const whole = rows[0]!;
    console.log('\n| route | first (cold) | body (wire) | alone p50 | ÷ whole | load req/s | load p50 | load p99 | ÷ whole (p50) |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      const body = r.bytes >= 10_240 ? `${(r.bytes / 1024).toFixed(0)} KB` : `${int(r.bytes)} B`;
      console.log(
        `| ${r.path.replace('/api/', '')} | ${ms(r.first)} | ${body} | ${ms(r.alone)} | ${(r.alone / whole.alone).toFixed(3)}× | ${int(r.rps)} | ` +
          `${ms(r.p50)} | ${ms(r.p99)} | ${(r.p50 / whole.p50).toFixed(3)}× |`,
      );
    }
    const misses = rows
      .slice(1)
      .flatMap((r) => [
        ...(r.alone < GOAL_MS ? [] : [`${r.path}: p50 alone ${ms(r.alone)} ≥ ${GOAL_MS} ms`]),
        ...(r.p99 < GOAL_MS ? [] : [`${r.path}: p99 under load ${ms(r.p99)} ≥ ${GOAL_MS} ms`]),
        ...(r.bad === 0 ? [] : [`${r.path}: ${r.bad} non-200 answers or errors`]),
      ]);
    if (misses.length > 0) {
      console.error(`\nMISS:\n  ${misses.join('\n  ')}`);
      process.exitCode = 1;
    } else console.log(`\nOK: every paged answer, alone and under load, under ${GOAL_MS} ms at ${int(files)} files`);
  } finally {
    await api?.stop();
    await dropPrefix(redisUrl, prefix).catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
}
