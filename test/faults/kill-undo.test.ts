// SIGKILL of the API process during POST /api/history/<id>/undo. The downloads folder is on tmpfs
// (/dev/shm) and the drive on disk, so taking a moved import back is a verified copy across
// filesystems: the long window. Each trial kills a real API (the production bundle) during one undo,
// either after a delay swept over the measured length of an undo, or aimed: frozen (SIGSTOP) the
// moment the copy's temp file or the copied file appears in the downloads folder, then killed.
// After each kill the bytes must exist whole at the library path or the download path; a new API
// must then complete the undo when asked again (or say it was done), leaving the file once at its
// download path, no temp or transfer note, and a history that parses with the import undone.
import { existsSync, watch } from 'node:fs';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyResponse, undoResponse } from '@mo/shared';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { buildApps, startProcess, waitFor, type RunningProcess } from '@mo/test-support/service';
import { ageLocks, filesIn, findLeftovers, sha256, sha256OrNull } from './support/files.ts';
import { json, send } from './support/http.ts';
import { sleep, startWorker } from './support/jobs.ts';
import { rng, suiteSeed } from '@mo/test-support/prng';
import { Figures } from './support/report.ts';
import { crossFilesystem, killInstall } from './support/cross-fs.ts';

const TRIALS = Number(process.env.FAULTS_KILL_TRIALS ?? 26);
const MOVE_MB = Number(process.env.FAULTS_MOVE_MB ?? 48);
const seed = suiteSeed();
const figures = new Figures('kill-undo');
const redisUrl = testRedisUrl();
const prefixes: string[] = [];
const running: RunningProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
const OLD = new Date('2024-05-01T12:00:00.000Z');

const { shm, disk, skip, cleanup } = crossFilesystem('undo', 'undo kill trials');
cleanups.push(cleanup);

beforeAll(() => buildApps(), 120_000);

afterAll(async () => {
  figures.print();
  for (const p of running) await p.stop('SIGKILL');
  for (const c of cleanups) await c();
  for (const p of prefixes) await dropPrefix(redisUrl, p);
});

type Aim = 'delay' | 'temp appears' | 'copy placed';

/** SIGSTOPs `api` the moment a name matching `name` appears in `dir`, then SIGKILLs it. Null when `ms` passed first. */
function killWhenAppears(api: RunningProcess, dir: string, name: (n: string) => boolean, ms: number): Promise<string | null> {
  return new Promise((resolve) => {
    const pid = api.proc.pid!;
    let done = false;
    const finish = (v: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      w.close();
      resolve(v);
    };
    const w = watch(dir, (_event, file) => {
      if (done || !file || !name(file)) return;
      try {
        process.kill(pid, 'SIGSTOP');
        process.kill(pid, 'SIGKILL');
      } catch {
        return finish(null);
      }
      finish(file);
    });
    const timer = setTimeout(() => finish(null), ms);
  });
}

