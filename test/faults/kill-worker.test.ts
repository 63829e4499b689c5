// SIGKILL at random moments: real worker processes (the production bundle) killed during a
// cross-filesystem move, a remux, a transcode, and a state.json write. After every kill the
// originals are checked byte for byte; the killed job must be retried by the next worker or end
// failed with a reason; once a job has completed nothing temporary may be left.
//
// Time: what a dead worker leaves that only time clears (its BullMQ lock, 30 s; the stalled-check
// throttle, 30 s; its lockfiles, stale after 10 s) is aged at once after each kill (see
// fastForwardStalls and ageLocks), so that 25 kills per kind fit in about a minute. The recovery
// itself is the service's own code. The last kill of the move kind is left to BullMQ's own timers.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeFile, muxerFor, streamsAfter, sameStreams, type MediaStream } from '@mo/core/media';
import { makeClip } from '@mo/core/test-fixtures';
import { stateSchema } from '@mo/shared';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { buildApps, REPO_ROOT, startProcess, tempInstall, waitFor, type RunningProcess, type TempInstall } from '@mo/test-support/service';
import { ageLocks, filesIn, findLeftovers, sha256, sha256OrNull } from './support/files.ts';
import { json, send } from './support/http.ts';
import { jobRecord, sleep } from './support/jobs.ts';
import { crossFilesystem, killInstall } from './support/cross-fs.ts';
import { jobCounts, runKillTrials, type Check, type KindSpec, type Settled, type TrialStats } from './support/kill-trials.ts';
import { rng, suiteSeed } from '@mo/test-support/prng';
import { Figures, percentile } from './support/report.ts';

const TRIALS = Number(process.env.FAULTS_KILL_TRIALS ?? 26);
const MOVE_MB = Number(process.env.FAULTS_MOVE_MB ?? 48);
const seed = suiteSeed();
const figures = new Figures('kill-worker');
const redisUrl = testRedisUrl();
const prefixes: string[] = [];
const running: RunningProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
const OLD = new Date('2024-05-01T12:00:00.000Z');
const pad = (n: number) => String(n).padStart(2, '0');

async function startApi(configFile: string, prefix: string): Promise<{ api: RunningProcess; port: number }> {
  const port = await freePort();
  const api = startProcess(
    'api',
    { MEDIA_ORGANIZER_CONFIG: configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: '127.0.0.1' },
    { built: true },
  );
  running.push(api);
  await waitFor(async () => (await send(port, 'GET', '/api/ready')).status === 200, 30_000, 'the api');
  return { api, port };
}

function report(kind: string, s: TrialStats) {
  const j = jobCounts(s);
  const d = [...s.delays].sort((a, b) => a - b);
  figures.set(`${kind}: trials (kills)`, s.trials);
  figures.set(`${kind}: first-attempt kills / retry kills`, `${s.firstAttemptKills} / ${s.retryKills}`);
  figures.set(`${kind}: calibration job (ms) / kill window (ms)`, `${s.calibrationMs} / ${s.delayWindowMs.join('–')}`);
  figures.set(`${kind}: kill delay p50 (ms)`, d.length ? percentile(d, 50) : 0);
  figures.set(`${kind}: state at kill`, JSON.stringify(s.phases));
  figures.set(`${kind}: originals lost`, s.lost.size);
  figures.set(`${kind}: originals changed`, s.changed.size);
  figures.set(`${kind}: unmet after the job ended`, s.unsettled.size);
  figures.set(`${kind}: leftovers after the next completed job`, s.leftovers.length);
  figures.set(`${kind}: jobs completed / failed with reason / lost`, `${j.completed} / ${j.failedWithReason} / ${j.lost}`);
  if (j.reasons.length) figures.set(`${kind}: failure reasons`, j.reasons.join(' | '));
  const others = [...s.jobs].filter(([, x]) => x.state !== 'completed').map(([id, x]) => `${id}=${x.state}${x.error ? '' : ' (no reason)'}`);
  if (others.length) figures.set(`${kind}: jobs not completed`, others.join(', '));
  if (s.naturalRecoveryMs !== null) figures.set(`${kind}: natural stall recovery of the last kill (s)`, Math.round(s.naturalRecoveryMs / 100) / 10);
}

