// SIGKILL of a worker in the middle of a manual import's copy (transfer = "copy", the download on
// tmpfs and the drive on disk, a large file). Each trial asks POST /api/imports/manual for one
// download nothing would recognise, freezes and kills the worker the moment the copy's temp file
// appears beside its destination, and lets a new worker take the job over. The download must be
// intact after the kill; once the job completes its copy must be whole at the destination, with its
// sidecar, once in the history, and no half file anywhere.
import { randomBytes } from 'node:crypto';
import { readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyResponse } from '@mo/shared';
import { dropPrefix, fastForwardStalls, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { buildApps, startProcess, waitFor, type RunningProcess } from '@mo/test-support/service';
import { ageLocks, findLeftovers, sha256, sha256OrNull } from './support/files.ts';
import { json, send } from './support/http.ts';
import { jobFinal, sleep, startWorker } from './support/jobs.ts';
import { crossFilesystem, killInstall } from './support/cross-fs.ts';
import { Figures } from './support/report.ts';

const TRIALS = Number(process.env.FAULTS_MANUAL_TRIALS ?? 4);
const MOVE_MB = Number(process.env.FAULTS_MOVE_MB ?? 48);
const figures = new Figures('kill-manual-import');
const redisUrl = testRedisUrl();
const prefix = uniquePrefix('kmanual');
const running: RunningProcess[] = [];
const OLD = new Date('2024-05-01T12:00:00.000Z');
const { shm, disk, skip, cleanup } = crossFilesystem('manual', 'manual import kill trials');

beforeAll(() => buildApps(), 120_000);

afterAll(async () => {
  figures.print();
  for (const p of running) await p.stop('SIGKILL');
  cleanup();
  await dropPrefix(redisUrl, prefix);
});

/** SIGSTOPs then SIGKILLs `w` once `dir` holds a copy's temp file; false when the job finished first or `ms` passed. */
async function killWhenCopying(w: RunningProcess, dir: string, done: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (let n = 0; Date.now() < deadline; n++) {
    const names = await readdir(dir).catch(() => [] as string[]);
    if (names.some((f) => f.startsWith('.mo-partial-'))) {
      process.kill(w.proc.pid!, 'SIGSTOP');
      await w.stop('SIGKILL');
      return true;
    }
    if (n % 50 === 49 && (await done())) return false;
    await sleep(2);
  }
  return false;
}

describe.skipIf(skip !== null)('SIGKILL during a manual import in copy mode (downloads on tmpfs, drive on disk)', () => {
  it(`${TRIALS} workers killed mid-copy of a ${MOVE_MB} MiB manual import: the download intact, the retry leaves one whole copy and no half file`, async () => {
    const { paths, configFile } = await killInstall({ shm, disk }, 'copy');
    const env = { MEDIA_ORGANIZER_CONFIG: configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix };
    const port = await freePort();
    const api = startProcess('api', { ...env, PORT: String(port), HOST: '127.0.0.1' }, { built: true });
    running.push(api);
    await waitFor(async () => (await send(port, 'GET', '/api/ready')).status === 200, 30_000, 'the api');

    const problems: string[] = [];
    let killed = 0;
    for (let i = 1; i <= TRIALS; i++) {
      const stem = `holiday film number ${i}`;
      const video = join(paths.downloads, `${stem}.mkv`);
      const sidecar = join(paths.downloads, `${stem}.en.srt`);
      await writeFile(video, randomBytes(MOVE_MB * 1024 * 1024));
      await writeFile(sidecar, randomBytes(2048));
      await Promise.all([utimes(video, OLD, OLD), utimes(sidecar, OLD, OLD)]);
      const [hash, subHash] = await Promise.all([sha256(video), sha256(sidecar)]);
      const title = `Faultmanual Number ${i}`;
      const folder = join(paths.drive, 'Movies', `${title} (2001)`);
      const dest = join(folder, `${title} (2001).mkv`);

      const worker = await startWorker({ ...env, WORKER_QUEUES: 'scan' });
      running.push(worker);
      const asked = await send(port, 'POST', '/api/imports/manual?wait=0', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path: video, as: { kind: 'movie', title, year: 2001 } }),
      });
      expect(asked.status, asked.text).toBe(202);
      const id = json(asked).job.id as string;
      const finished = async () => ['completed', 'failed'].includes((json(await send(port, 'GET', `/api/jobs/scan/${id}`)) ?? {}).state);
      if (await killWhenCopying(worker, folder, finished, 30_000)) killed++;
      else problems.push(`trial ${i}: the kill never landed mid-copy`);

      if ((await sha256OrNull(video)) !== hash || (await sha256OrNull(sidecar)) !== subHash)
        problems.push(`trial ${i}: the download changed or went after the kill`);

      // The dead worker's locks, aged at once rather than waited out.
      await ageLocks([join(paths.data, 'scanner.lock')]);
      await fastForwardStalls(redisUrl, prefix, 'scan');
      const next = await startWorker({ ...env, WORKER_QUEUES: 'scan' });
      running.push(next);
      const record = await jobFinal(port, 'scan', id, 60_000);
      await next.stop('SIGTERM');
      if (record?.state !== 'completed') problems.push(`trial ${i}: the job ended ${record?.state ?? 'stuck'} ${record?.error ?? ''}`);

      if ((await sha256OrNull(dest)) !== hash) problems.push(`trial ${i}: the library copy is not whole`);
      if ((await sha256OrNull(join(folder, `${title} (2001).en.srt`))) !== subHash) problems.push(`trial ${i}: the sidecar is not beside it`);
      if ((await sha256OrNull(video)) !== hash) problems.push(`trial ${i}: the download did not stay (copy mode)`);
      const history = historyResponse.parse(json(await send(port, 'GET', `/api/history?source=${encodeURIComponent(video)}`))).items;
      if (history.length !== 1) problems.push(`trial ${i}: the history holds ${history.length} imports of it`);
      const left = await findLeftovers([paths.drive, paths.downloads]);
      if (left.length > 0) problems.push(`trial ${i}: half files left: ${left.join(', ')}`);
    }
    figures.set('trials', TRIALS);
    figures.set('killed mid-copy', killed);
    expect(problems).toEqual([]);
  }, 600_000);
});