describe.skipIf(skip !== null)('SIGKILL during an undo (library on disk, downloads on tmpfs)', () => {
  it(`${TRIALS - 1} APIs killed while moving an import of ${MOVE_MB} MiB back: nothing lost, asking again completes it`, async () => {
    const { paths, configFile } = await killInstall({ shm, disk }, 'move');
    const prefix = uniquePrefix('kundo');
    prefixes.push(prefix);
    const env = { MEDIA_ORGANIZER_CONFIG: configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix };
    let api: RunningProcess;
    let port = 0;
    const startApi = async () => {
      port = await freePort();
      api = startProcess('api', { ...env, PORT: String(port), HOST: '127.0.0.1' }, { built: true });
      running.push(api);
      await waitFor(async () => (await send(port, 'GET', '/api/ready')).status === 200, 30_000, 'the api');
    };
    await startApi();

    // Every trial's import, made by one real pass.
    interface Movie {
      video: string;
      sidecar: string;
      hash: string;
      subHash: string;
      id: number;
      dest: string;
      subDest: string;
    }
    const movies: Movie[] = [];
    for (let i = 0; i < TRIALS; i++) {
      const stem = `Undokill.Number.${i + 1}.${1990 + (i % 30)}.1080p.BluRay.x264-FLT`;
      const video = join(paths.downloads, `${stem}.mkv`);
      const sidecar = join(paths.downloads, `${stem}.en.srt`);
      await writeFile(video, randomBytes(MOVE_MB * 1024 * 1024));
      await writeFile(sidecar, randomBytes(2048));
      await utimes(video, OLD, OLD);
      await utimes(sidecar, OLD, OLD);
      movies.push({ video, sidecar, hash: await sha256(video), subHash: await sha256(sidecar), id: 0, dest: '', subDest: '' });
    }
    const worker = await startWorker({ ...env, WORKER_QUEUES: 'scan' });
    running.push(worker);
    const pass = await send(port, 'POST', '/api/scan?wait=300', { timeoutMs: 310_000 });
    expect(pass.status, pass.text.slice(0, 300)).toBe(200);
    await worker.stop('SIGTERM');
    const historyOf = async (source: string) => {
      const r = await send(port, 'GET', `/api/history?limit=10&source=${encodeURIComponent(source)}`);
      if (r.status !== 200) throw new Error(`GET /api/history: ${r.status} ${r.text.slice(0, 200)}`);
      return historyResponse.parse(json(r)).items;
    };
    for (const m of movies) {
      const items = await historyOf(m.video);
      expect(items, m.video).toHaveLength(1);
      m.id = items[0]!.id;
      m.dest = items[0]!.destination;
      m.subDest = items[0]!.sidecars[0]!.destination;
      expect(await sha256OrNull(m.dest)).toBe(m.hash);
    }

    const undo = (id: number, timeoutMs = 60_000) => send(port, 'POST', `/api/history/${id}/undo`, { timeoutMs });
    // The first import is undone without a kill: how long an undo takes, for the delay sweep.
    const calib = await undo(movies[0]!.id);
    expect(calib.status, calib.text).toBe(200);
    const calibrationMs = Math.round(calib.ms);

    const r = rng(seed).fork('undo');
    const problems: string[] = [];
    const atKill = new Map<string, number>();
    const outcomes = new Map<string, number>();
    const aims = new Map<Aim, number>();
    const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
    const isTemp = (n: string) => n.startsWith('.mo-partial-');
    const delays: number[] = [];
    for (let i = 1; i < TRIALS; i++) {
      const m = movies[i]!;
      const aim: Aim = i % 4 === 1 ? 'temp appears' : i % 4 === 3 ? 'copy placed' : 'delay';
      const name = basename(m.video);
      const aimed = aim === 'delay' ? null : killWhenAppears(api!, paths.downloads, aim === 'temp appears' ? isTemp : (n) => n === name, 30_000);
      const pending = undo(m.id);
      if (aimed) {
        if ((await aimed) === null) problems.push(`trial ${i}: the ${aim} kill never landed`);
      } else {
        const d = r.int(0, Math.round(calibrationMs * 1.2));
        delays.push(d);
        await sleep(d);
        await api!.stop('SIGKILL');
      }
      await api!.stop('SIGKILL');
      bump(aims, aim);
      const first = await pending;

      // On disk right after the kill.
      const [lib, dl] = await Promise.all([sha256OrNull(m.dest), sha256OrNull(m.video)]);
      const [subLib, subDl] = await Promise.all([sha256OrNull(m.subDest), sha256OrNull(m.sidecar)]);
      const temp = (await readdir(paths.downloads)).some(isTemp);
      bump(atKill, first.status === 200 ? 'undo answered' : lib && dl ? 'both names' : dl ? 'moved back' : temp ? 'copying' : lib ? 'not started' : 'neither');
      if (lib !== m.hash && dl !== m.hash)
        problems.push(`trial ${i}: the video is whole at neither path (library ${lib ? 'other bytes' : 'absent'}, download ${dl ? 'other bytes' : 'absent'})`);
      if ((lib && lib !== m.hash) || (dl && dl !== m.hash)) problems.push(`trial ${i}: a path holds other bytes than the import's`);
      if (subLib !== m.subHash && subDl !== m.subHash) problems.push(`trial ${i}: the sidecar is whole at neither path`);

      // A new API; the dead one's pass lock would go stale in 10 s.
      await ageLocks([join(paths.data, 'scanner.lock')]);
      await startApi();
      const again = await undo(m.id);
      const reason = json(again)?.details?.reason ?? json(again)?.error?.details?.reason;
      const outcome =
        again.status === 200
          ? 'completed by asking again'
          : again.status === 409 && reason === 'undone'
            ? 'already recorded as undone'
            : `${again.status} ${reason ?? again.text.slice(0, 120)}`;
      bump(outcomes, outcome);
      if (again.status === 200) undoResponse.parse(json(again));
      else if (!(again.status === 409 && reason === 'undone')) problems.push(`trial ${i}: asking again answered ${again.status} ${again.text.slice(0, 200)}`);

      // Settled: the bytes once, at the download path; the history says undone.
      const [lib2, dl2, subLib2, subDl2] = await Promise.all([m.dest, m.video, m.subDest, m.sidecar].map(sha256OrNull));
      if (!(dl2 === m.hash && lib2 === null))
        problems.push(`trial ${i}: after asking again download=${dl2 === m.hash ? 'whole' : dl2 ? 'other' : 'absent'} library=${lib2 ? 'present' : 'absent'}`);
      if (!(subDl2 === m.subHash && subLib2 === null)) problems.push(`trial ${i}: after asking again the sidecar is not back once`);
      const items = await historyOf(m.video).catch((err: Error) => (problems.push(`trial ${i}: ${err.message}`), []));
      if (items.length !== 1 || items[0]!.undone_at === null)
        problems.push(`trial ${i}: the history holds ${items.length} records of the import, undone_at ${items[0]?.undone_at}`);
      const left = [
        ...(await findLeftovers([paths.drive, paths.downloads, paths.data])),
        ...(await filesIn(join(paths.data, 'scanner', 'transfers'))).map((n) => `transfer note ${n}`),
      ];
      if (left.length) problems.push(`trial ${i}: left after the undo completed: ${left.join(', ')}`);
    }

    // The history file parses line by line, each import once, every trial's undone.
    const lines = (await readFile(join(paths.data, 'history', 'imports.jsonl'), 'utf8')).split('\n').filter(Boolean);
    let torn = 0;
    for (const l of lines) {
      try {
        JSON.parse(l);
      } catch {
        torn++;
      }
    }
    const all = historyResponse.parse(json(await send(port, 'GET', `/api/history?limit=${TRIALS + 10}`))).items;
    const undone = all.filter((x) => x.undone_at !== null).length;
    figures.set('undo: trials (kills)', TRIALS - 1);
    figures.set('undo: kills aimed', JSON.stringify(Object.fromEntries(aims)));
    figures.set('undo: calibration undo (ms) / delay window (ms)', `${calibrationMs} / 0–${Math.round(calibrationMs * 1.2)}`);
    figures.set('undo: state at kill', JSON.stringify(Object.fromEntries(atKill)));
    figures.set('undo: asking again', JSON.stringify(Object.fromEntries(outcomes)));
    figures.set('undo: imports in the history / undone', `${all.length} / ${undone}`);
    figures.set('undo: torn history lines', torn);
    figures.set('undo: problems', problems.length);
    expect(problems).toEqual([]);
    expect(torn).toBe(0);
    expect(all).toHaveLength(TRIALS);
    expect(undone).toBe(TRIALS);
    expect(existsSync(join(paths.data, 'scanner.lock'))).toBe(false);
  }, 600_000);
});
