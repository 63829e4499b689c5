import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { startProcess, tempInstall, waitFor, withTestKey, type RunningProcess, type TempInstall } from '@mo/test-support/service';

// The worker as users run it, watching the downloads folder: nobody calls POST /api/scan and the
// periodic pass is a day away, so only the watch can import what lands.
const redisUrl = testRedisUrl();
const prefix = uniquePrefix('watch');
const SETTLE_SECONDS = 2;
let install: TempInstall;
let api: RunningProcess;
let worker: RunningProcess;
let base: string;
let scan: Queue;

/** Every scanner pass the queue holds, by what asked for it. */
async function passTriggers(): Promise<string[]> {
  const jobs = await scan.getJobs(['completed', 'failed', 'active', 'waiting', 'delayed', 'prioritized']);
  return jobs.map((j) => j.data.trigger as string).sort();
}

async function idle(): Promise<boolean> {
  const counts = await scan.getJobCounts('active', 'waiting', 'prioritized');
  return Object.values(counts).every((n) => n === 0);
}

beforeAll(async () => {
  install = await tempInstall(
    `[app]\ndry_run = false\nscan_interval_seconds = 86400\nsettle_seconds = ${SETTLE_SECONDS}\n\n[library]\nsample_max_bytes = 1000\n`,
  );
  const port = await freePort();
  const env = { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: '127.0.0.1' };
  api = startProcess('api', env);
  worker = startProcess('worker', env);
  base = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${base}/api/ready`, withTestKey())).ok, 20_000, 'the api');
  scan = new Queue('scan', { connection: { host: new URL(redisUrl).hostname, port: Number(new URL(redisUrl).port || 6379) }, prefix });
  // Arming the watch asks for one pass, for what arrived while nobody watched.
  await waitFor(async () => (await passTriggers()).includes('watch') && (await idle()), 20_000, 'the pass of arming the watch');
}, 60_000);

afterAll(async () => {
  await scan?.close();
  await worker?.stop('SIGKILL');
  await api?.stop('SIGKILL');
  await dropPrefix(redisUrl, prefix);
  await install?.cleanup();
});

describe('watching the downloads folder', () => {
  it('imports a finished download within seconds of settle_seconds, with no API call and no periodic pass due', async () => {
    const before = await passTriggers();
    const wrote = Date.now();
    mkdirSync(join(install.paths.downloads, 'Heat.1995.1080p.BluRay'));
    writeFileSync(join(install.paths.downloads, 'Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.mkv'), Buffer.alloc(4096, 1));
    const dest = join(install.paths.drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    await waitFor(async () => existsSync(dest), (SETTLE_SECONDS + 8) * 1000, 'the import');
    const took = Date.now() - wrote;
    expect(took).toBeGreaterThanOrEqual(SETTLE_SECONDS * 1000);
    expect(took).toBeLessThan((SETTLE_SECONDS + 6) * 1000);
    expect(await passTriggers()).toEqual([...before, 'watch'].sort());
    expect(worker.output()).toContain('watching the downloads folder');
  }, 30_000);

  it('a season pack of 24 files written one by one gives one pass that imports them all', async () => {
    await waitFor(idle, 10_000, 'the queue to be idle');
    const before = await passTriggers();
    const folder = join(install.paths.downloads, 'Show.Name.S01.1080p.WEB');
    mkdirSync(folder);
    for (let e = 1; e <= 24; e++) {
      writeFileSync(join(folder, `Show.Name.S01E${String(e).padStart(2, '0')}.1080p.WEB.mkv`), Buffer.alloc(2048, e));
      await new Promise((r) => setTimeout(r, 40));
    }
    const season = join(install.paths.drive, 'TV/Show Name/Season 01');
    await waitFor(async () => existsSync(season) && existsSync(join(season, 'Show Name - S01E24.mkv')), (SETTLE_SECONDS + 10) * 1000, 'the season');
    await waitFor(idle, 10_000, 'the pass to finish');
    for (let e = 1; e <= 24; e++) expect(existsSync(join(season, `Show Name - S01E${String(e).padStart(2, '0')}.mkv`))).toBe(true);
    // A moment more: a pass per file would have queued by now.
    await new Promise((r) => setTimeout(r, (SETTLE_SECONDS + 2) * 1000));
    expect(await passTriggers()).toEqual([...before, 'watch'].sort());
  }, 40_000);
});
