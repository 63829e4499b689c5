// A job's record read while the job finishes: CONTRACT.md gives a finished job its outcome
// ("result" once completed, "error" once failed). Readers poll GET /api/jobs/:queue/:id as fast as
// they can while jobs complete and fail under them; a record that says "failed" without an error,
// or "completed" without a result, would tell a client that a job failed for no reason.
import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '@mo/core/test-fixtures';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { buildApps, startProcess, tempInstall, waitFor, type RunningProcess, type TempInstall } from '@mo/test-support/service';
import { json, send } from './support/http.ts';
import { Figures } from './support/report.ts';

const JOBS = Number(process.env.FAULTS_RECORD_JOBS ?? 40);
const READERS = 6;
const figures = new Figures('job-records');
const redisUrl = testRedisUrl();
const prefix = uniquePrefix('records');
let install: TempInstall;
let api: RunningProcess;
let worker: RunningProcess;
let port: number;
let clip: string;

beforeAll(async () => {
  buildApps();
  install = await tempInstall('[app]\ndry_run = false\nscan_interval_seconds = 0\nwatch = false\n');
  clip = join(install.root, 'clip.mkv');
  await makeClip(clip, { seconds: 2 });
  port = await freePort();
  const env = { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: '127.0.0.1' };
  api = startProcess('api', env, { built: true });
  worker = startProcess('worker', { ...env, WORKER_QUEUES: 'scan,media' }, { built: true });
  await waitFor(async () => (await send(port, 'GET', '/api/ready')).status === 200, 30_000, 'the api');
  await waitFor(async () => worker.output().includes('"msg":"worker started"'), 30_000, 'the worker');
}, 120_000);

afterAll(async () => {
  figures.print();
  await api?.stop('SIGKILL');
  await worker?.stop('SIGKILL');
  await dropPrefix(redisUrl, prefix);
  await install?.cleanup();
});

/** Reads the record as fast as READERS clients can until it has been final for 20 reads each. */
async function watchRecord(queue: string, id: string) {
  const seen = { reads: 0, finalReads: 0, bad: [] as string[], final: '' };
  await Promise.all(
    Array.from({ length: READERS }, async () => {
      const deadline = Date.now() + 20_000;
      for (let after = 0; after < 20 && Date.now() < deadline;) {
        const a = await send(port, 'GET', `/api/jobs/${queue}/${id}`);
        seen.reads++;
        const r = json(a);
        if (a.status !== 200 || !r) continue;
        if (r.state === 'completed' || r.state === 'failed') {
          after++;
          seen.finalReads++;
          seen.final = r.state;
          if (r.state === 'failed' && !r.error) seen.bad.push(`${queue}/${id}: "failed" with error ${JSON.stringify(r.error)}`);
          if (r.state === 'completed' && (r.result === null || r.result === undefined))
            seen.bad.push(`${queue}/${id}: "completed" with result ${JSON.stringify(r.result)}`);
          if (r.state === 'completed' && !r.finished_at) seen.bad.push(`${queue}/${id}: "completed" without finished_at`);
        }
      }
    }),
  );
  return seen;
}

describe('job records read while jobs finish', () => {
  it(`${JOBS} jobs that complete and ${JOBS} that fail, each read by ${READERS} clients in a loop: a finished job always carries its result or its error`, async () => {
    const bad: string[] = [];
    let reads = 0;
    let finalReads = 0;
    const outcomes: Record<string, number> = {};
    const ids: [string, string][] = [];
    for (let k = 0; k < JOBS; k++) {
      // Completes: a scanner pass over a downloads folder with nothing to move.
      const scan = await send(port, 'POST', '/api/scan?wait=0');
      const a = await watchRecord('scan', String(json(scan).job.id));
      ids.push(['scan', String(json(scan).job.id)]);
      // Fails: a remux of a file that is gone by the time the worker looks (404, not retried).
      const file = join(install.paths.downloads, `Gone ${k}.mkv`);
      await copyFile(clip, file);
      const tracks = await send(port, 'POST', '/api/media/tracks?wait=0', {
        body: JSON.stringify({ path: file, action: 'remove', stream: 2 }),
        headers: { 'content-type': 'application/json' },
      });
      expect(tracks.status, tracks.text).toBe(202);
      await rm(file);
      const b = await watchRecord('media', String(json(tracks).job.id));
      ids.push(['media', String(json(tracks).job.id)]);
      for (const s of [a, b]) {
        reads += s.reads;
        finalReads += s.finalReads;
        bad.push(...s.bad);
        outcomes[s.final] = (outcomes[s.final] ?? 0) + 1;
      }
    }
    // Read once more, well after: what stays wrong is not a race.
    const lasting: string[] = [];
    for (const [q, id] of ids) {
      const r = json(await send(port, 'GET', `/api/jobs/${q}/${id}`));
      if ((r.state === 'failed' && !r.error) || (r.state === 'completed' && r.result == null)) lasting.push(`${q}/${id}: ${JSON.stringify(r).slice(0, 300)}`);
    }
    figures.set('jobs watched (completed / failed)', `${outcomes.completed ?? 0} / ${outcomes.failed ?? 0}`);
    figures.set('record reads / reads of a finished job', `${reads} / ${finalReads}`);
    figures.set('finished records without their result or error', bad.length);
    if (bad.length) figures.set('  first ones', bad.slice(0, 3).join(' | '));
    figures.set('  of which still wrong when read again later', lasting.length);
    if (lasting.length) figures.set('  lasting', lasting.slice(0, 3).join(' | '));
    expect(outcomes.completed).toBe(JOBS);
    expect(outcomes.failed).toBe(JOBS);
    expect(bad).toEqual([]);
  }, 300_000);
});