function expectClean(s: TrialStats) {
  const j = jobCounts(s);
  expect({ lost: [...s.lost], changed: [...s.changed], unsettled: [...s.unsettled], leftovers: s.leftovers, details: s.details }).toEqual({
    lost: [],
    changed: [],
    unsettled: [],
    leftovers: [],
    details: [],
  });
  expect(j.lost).toBe(0);
  // Most kills must land in a first attempt, the rest in a retry: 20 of the 25 kills by default.
  expect(s.firstAttemptKills).toBeGreaterThanOrEqual(Math.floor(s.trials * 0.8));
}

beforeAll(() => buildApps(), 120_000);

afterAll(async () => {
  figures.print();
  for (const p of running) await p.stop('SIGKILL');
  for (const c of cleanups) await c();
  for (const p of prefixes) await dropPrefix(redisUrl, p);
});

// ---------------------------------------------------------------------------------------------
// (a) a cross-filesystem move

const { shm, disk, skip: moveSkip, cleanup } = crossFilesystem('move', 'move kill trials');
cleanups.push(cleanup);

// In hardlink mode a link cannot cross filesystems: like copy mode, a verified copy that keeps the download.
describe.skipIf(moveSkip !== null).each(['move', 'hardlink', 'copy'] as const)(
  'SIGKILL during a cross-filesystem %s (downloads on tmpfs, drive on disk)',
  (transfer) => {
    const keeps = transfer !== 'move';
    const kind = transfer === 'move' ? 'move' : `${transfer} (copy across)`;
    // Half as many for the modes that share move's copy path (its journal, its recovery): enough to
    // land kills in each window while keeping the suite's run time in bounds.
    const trials = transfer === 'move' ? TRIALS : Math.ceil(TRIALS / 2);
    it(`${trials - 1} kills of scanner passes importing ${MOVE_MB} MiB files: nothing lost, each file once at its destination${keeps ? ', the download kept' : ''}, imported once, no temp left`, async () => {
      const root = { shm: join(shm, transfer), disk: join(disk, transfer) };
      const { paths, configFile } = await killInstall({ shm: root.shm, disk: root.disk }, transfer);
      const prefix = uniquePrefix(`k${transfer}`);
      prefixes.push(prefix);
      const { port } = await startApi(configFile, prefix);
      const NATO =
        'Alpha Bravo Charlie Delta Echo Foxtrot Golf Hotel India Juliett Kilo Lima Mike November Oscar Papa Quebec Romeo Sierra Tango Uniform Victor Whiskey Xray Yankee Zulu'.split(
          ' ',
        );
      const COLOURS = ['Red', 'Green', 'Blue'];
      interface Original {
        source: string;
        dest: string;
        hash: string;
      }
      const originals = new Map<number, Original[]>();

      const spec: KindSpec = {
        name: kind,
        queue: 'scan',
        port,
        redisUrl,
        prefix,
        workerEnv: { MEDIA_ORGANIZER_CONFIG: configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, WORKER_QUEUES: 'scan' },
        async prepare(i) {
          const list: Original[] = [];
          for (const colour of COLOURS) {
            const title = `${NATO[i % NATO.length]}${i >= NATO.length ? ` ${Math.floor(i / NATO.length)}` : ''} ${colour} Faultmove`;
            const year = 1990 + (i % 30);
            const stem = `${title.replace(/ /g, '.')}.${year}.1080p.BluRay.x264-FLT`;
            const folder = join(paths.downloads, stem);
            await mkdir(folder, { recursive: true });
            const destDir = join(paths.drive, 'Movies', `${title} (${year})`);
            for (const [ext, bytes] of [
              ['.mkv', randomBytes(MOVE_MB * 1024 * 1024)],
              ['.en.srt', randomBytes(2048)],
            ] as const) {
              const source = join(folder, `${stem}${ext}`);
              await writeFile(source, bytes);
              await utimes(source, OLD, OLD);
              list.push({ source, dest: join(destDir, `${title} (${year})${ext}`), hash: await sha256(source) });
            }
          }
          originals.set(i, list);
        },
        async submit() {
          const r = await send(port, 'POST', '/api/scan?wait=0');
          if (r.status !== 202 && r.status !== 200) throw new Error(`POST /api/scan: ${r.status} ${r.text}`);
          return String(json(r).job?.id ?? json(r).id);
        },
        async check(i, settled: Settled): Promise<Check> {
          const c: Check = { lost: [], changed: [], unsettled: [], phases: [] };
          for (const o of originals.get(i) ?? []) {
            const [src, dst] = await Promise.all([sha256OrNull(o.source), sha256OrNull(o.dest)]);
            if (src !== o.hash && dst !== o.hash) c.lost.push(o.source);
            if ((src !== null && src !== o.hash) || (dst !== null && dst !== o.hash)) c.changed.push(o.source);
            if (keeps && src !== o.hash) c.lost.push(`${o.source} (the download ${transfer} mode keeps)`);
            if (settled === null && o.source.endsWith('.mkv')) {
              const partial = (await readdir(dirname(o.dest)).catch(() => [] as string[])).some((n) => n.startsWith('.mo-partial-'));
              c.phases!.push(dst !== null ? (keeps ? 'placed' : src !== null ? 'both names' : 'moved') : partial ? 'copying' : 'not started');
            }
            // A pass that completed imported everything, exactly once.
            if ((settled === 'completed' || settled === 'final') && !(dst === o.hash && (keeps ? src === o.hash : src === null)))
              c.unsettled!.push(`${o.source}: after a completed pass source=${src ? 'present' : 'gone'} destination=${dst ? 'present' : 'absent'}`);
            if (settled === 'final' && o.source.endsWith('.mkv')) {
              const h = await send(port, 'GET', `/api/history?limit=10&source=${encodeURIComponent(o.source)}`);
              const items = (json(h)?.items ?? []) as { destination: string; method: string; sidecars: unknown[] }[];
              // Across filesystems every mode copies.
              const want = 'copy';
              if (h.status !== 200 || items.length !== 1 || items[0]!.destination !== o.dest || items[0]!.method !== want || items[0]!.sidecars.length !== 1)
                c.unsettled!.push(
                  `${o.source}: the history holds ${h.status === 200 ? JSON.stringify(items).slice(0, 300) : `${h.status} ${h.text.slice(0, 200)}`}, not one ${want} with its sidecar`,
                );
            }
          }
          return c;
        },
        async leftovers() {
          const notes = (await Promise.all(['transfers', 'sidecars'].map((d) => filesIn(join(paths.data, 'scanner', d))))).flat().map((n) => `journal: ${n}`);
          return [...(await findLeftovers([paths.drive, paths.downloads, paths.data])), ...notes];
        },
        async afterKill() {
          await ageLocks([join(paths.data, 'scanner.lock'), join(paths.data, 'state.json.lock')]);
        },
        async finish() {
          const r = await send(port, 'POST', '/api/scan?wait=120', { timeoutMs: 130_000 });
          if (r.status !== 200) throw new Error(`the last pass: ${r.status} ${r.text.slice(0, 300)}`);
          const again = json(await send(port, 'POST', '/api/scan?wait=60', { timeoutMs: 70_000 }));
          if (again?.moves?.length !== 0 || again?.plans?.length !== 0)
            throw new Error(`a pass after the last one still had work: ${JSON.stringify(again).slice(0, 300)}`);
          // The downloads hold nothing but empty folders (move) or exactly the originals (hardlink, copy), and no lock is held.
          const left: string[] = [];
          const walk = async (d: string) => {
            for (const e of await readdir(d, { withFileTypes: true })) e.isDirectory() ? await walk(join(d, e.name)) : left.push(join(d, e.name));
          };
          await walk(paths.downloads);
          const kept = keeps ? [...originals.values()].flat().map((o) => o.source) : [];
          if (left.sort().join('\n') !== kept.sort().join('\n'))
            throw new Error(`the downloads hold ${left.length} files, expected ${kept.length}: ${left.filter((f) => !kept.includes(f)).join(', ')}`);
          for (const lock of ['scanner.lock', 'state.json.lock']) if (existsSync(join(paths.data, lock))) throw new Error(`${lock} is still held`);
          const state = stateSchema.safeParse(JSON.parse(await readFile(join(paths.data, 'state.json'), 'utf8')));
          if (!state.success) throw new Error(`state.json: ${state.error.message}`);
        },
      };
      const stats = await runKillTrials(spec, { trials, rng: rng(seed).fork(transfer), natural: transfer === 'move' });
      report(kind, stats);
      expectClean(stats);
    }, 600_000);
  },
);

