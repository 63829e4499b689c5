// Scanner: a dry-run pass over a generated downloads folder, and one big file moved across
// filesystems, each beside a baseline measured in the same run on the same machine:
//
//  - dry run: `runScanPass` (packages/core) with dry_run on over BENCH_DOWNLOADS files (10,000):
//    release folders of movies with subtitles, .nfo and samples, season packs, loose episodes,
//    partial downloads and junk, onto two drives that already hold a few hundred series and movie
//    folders. Everything on the disk under os.tmpdir(), downloads and drives on one filesystem.
//    Beside GNU `find <downloads> -type f -printf '%s %T@ %p\n'` (a walk that stats every file,
//    the least any scanner must do). Both run twice; the second (warm) run is reported.
//  - move: a BENCH_MOVE_BYTES file (2 GiB; `512M`, `1G` … for a quick run) on tmpfs (/dev/shm)
//    moved to the disk with `moveFile` (copy to a temp name, fsync, size check, rename into place,
//    source removed), beside `cp` followed by `sync`. Four runs each, in alternating order; the
//    medians are reported. Pending writes are flushed (untimed) before every timed run.
//
// Goals (exit 1 when one is missed): the dry-run pass within 10× find's time (the pass also
// parses every name, plans destinations and writes state.json); the move within 1.3× cp + sync.
//
// Run: pnpm bench scan   (or: BENCH_MOVE_BYTES=256M node --import tsx bench/scan.bench.ts)
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG, initialState, stateSchema, type Config } from '@mo/shared';
import { createLogger, createStateStore } from '@mo/core';
import { moveFile } from '@mo/core/fs';
import { runScanPass, walkDownloads } from '@mo/core/scanner';

const DOWNLOADS = Number(process.env.BENCH_DOWNLOADS ?? 10_000);
const MOVE_BYTES = parseSize(process.env.BENCH_MOVE_BYTES ?? '2G');
const RUNS = 2;
const GOALS = { dryRunVsFind: 10, moveVsCp: 1.3 };

const now = () => performance.now();
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([KMG]?)i?B?$/i.exec(text.trim());
  if (!m) throw new Error(`BENCH_MOVE_BYTES: a size like 2G, 512M or 1048576, got "${text}"`);
  return Math.round(Number(m[1]) * 1024 ** ' KMG'.indexOf((m[2] || ' ').toUpperCase()));
}

function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

const WORDS =
  'Shadow Night Blue Iron Silent Golden Dark Lost Winter Empire River Star Dream Ghost Glass Hidden King Moon North Ocean Paper Secret Stone Storm Thunder Wild Wolf Zero Crimson Frozen Harbor Hunter Island Legend Midnight Mirror'.split(
    ' ',
  );
const title = (i: number) =>
  `${WORDS[i % WORDS.length]} ${WORDS[Math.floor(i / WORDS.length) % WORDS.length]} ${Math.floor(i / WORDS.length ** 2) || ''}`.trim();
const dotted = (s: string) => s.replace(/ /g, '.');

/** Downloads as download clients leave them; videos are sparse, so sizes are real without the bytes. */
function generateDownloads(root: string, count: number): { files: number; byKind: Record<string, number> } {
  const byKind: Record<string, number> = {};
  let files = 0;
  const OLD = new Date('2024-01-01T00:00:00Z');
  const file = (rel: string, kind: string, size = 0) => {
    if (files >= count) return;
    const p = join(root, rel);
    writeFileSync(p, '');
    if (size > 0) truncateSync(p, size);
    utimesSync(p, OLD, OLD);
    files++;
    byKind[kind] = (byKind[kind] ?? 0) + 1;
  };
  const dir = (rel: string) => mkdirSync(join(root, rel), { recursive: true });
  for (let i = 0; files < count; i++) {
    const t = dotted(title(i));
    switch (i % 5) {
      case 0: {
        const rel = `${t}.${1960 + (i % 60)}.1080p.BluRay.x264-GRP`;
        dir(`${rel}/Sample`);
        dir(`${rel}/Subs`);
        file(`${rel}/${rel}.mkv`, 'movie video', 8 * 1024 ** 3);
        file(`${rel}/${rel}.nfo`, 'sidecar', 0);
        file(`${rel}/Subs/2_English.srt`, 'sidecar', 0);
        file(`${rel}/Sample/sample-${rel}.mkv`, 'sample', 30 * 1024 ** 2);
        break;
      }
      case 1: {
        const rel = `${t}.S0${1 + (i % 5)}.1080p.WEB-DL.x264-GRP`;
        dir(rel);
        for (let e = 1; e <= 8; e++) file(`${rel}/${t}.S0${1 + (i % 5)}E0${e}.1080p.WEB-DL.x264-GRP.mkv`, 'episode video', 1.5 * 1024 ** 3);
        file(`${rel}/${rel}.nfo`, 'sidecar', 0);
        break;
      }
      case 2:
        file(`${t}.S01E0${1 + (i % 9)}.720p.HDTV.x264-GRP.mkv`, 'episode video', 700 * 1024 ** 2);
        file(`${t}.S01E0${1 + (i % 9)}.720p.HDTV.x264-GRP.en.srt`, 'sidecar', 0);
        break;
      case 3:
        file(`${t}.${1960 + (i % 60)}.2160p.WEB.h265-GRP.mkv.part`, 'partial', 4 * 1024 ** 3);
        file(`${t}.S02E01.720p.mkv.!qB`, 'partial', 300 * 1024 ** 2);
        break;
      case 4:
        dir(`${t}.Soundtrack.FLAC`);
        file(`${t}.Soundtrack.FLAC/cover.jpg`, 'other', 0);
        file(`${t}.Soundtrack.FLAC/info.txt`, 'other', 0);
        file(`Home Video ${title(i)}.mp4`, 'unrecognised video', 2 * 1024 ** 3);
        break;
    }
  }
  return { files, byKind };
}

