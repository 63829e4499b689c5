// SIGKILL inside an atomic write, aimed rather than random: the random kills of kill-worker.test.ts
// seldom land in the few milliseconds between an atomic write's temp file and its rename. Here the
// test watches the folder, freezes the worker (SIGSTOP) the moment such a temp appears and, if the
// temp is still there, kills it (SIGKILL): exactly the disk state of a kill at that instant. Then
// a new worker retries the job, and once it has completed no temp may be left.
// Targets: the transfer journal's note of a cross-filesystem copy, the media work journal's note
// of a remux, and the library index.
import { existsSync, mkdtempSync, rmSync, statSync, watch } from 'node:fs';
import { copyFile, mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLibrary } from '../../bench/support/library-fixture.ts';
import { makeClip } from '@mo/core/test-fixtures';
import { dropPrefix, fastForwardStalls, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { buildApps, startProcess, tempInstall, waitFor, type RunningProcess, type TempInstall, writeTestKey } from '@mo/test-support/service';
import { ageLocks, sha256 } from './support/files.ts';
import { json, send } from './support/http.ts';
import { jobFinal, startWorker } from './support/jobs.ts';
import { Figures } from './support/report.ts';

const ATTEMPTS = 12;
const figures = new Figures('kill-atomic-write');
const redisUrl = testRedisUrl();
const prefixes: string[] = [];
const running: RunningProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
const OLD = new Date('2024-05-01T12:00:00.000Z');
/** What writeFileAtomic names its temp: `.<file>.<pid>.<hex>.tmp`. */
const atomicTemp = (file: RegExp) => new RegExp(`^\\.${file.source}\\.(\\d+)\\.[0-9a-f]+\\.tmp$`);

/**
 * Resolves with the temp's name once the worker was killed while the temp existed, or null when
 * `ms` passed without catching one (the worker is then left running).
 */
function killInsideWrite(worker: RunningProcess, dir: string, name: RegExp, ms: number): { result: Promise<string | null>; stop(): void } {
  let stop = () => {};
  const result = new Promise<string | null>((resolve) => {
    const pid = worker.proc.pid!;
    let done = false;
    const finish = (v: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      w.close();
      resolve(v);
    };
    stop = () => finish(null);
    const w = watch(dir, (_event, file) => {
      if (done || !file || !name.test(file) || Number(name.exec(file)![1]) !== pid) return;
      try {
        process.kill(pid, 'SIGSTOP');
      } catch {
        return finish(null);
      }
      if (existsSync(join(dir, file))) {
        process.kill(pid, 'SIGKILL');
        finish(file);
      } else process.kill(pid, 'SIGCONT');
    });
    const timer = setTimeout(() => finish(null), ms);
  });
  return { result, stop: () => stop() };
}

async function startApi(configFile: string, prefix: string) {
  const port = await freePort();
  const api = startProcess(
    'api',
    { MEDIA_ORGANIZER_CONFIG: configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: '127.0.0.1' },
    { built: true },
  );
  running.push(api);
  await waitFor(async () => (await send(port, 'GET', '/api/ready')).status === 200, 30_000, 'the api');
  return port;
}

beforeAll(() => buildApps(), 120_000);

afterAll(async () => {
  figures.print();
  for (const p of running) await p.stop('SIGKILL');
  for (const c of cleanups) await c();
  for (const p of prefixes) await dropPrefix(redisUrl, p);
});

describe('SIGKILL inside an atomic write', () => {
  it('the media work journal: a remux killed while writing its note leaves no temp once the retry completed', async () => {
    const install: TempInstall = await tempInstall('[app]\ndry_run = false\nscan_interval_seconds = 0\nwatch = false\n');
    cleanups.push(() => install.cleanup());
    const prefix = uniquePrefix('kaw-media');
    prefixes.push(prefix);
    const port = await startApi(install.configFile, prefix);
    const clip = join(install.root, 'clip.mkv');
    await makeClip(clip, { seconds: 4, subtitles: true });
    const dir = join(install.paths.data, 'media-work');
    await mkdir(dir, { recursive: true });
    const env = { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, WORKER_QUEUES: 'media' };
    let w = await startWorker(env);
    running.push(w);
    let caught: string | null = null;
    let attempts = 0;
    let job = '';
    for (; attempts < ATTEMPTS && !caught;) {
      attempts++;
      const file = join(install.paths.downloads, `Aim ${attempts}.mkv`);
      await copyFile(clip, file);
      const hunt = killInsideWrite(w, dir, atomicTemp(/[0-9a-f]+\.json/), 15_000);
      const r = await send(port, 'POST', '/api/media/tracks?wait=0', {
        body: JSON.stringify({ path: file, action: 'remove', stream: 2 }),
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status, r.text).toBe(202);
      job = String(json(r).job.id);
      caught = await Promise.race([hunt.result, jobFinal(port, 'media', job, 15_000).then(() => null)]);
      hunt.stop();
    }
    figures.set('media note: attempts to catch the temp / caught', `${attempts} / ${caught ? 'yes' : 'no'}`);
    expect(caught, 'no kill landed inside the note write').not.toBeNull();
    await w.stop('SIGKILL');
    await fastForwardStalls(redisUrl, prefix, 'media');
    w = await startWorker(env);
    running.push(w);
    const rec = await jobFinal(port, 'media', job, 60_000);
    const left = (await readdir(dir)).filter((n) => n.endsWith('.tmp'));
    figures.set('media note: retried job', rec?.state ?? 'none');
    figures.set('media note: temps left after the retry', left.join(', ') || 'none');
    expect(rec?.state).toBe('completed');
    expect(left).toEqual([]);
  }, 180_000);

  let shm = '';
  let disk = '';
  let skip: string | null = null;
  try {
    shm = mkdtempSync('/dev/shm/mo-faults-kaw-');
    disk = mkdtempSync(join(tmpdir(), 'mo-faults-kaw-'));
    if (statSync(shm).dev === statSync(disk).dev) skip = 'the transfer journal target is skipped: /dev/shm and the temp dir are one filesystem';
  } catch (err) {
    skip = `the transfer journal target is skipped: /dev/shm is not usable (${(err as Error).message})`;
  }
  cleanups.push(() => {
    if (shm) rmSync(shm, { recursive: true, force: true });
    if (disk) rmSync(disk, { recursive: true, force: true });
  });

  it.skipIf(skip !== null)(
    "the transfer journal: a pass killed while writing a copy's note leaves no temp once the next pass completed",
    async () => {
      const paths = { downloads: join(shm, 'downloads'), data: join(disk, 'data'), config: join(disk, 'config'), drive: join(disk, 'media', 'disk1') };
      for (const p of [paths.downloads, paths.data, paths.config, join(paths.drive, 'Movies')]) await mkdir(p, { recursive: true });
      await writeTestKey(paths.data);
      const configFile = join(paths.config, 'config.toml');
      await writeFile(
        configFile,
        `[app]\ndry_run = false\nscan_interval_seconds = 0\nwatch = false\nsettle_seconds = 0\n\n[paths]\ndownloads = "${paths.downloads}"\nconfig = "${paths.config}"\ndata = "${paths.data}"\n\n` +
          `[[drives]]\nname = "disk1"\npath = "${paths.drive}"\n\n[library]\nsample_max_bytes = 0\n`,
      );
      const prefix = uniquePrefix('kaw-move');
      prefixes.push(prefix);
      const port = await startApi(configFile, prefix);
      const dir = join(paths.data, 'scanner', 'transfers');
      await mkdir(dir, { recursive: true });
      const env = { MEDIA_ORGANIZER_CONFIG: configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, WORKER_QUEUES: 'scan' };
      let w = await startWorker(env);
      running.push(w);
      const sources: { path: string; hash: string; dest: string }[] = [];
      let caught: string | null = null;
      let attempts = 0;
      let job = '';
      for (; attempts < ATTEMPTS && !caught;) {
        attempts++;
        for (const k of ['One', 'Two', 'Three', 'Four']) {
          const title = `Aimed ${k} Move ${String.fromCharCode(64 + attempts)}`;
          const stem = `${title.replace(/ /g, '.')}.2011.1080p.WEB`;
          const path = join(paths.downloads, stem, `${stem}.mkv`);
          await mkdir(join(path, '..'), { recursive: true });
          await writeFile(path, Buffer.alloc(256 * 1024, attempts));
          await utimes(path, OLD, OLD);
          sources.push({ path, hash: await sha256(path), dest: join(paths.drive, 'Movies', `${title} (2011)`, `${title} (2011).mkv`) });
        }
        const hunt = killInsideWrite(w, dir, atomicTemp(/\d+-[0-9a-f]+\.json/), 15_000);
        const r = await send(port, 'POST', '/api/scan?wait=0');
        job = String(json(r).job.id);
        caught = await Promise.race([hunt.result, jobFinal(port, 'scan', job, 15_000).then(() => null)]);
        hunt.stop();
      }
      figures.set('transfer note: attempts to catch the temp / caught', `${attempts} / ${caught ? 'yes' : 'no'}`);
      expect(caught, 'no kill landed inside the note write').not.toBeNull();
      await w.stop('SIGKILL');
      await ageLocks([join(paths.data, 'scanner.lock'), join(paths.data, 'state.json.lock')]);
      await fastForwardStalls(redisUrl, prefix, 'scan');
      w = await startWorker(env);
      running.push(w);
      const rec = await jobFinal(port, 'scan', job, 60_000);
      const again = await send(port, 'POST', '/api/scan?wait=60', { timeoutMs: 70_000 });
      const left = (await readdir(dir)).filter((n) => n.endsWith('.tmp'));
      const notMoved = [];
      for (const s of sources) if (!(existsSync(s.dest) && (await sha256(s.dest)) === s.hash && !existsSync(s.path))) notMoved.push(s.path);
      figures.set('transfer note: retried pass / next pass', `${rec?.state ?? 'none'} / ${again.status}`);
      figures.set('transfer note: temps left after the next pass', left.join(', ') || 'none');
      expect(rec?.state).toBe('completed');
      expect(again.status).toBe(200);
      expect(notMoved).toEqual([]);
      expect(left).toEqual([]);
    },
    180_000,
  );

  it('the library index: a library scan killed while writing the index leaves no temp once the next scan completed', async () => {
    const install: TempInstall = await tempInstall('[app]\nscan_interval_seconds = 0\nwatch = false\n');
    cleanups.push(() => install.cleanup());
    const lib = generateLibrary(join(install.root, 'lib'), 20_000, 3);
    const configFile = join(install.root, 'lib-config.toml');
    await writeFile(
      configFile,
      `[app]\nscan_interval_seconds = 0\nwatch = false\n\n[paths]\ndownloads = "${install.paths.downloads}"\nconfig = "${install.paths.config}"\ndata = "${install.paths.data}"\n\n` +
        lib.drives.map((d) => `[[drives]]\nname = "${d.name}"\npath = "${d.path}"\n`).join('\n'),
    );
    const prefix = uniquePrefix('kaw-lib');
    prefixes.push(prefix);
    const port = await startApi(configFile, prefix);
    const env = { MEDIA_ORGANIZER_CONFIG: configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, WORKER_QUEUES: 'library' };
    let w = await startWorker(env);
    running.push(w);
    let caught: string | null = null;
    let attempts = 0;
    let job = '';
    for (; attempts < ATTEMPTS && !caught;) {
      attempts++;
      const hunt = killInsideWrite(w, install.paths.data, atomicTemp(/library-index\.ndjson/), 30_000);
      const r = await send(port, 'POST', '/api/library/scan?wait=0');
      job = String(json(r).job.id);
      caught = await Promise.race([hunt.result, jobFinal(port, 'library', job, 30_000).then(() => null)]);
      hunt.stop();
    }
    figures.set('library index: attempts to catch the temp / caught', `${attempts} / ${caught ? 'yes' : 'no'}`);
    expect(caught, 'no kill landed inside the index write').not.toBeNull();
    const bytes = statSync(join(install.paths.data, caught!)).size;
    await w.stop('SIGKILL');
    await ageLocks([join(install.paths.data, 'state.json.lock')]);
    await fastForwardStalls(redisUrl, prefix, 'library');
    w = await startWorker(env);
    running.push(w);
    const rec = await jobFinal(port, 'library', job, 60_000);
    const again = await send(port, 'POST', '/api/library/scan?wait=60', { timeoutMs: 70_000 });
    const left = (await readdir(install.paths.data)).filter((n) => n.endsWith('.tmp'));
    figures.set('library index: files / size of the cut temp (bytes)', `${lib.files} / ${bytes}`);
    figures.set('library index: retried scan / next scan', `${rec?.state ?? 'none'} / ${again.status}`);
    figures.set('library index: temps left after the next scan', left.join(', ') || 'none');
    expect(rec?.state).toBe('completed');
    expect(again.status).toBe(200);
    expect(left).toEqual([]);
  }, 240_000);
});