// ---------------------------------------------------------------------------------------------
// (b) a remux, (c) a transcode

describe('SIGKILL during a remux and during a transcode', () => {
  let install: TempInstall;
  let port: number;
  let prefix: string;
  const tpl: Record<string, string> = {};
  let tplStreams: MediaStream[];
  let tplHash: Record<string, string>;

  beforeAll(async () => {
    install = await tempInstall('[app]\ndry_run = false\nscan_interval_seconds = 0\nwatch = false\n');
    cleanups.push(() => install.cleanup());
    const dir = join(install.root, 'templates');
    await mkdir(dir);
    tpl.mkv = join(dir, 'clip.mkv');
    tpl.avi = join(dir, 'clip.avi');
    await Promise.all([
      makeClip(tpl.mkv, { seconds: 90, size: '640x360', subtitles: true, chapters: true, attachment: true }),
      makeClip(tpl.avi, { seconds: 6, size: '320x240', video: 'mpeg4', audio: 'mp3' }),
    ]);
    tplStreams = (await probeFile(tpl.mkv)).streams;
    tplHash = { mkv: await sha256(tpl.mkv), avi: await sha256(tpl.avi) };
    prefix = uniquePrefix('kmedia');
    prefixes.push(prefix);
    ({ port } = await startApi(install.configFile, prefix));
  }, 120_000);

  it(`${TRIALS - 1} kills of remux jobs: the original is byte for byte itself or a verified remux, never anything else; no temp left`, async () => {
    const ACTIONS = [
      { action: 'remove', stream: 2 },
      { action: 'set_default', stream: 2 },
      { action: 'remove', stream: 4 },
      { action: 'set_default', stream: 4 },
    ] as const;
    const files = new Map<number, { file: string; req: (typeof ACTIONS)[number]; job?: string }>();
    const muxer = muxerFor('x.mkv')!;
    const spec: KindSpec = {
      name: 'remux',
      queue: 'media',
      port,
      redisUrl,
      prefix,
      workerEnv: { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, WORKER_QUEUES: 'media' },
      async prepare(i) {
        const file = join(install.paths.downloads, `Remux ${pad(i)}.mkv`);
        await copyFile(tpl.mkv!, file);
        files.set(i, { file, req: ACTIONS[i % ACTIONS.length]! });
      },
      async submit(i) {
        const f = files.get(i)!;
        const r = await send(port, 'POST', '/api/media/tracks?wait=0', {
          body: JSON.stringify({ path: f.file, ...f.req }),
          headers: { 'content-type': 'application/json' },
        });
        if (r.status !== 202) throw new Error(`POST /api/media/tracks: ${r.status} ${r.text}`);
        f.job = String(json(r).job.id);
        return f.job;
      },
      async check(i, settled) {
        const c: Check = { lost: [], changed: [], unsettled: [], phases: [] };
        const f = files.get(i);
        if (!f) return c;
        const hash = await sha256OrNull(f.file);
        let state: 'original' | 'remuxed' | 'other' | 'missing' = 'missing';
        if (hash === tplHash.mkv) state = 'original';
        else if (hash !== null) {
          const probe = await probeFile(f.file).catch(() => null);
          state = probe && sameStreams(probe.streams, streamsAfter(tplStreams, f.req, muxer), { positions: false }) ? 'remuxed' : 'other';
        }
        if (state === 'missing') c.lost.push(f.file);
        if (state === 'other') c.changed.push(f.file);
        if (settled === null) {
          const temp = (await readdir(install.paths.downloads)).some((n) => n.startsWith('.mo-remux-') && n.includes(basename(f.file)));
          c.phases!.push(state === 'remuxed' ? 'replaced' : temp ? 'temp written' : 'before temp');
        }
        let outcome = settled;
        if (settled === 'final') outcome = ((await jobRecord(port, 'media', f.job!))?.state ?? null) as Settled;
        if (outcome === 'completed' && state !== 'remuxed') c.unsettled!.push(`${f.file}: job completed but the file is ${state}`);
        return c;
      },
      async leftovers() {
        const notes = (await filesIn(join(install.paths.data, 'media-work'))).map((n) => `work journal: ${n}`);
        return [...(await findLeftovers([install.paths.downloads, install.paths.drive, install.paths.data])), ...notes];
      },
      async afterKill() {
        await ageLocks([join(install.paths.data, 'state.json.lock')]);
      },
    };
    const stats = await runKillTrials(spec, { trials: TRIALS, rng: rng(seed).fork('remux') });
    report('remux', stats);
    expectClean(stats);
  }, 600_000);

  it(`${TRIALS - 1} kills of transcode jobs (mpeg4/mp3 .avi → libx264 .mp4): the .avi survives until a verified .mp4 is in place; the queue entry tells the truth`, async () => {
    // Every file the trials will take, indexed once: run-next takes them in path order.
    const N = TRIALS;
    const sources: string[] = [];
    for (let i = 0; i < N; i++) {
      const folder = join(install.paths.drive, 'Movies', `T${pad(i)} Faulttrans (${2000 + i})`);
      await mkdir(folder, { recursive: true });
      const file = join(folder, `T${pad(i)} Faulttrans (${2000 + i}).avi`);
      await copyFile(tpl.avi!, file);
      sources.push(file);
    }
    const lib = startProcess(
      'worker',
      { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, WORKER_QUEUES: 'library' },
      { built: true },
    );
    running.push(lib);
    const scan = await send(port, 'POST', '/api/library/scan?wait=60', { timeoutMs: 70_000 });
    expect(scan.status, scan.text).toBe(200);
    await lib.stop('SIGTERM');
    const queue = async () =>
      (json(await send(port, 'GET', '/api/tools/transcoder'))?.queue ?? []) as { path: string; status: string; original: string | null }[];
    expect((await queue()).filter((e) => e.path.endsWith('.avi'))).toHaveLength(N);

    const srcDuration = (await probeFile(tpl.avi!)).duration_seconds ?? 6;
    const byTrial = new Map<number, { file: string; job: string }>();
    const mp4Ok = async (mp4: string) => {
      const p = await probeFile(mp4).catch(() => null);
      if (!p) return false;
      const v = p.streams.find((s) => s.type === 'video');
      return !!v && v.codec === 'h264' && p.streams.some((s) => s.type === 'audio') && Math.abs((p.duration_seconds ?? 0) - srcDuration) / srcDuration < 0.02;
    };
    const spec: KindSpec = {
      name: 'transcode',
      queue: 'transcode',
      port,
      redisUrl,
      prefix,
      workerEnv: { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, WORKER_QUEUES: 'transcode' },
      async prepare() {},
      async submit(i) {
        const r = await send(port, 'POST', '/api/tools/transcoder/run-next');
        if (r.status !== 202) throw new Error(`run-next: ${r.status} ${r.text}`);
        const body = json(r);
        byTrial.set(i, { file: body.item.path, job: String(body.job.id) });
        return String(body.job.id);
      },
      async check(i, settled) {
        const c: Check = { lost: [], changed: [], unsettled: [], phases: [] };
        const t = byTrial.get(i);
        if (!t) return c;
        const mp4 = t.file.replace(/\.avi$/, '.mp4');
        const orig = await sha256OrNull(t.file);
        const hasMp4 = existsSync(mp4);
        const good = hasMp4 && (await mp4Ok(mp4));
        if (orig !== tplHash.avi && !good) c.lost.push(t.file);
        if (orig !== null && orig !== tplHash.avi) c.changed.push(t.file);
        if (hasMp4 && !good) c.changed.push(mp4);
        if (settled === null) {
          const temp = (await readdir(dirname(t.file))).some((n) => n.startsWith('.mo-transcode-'));
          c.phases!.push(orig !== null && good ? 'mp4 placed, original kept' : good ? 'done' : temp ? 'encoding' : 'before temp');
        }
        let outcome = settled;
        if (settled === 'final') outcome = ((await jobRecord(port, 'transcode', t.job))?.state ?? null) as Settled;
        if (outcome === 'completed' || outcome === 'failed') {
          const want = outcome === 'completed' ? 'done' : 'failed';
          // A job BullMQ fails for stalling is recorded by whichever worker hears of it, a moment later.
          let entry = (await queue()).find((e) => e.path === t.file);
          for (const until = Date.now() + 5000; entry?.status !== want && Date.now() < until;) {
            await sleep(100);
            entry = (await queue()).find((e) => e.path === t.file);
          }
          // A job killed after its MP4 was verified, placed and recorded, then killed again on
          // delivery, fails for stalling: its entry rightly stays done.
          const doneBeforeFailing = outcome === 'failed' && entry?.status === 'done' && good;
          if (entry?.status !== want && !doneBeforeFailing)
            c.unsettled!.push(`${basename(t.file)}: job ${t.job} ${outcome}, but GET /api/tools/transcoder says "${entry?.status}"`);
          // A kill between recording the MP4 and removing the original leaves it, and the entry says kept.
          if (outcome === 'completed' && !good) c.unsettled!.push(`${basename(t.file)}: job completed, mp4 missing or bad`);
          if (entry?.status === 'done' && entry.original !== (orig === null ? 'removed' : 'kept')) {
            c.unsettled!.push(`${basename(t.file)}: entry says original ${entry.original}, but it is ${orig === null ? 'gone' : 'still there'}`);
          }
        }
        return c;
      },
      async leftovers() {
        const notes = (await filesIn(join(install.paths.data, 'media-work'))).map((n) => `work journal: ${n}`);
        return [...(await findLeftovers([install.paths.drive, install.paths.data])), ...notes];
      },
      async afterKill() {
        await ageLocks([join(install.paths.data, 'state.json.lock')]);
      },
    };
    const stats = await runKillTrials(spec, { trials: TRIALS, rng: rng(seed).fork('transcode') });
    report('transcode', stats);
    expectClean(stats);
  }, 600_000);
});