function generateDrives(root: string): Config['drives'] {
  const drives = [1, 2].map((n) => ({ name: `disk${n}`, path: join(root, `disk${n}`) }));
  for (const [d, drive] of drives.entries()) {
    for (let i = d; i < 600; i += 2) {
      mkdirSync(join(drive.path, 'TV', title(i * 5 + 1)), { recursive: true });
      mkdirSync(join(drive.path, 'Movies', `${title(i * 5)} (${1960 + ((i * 5) % 60)})`), { recursive: true });
    }
  }
  return drives;
}

function find(root: string): Promise<{ ms: number; lines: number }> {
  return new Promise((resolve, reject) => {
    const t0 = now();
    let lines = 0;
    const p = spawn('find', [root, '-type', 'f', '-printf', '%s %T@ %p\\n'], { stdio: ['ignore', 'pipe', 'inherit'] });
    p.stdout.on('data', (chunk: Buffer) => {
      for (const b of chunk) if (b === 10) lines++;
    });
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve({ ms: now() - t0, lines }) : reject(new Error(`find exited with ${code}`))));
  });
}

function flush(): void {
  spawnSync('sync');
}

/** A file of real (non-zero, non-sparse) bytes, so that neither side can skip holes. */
function writeBig(path: string, bytes: number): void {
  const block = Buffer.alloc(64 * 1024 * 1024);
  for (let i = 0; i < block.length; i += 4) block.writeUInt32LE((i * 2654435761) >>> 0, i);
  const fd = openSync(path, 'w');
  try {
    for (let done = 0; done < bytes;) {
      const n = Math.min(block.length, bytes - done);
      writeSync(fd, block, 0, n);
      done += n;
    }
  } finally {
    closeSync(fd);
  }
}

async function dryRunBench(tmp: string) {
  const downloads = join(tmp, 'downloads');
  const data = join(tmp, 'data');
  mkdirSync(downloads, { recursive: true });
  const t0 = now();
  const gen = generateDownloads(downloads, DOWNLOADS);
  const drives = generateDrives(tmp);
  console.log(
    `downloads: ${int(gen.files)} files (${Object.entries(gen.byKind)
      .map(([k, v]) => `${int(v)} ${k}`)
      .join(', ')}), written in ${secs(now() - t0)}`,
  );
  console.log(`drives: 2, with 600 series and 600 movie folders between them; downloads on the same filesystem`);

  const config: Config = {
    ...DEFAULT_CONFIG,
    app: { ...DEFAULT_CONFIG.app, dry_run: true },
    paths: { downloads, data, config: data },
    drives,
  };
  const state = createStateStore({ file: join(data, 'state.json'), schema: stateSchema, initial: initialState });
  const log = createLogger({ name: 'bench', level: 'silent' });

  const passMs: number[] = [];
  const walkMs: number[] = [];
  const findMs: number[] = [];
  let result: Awaited<ReturnType<typeof runScanPass>> | undefined;
  let findLines = 0;
  for (let run = 0; run < RUNS; run++) {
    let t = now();
    const f = await find(downloads);
    findMs.push(f.ms);
    findLines = f.lines;
    t = now();
    await walkDownloads(downloads);
    walkMs.push(now() - t);
    t = now();
    result = await runScanPass({ config, state, owner: { uid: null, gid: null }, log });
    passMs.push(now() - t);
  }
  const reasons: Record<string, number> = {};
  for (const s of result!.skipped) reasons[s.reason] = (reasons[s.reason] ?? 0) + 1;
  const findWarm = findMs[RUNS - 1]!;
  const passWarm = passMs[RUNS - 1]!;
  console.log(`\ndry-run pass (runs: ${passMs.map(secs).join(', ')} → warm run reported)`);
  table(
    ['what', 'warm time', 'files/s', 'vs find'],
    [
      [
        'runScanPass, dry run (walk, parse, plan, state.json)',
        secs(passWarm),
        int(gen.files / (passWarm / 1000)),
        `${(passWarm / findWarm).toFixed(2)}× the time`,
      ],
      [
        '  of which walkDownloads (readdir + lstat)',
        secs(walkMs[RUNS - 1]!),
        int(gen.files / (walkMs[RUNS - 1]! / 1000)),
        `${(walkMs[RUNS - 1]! / findWarm).toFixed(2)}× the time`,
      ],
      [`find -type f -printf '%s %T@ %p\\n'`, secs(findWarm), int(findLines / (findWarm / 1000)), '1.00×'],
    ],
  );
  console.log(
    `plans: ${int(result!.plans.length)} (with ${int(result!.plans.reduce((n, p) => n + p.sidecars.length, 0))} sidecars); skipped: ${Object.entries(reasons)
      .map(([k, v]) => `${int(v)} ${k}`)
      .join(', ')}`,
  );
  if (findLines !== gen.files) console.log(`note: find printed ${int(findLines)} lines for ${int(gen.files)} files`);
  return { ratio: passWarm / findWarm };
}

async function moveBench(tmp: string): Promise<{ ratio: number } | null> {
  let shm: string;
  try {
    shm = mkdtempSync('/dev/shm/mo-bench-');
  } catch (err) {
    console.log(`\nmove: skipped, /dev/shm is not usable (${(err as Error).message})`);
    return null;
  }
  try {
    if (statSync(shm).dev === statSync(tmp).dev) {
      console.log(`\nmove: skipped, /dev/shm and ${tmp} are one filesystem here`);
      return null;
    }
    const source = join(shm, 'Big.Movie.2012.2160p.mkv');
    const target = join(tmp, 'disk', 'Movies', 'Big Movie (2012)');
    mkdirSync(target, { recursive: true });
    const t0 = now();
    writeBig(source, MOVE_BYTES);
    console.log(`\nmove: ${(MOVE_BYTES / 1024 ** 3).toFixed(2)} GiB from tmpfs to the disk (source written in ${secs(now() - t0)})`);

    const ours: number[] = [];
    const cp: number[] = [];
    const runCp = () => {
      const dest = join(target, 'cp.mkv');
      flush();
      const t = now();
      const r = spawnSync('cp', [source, dest]);
      if (r.status !== 0) throw new Error(`cp failed: ${r.stderr}`);
      flush();
      cp.push(now() - t);
      rmSync(dest);
      flush();
    };
    const runOurs = async () => {
      const dest = join(target, 'Big Movie (2012).mkv');
      flush();
      const t = now();
      const r = await moveFile(source, dest);
      ours.push(now() - t);
      if (r.status !== 'moved' || r.method !== 'copy') throw new Error(`moveFile: ${JSON.stringify(r)}`);
      if (statSync(dest).size !== MOVE_BYTES) throw new Error('moved file has the wrong size');
      // Put the source back for the next round (untimed).
      spawnSync('cp', [dest, source]);
      rmSync(dest);
      flush();
    };
    // ABBA BAAB: neither side always runs first or on a disk still busy with the other's writes.
    for (const first of [true, false, false, true]) {
      if (first) runCp();
      await runOurs();
      if (!first) runCp();
    }
    const rate = (ms: number) => `${(MOVE_BYTES / 1024 ** 2 / (ms / 1000)).toFixed(0)} MiB/s`;
    table(
      ['what', 'median time', 'throughput', 'vs cp + sync'],
      [
        ['moveFile (copy, fsync, size check, rename, unlink)', secs(median(ours)), rate(median(ours)), `${(median(ours) / median(cp)).toFixed(2)}× the time`],
        ['cp, then sync', secs(median(cp)), rate(median(cp)), '1.00×'],
      ],
    );
    console.log(`runs: moveFile ${ours.map(secs).join(', ')}; cp + sync ${cp.map(secs).join(', ')}`);
    return { ratio: median(ours) / median(cp) };
  } finally {
    rmSync(shm, { recursive: true, force: true });
  }
}

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'mo-bench-scan-'));
  process.on('SIGINT', () => {
    rmSync(tmp, { recursive: true, force: true });
    process.exit(130);
  });
  try {
    console.log(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}; page cache not dropped\n`,
    );
    const dry = await dryRunBench(tmp);
    const move = await moveBench(tmp);
    const checks = [
      { ok: dry.ratio <= GOALS.dryRunVsFind, what: `dry-run pass ${dry.ratio.toFixed(2)}× find's time ≤ ${GOALS.dryRunVsFind}×` },
      {
        ok: move === null ? null : move.ratio <= GOALS.moveVsCp,
        what: move ? `move ${move.ratio.toFixed(2)}× cp + sync ≤ ${GOALS.moveVsCp}×` : 'move: not measured here',
      },
    ];
    console.log('\ngoals:');
    for (const c of checks) console.log(`  ${c.ok === null ? 'n/a ' : c.ok ? 'ok  ' : 'MISS'} ${c.what}`);
    if (checks.some((c) => c.ok === false)) process.exitCode = 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