// ---------------------------------------------------------------------------------------------
// (d) a state.json write

describe('SIGKILL during a state.json write', () => {
  it(`${TRIALS - 1} writers killed mid-loop: state.json parses every time, the API keeps serving it and can write after, dead temps go`, async () => {
    const install = await tempInstall('[app]\nscan_interval_seconds = 0\nwatch = false\n');
    cleanups.push(() => install.cleanup());
    const stateFile = join(install.paths.data, 'state.json');
    const lock = `${stateFile}.lock`;
    // The writer, bundled like the apps so it starts in a few hundred ms.
    const bundle = join(install.root, 'state-hammer.mjs');
    await build({
      entryPoints: [join(REPO_ROOT, 'test/faults/support/state-hammer.ts')],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
      logLevel: 'warning',
    });
    const prefix = uniquePrefix('kstate');
    prefixes.push(prefix);
    const { port } = await startApi(install.configFile, prefix);
    const r = rng(seed).fork('state');
    const spawnWriter = async (mode?: string) => {
      const proc = spawn(process.execPath, [bundle, install.configFile, ...(mode ? [mode] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      proc.stdout.on('data', (d) => (out += d));
      proc.stderr.on('data', (d) => (out += d));
      const exited = new Promise<void>((res) => proc.once('exit', () => res()));
      await waitFor(
        async () => {
          if (proc.exitCode !== null && !out.includes('ready')) throw new Error(`writer exited: ${out}`);
          return out.includes('ready');
        },
        20_000,
        'the writer',
      );
      return { proc, exited, output: () => out };
    };
    const deadTemps = async (alive: number[]) =>
      (await readdir(install.paths.data)).filter((n) => /^\.state\.json\.(\d+)\.[0-9a-z]+\.tmp$/.test(n) && !alive.includes(Number(/\.(\d+)\./.exec(n)![1])));

    // The API reads state.json all along (it re-reads on every change): it must never fail.
    let reads = 0;
    let readErrors = 0;
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const a = await send(port, 'GET', '/api/config');
        reads++;
        if (a.status !== 200 || typeof json(a)?.app?.settle_seconds !== 'number') readErrors++;
        await sleep(10);
      }
    })();

    const stats = {
      kills: 0,
      midWrite: 0,
      lockHeld: 0,
      torn: 0,
      inconsistent: 0,
      leftover: 0,
      apiWriteFailures: 0,
      apiWriteMs: [] as number[],
      delays: [] as number[],
    };
    const problems: string[] = [];
    try {
      for (let i = 0; i < TRIALS - 1; i++) {
        const w = await spawnWriter();
        // The previous writer's temps are removed by this one's first update (under the lock).
        const left = await deadTemps([w.proc.pid!]);
        if (left.length) {
          stats.leftover += left.length;
          problems.push(`trial ${i}: temps of dead writers after the next writer's first update: ${left.join(', ')}`);
        }
        const d = r.int(50, 1500);
        stats.delays.push(d);
        await sleep(d);
        w.proc.kill('SIGKILL');
        await w.exited;
        stats.kills++;
        const names = await readdir(install.paths.data);
        if (names.some((n) => n.startsWith('.state.json.') && n.endsWith('.tmp'))) stats.midWrite++;
        if (existsSync(lock)) stats.lockHeld++;
        try {
          const state = stateSchema.parse(JSON.parse(await readFile(stateFile, 'utf8')));
          const top = state.recent[0];
          if (top?.source.startsWith('/hammer/') && Number(top.source.split('#')[1]) !== state.settings.app?.settle_seconds) {
            stats.inconsistent++;
            problems.push(`trial ${i}: settle_seconds ${state.settings.app?.settle_seconds} but the newest entry says ${top.source}`);
          }
        } catch (err) {
          stats.torn++;
          problems.push(`trial ${i}: state.json does not parse: ${(err as Error).message.slice(0, 200)}`);
        }
        // The dead writer's lock would go stale in 10 s; age it now. The API is idle meanwhile.
        await ageLocks([lock]);
        const t0 = performance.now();
        const post = await send(port, 'POST', '/api/settings', {
          body: JSON.stringify({ settle_seconds: 424242 + i }),
          headers: { 'content-type': 'application/json' },
          timeoutMs: 40_000,
        });
        stats.apiWriteMs.push(performance.now() - t0);
        if (post.status !== 200) {
          stats.apiWriteFailures++;
          problems.push(`trial ${i}: POST /api/settings after the kill: ${post.status} ${post.text.slice(0, 200)}`);
        }
      }
      // One more writer, one update: the last dead writer's temps go too.
      const last = await spawnWriter('once');
      await last.exited;
      const left = await deadTemps([]);
      stats.leftover += left.length;
      if (left.length) problems.push(`after the last writer: ${left.join(', ')}`);
    } finally {
      reading = false;
      await reader;
    }
    const final = stateSchema.safeParse(JSON.parse(await readFile(stateFile, 'utf8')));
    figures.set('state: trials (kills)', stats.kills);
    figures.set('state: kills with a temp file present (mid-write)', stats.midWrite);
    figures.set('state: kills with the lock held', stats.lockHeld);
    figures.set('state: torn or unparsable state.json', stats.torn);
    figures.set('state: inconsistent state.json', stats.inconsistent);
    figures.set('state: dead temps left after the next write', stats.leftover);
    figures.set('state: API reads during the kills / failed', `${reads} / ${readErrors}`);
    figures.set('state: API writes after a kill failed', stats.apiWriteFailures);
    figures.set('state: API write after a kill, max (ms)', Math.round(Math.max(...stats.apiWriteMs)));
    expect(problems).toEqual([]);
    expect(final.success).toBe(true);
    expect(readErrors).toBe(0);
    expect(stats.kills).toBeGreaterThanOrEqual(20);
  }, 300_000);
});
