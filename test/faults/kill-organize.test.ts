// SIGKILL of a worker in the middle of POST /api/library/organize. A generated library of misnamed
// movies (a folder, its video and a subtitle each: two rename groups a movie) is scanned, all its
// renames asked for as one job, and the worker frozen and killed once the job's progress passes a
// point drawn at random. Right after the kill every file must be at its old name or its new one,
// none lost or doubled; a new worker then settles what the dead one left and takes the job over.
// Once it completes every file has its new name, the history holds each group once (mode rename,
// its paths as on disk), no journal note is left, and the preview proposes nothing more.
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { readFileSync, watch } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyResponse } from '@mo/shared';
import { dropPrefix, fastForwardStalls, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { buildApps, startProcess, waitFor, type RunningProcess } from '@mo/test-support/service';
import { rng, suiteSeed } from '@mo/test-support/prng';
import { ageLocks } from './support/files.ts';
import { json, send } from './support/http.ts';
import { jobFinal, jobRecord, sleep, startWorker } from './support/jobs.ts';
import { killInstall } from './support/cross-fs.ts';
import { Figures } from './support/report.ts';

const MOVIES = Number(process.env.FAULTS_ORGANIZE_MOVIES ?? 400);
const seed = suiteSeed();
const figures = new Figures('kill-organize');
const redisUrl = testRedisUrl();
const prefix = uniquePrefix('korganize');
const running: RunningProcess[] = [];
let root: string;

beforeAll(() => buildApps(), 120_000);

afterAll(async () => {
  figures.print();
  for (const p of running) await p.stop('SIGKILL');
  if (root) await rm(root, { recursive: true, force: true });
  await dropPrefix(redisUrl, prefix);
});

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Every file under `dir`: its content (unique here) → its path relative to `dir`. */
async function filesByContent(dir: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    const body = await readFile(path, 'utf8');
    out.set(body, [...(out.get(body) ?? []), relative(dir, path)]);
  }
  return out;
}

describe('SIGKILL during an organize job', () => {
  it(`a worker killed mid-way through renaming ${MOVIES} movies: every file at its old or new name, then the retry finishes, each rename once in the history`, async () => {
    root = await mkdtemp(join(tmpdir(), 'mo-kill-organize-'));
    const { paths, configFile } = await killInstall({ shm: root, disk: root }, 'move');
    const movies = join(paths.drive, 'Movies');
    // content → the names it may have: old folder and name, old folder new name (files run first), new folder and name.
    const allowed = new Map<string, string[]>();
    for (let i = 1; i <= MOVIES; i++) {
      const release = `Film.Number.${i}.2001.1080p.BluRay`;
      const folder = join(movies, release);
      await mkdir(folder, { recursive: true });
      const title = `Film Number ${i} (2001)`;
      for (const [ext, body] of [
        ['.mkv', `video ${i}`],
        ['.en.srt', `subtitle ${i}`],
      ] as const) {
        await writeFile(join(folder, `${release}.x264-GRP${ext}`), body);
        allowed.set(body, [`${release}/${release}.x264-GRP${ext}`, `${release}/${title}${ext}`, `${title}/${title}${ext}`]);
      }
    }

    const env = { MEDIA_ORGANIZER_CONFIG: configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix };
    const port = await freePort();
    const api = startProcess('api', { ...env, PORT: String(port), HOST: '127.0.0.1' }, { built: true });
    running.push(api);
    await waitFor(async () => (await send(port, 'GET', '/api/ready')).status === 200, 30_000, 'the api');
    const worker = await startWorker({ ...env, WORKER_QUEUES: 'library' });
    running.push(worker);
    const scanned = await send(port, 'POST', '/api/library/scan?wait=60');
    expect(scanned.status, scanned.text).toBe(200);
    await waitFor(async () => json(await send(port, 'GET', '/api/library/organize')).renames.length === MOVIES * 3, 10_000, 'the preview');

    await mkdir(join(paths.data, 'scanner/organize'), { recursive: true });
    const started = Date.now();
    const asked = await send(port, 'POST', '/api/library/organize?wait=0', { headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(asked.status, asked.text).toBe(202);
    const id = json(asked).job.id as string;
    // Past a point drawn at random, the worker is frozen the moment a group's note is seen before
    // its history item is written (renamed, or about to be, but not recorded): the window a kill
    // must not lose anything in.
    const aim = Math.floor((0.1 + 0.6 * rng(seed).next()) * MOVIES * 3);
    const notesDir = join(paths.data, 'scanner/organize');
    let killedAt: { done: number; total: number } | null = null;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(5)) {
      const progress = (await jobRecord(port, 'library', id))?.progress as { done: number; total: number } | undefined;
      if (progress && progress.done >= aim) {
        await new Promise<void>((resolve) => {
          const stop = () => {
            if (watcher.closed) return;
            watcher.closed = true;
            watcher.w.close();
            clearTimeout(timer);
            process.kill(worker.proc.pid!, 'SIGSTOP');
            resolve();
          };
          const watcher = {
            closed: false,
            w: watch(notesDir, (_e, name) => {
              if (!name?.endsWith('.json') || name.startsWith('.')) return;
              try {
                if ((JSON.parse(readFileSync(join(notesDir, name), 'utf8')) as { recorded: number | null }).recorded === null) stop();
              } catch {
                // Gone or being replaced: the next event tells.
              }
            }),
          };
          const timer = setTimeout(stop, 2000);
        });
        await worker.stop('SIGKILL');
        killedAt = progress;
        break;
      }
    }
    expect(killedAt, 'the kill landed before the job ended').not.toBeNull();
    expect(killedAt!.done).toBeLessThan(killedAt!.total);

    const problems: string[] = [];
    const check = async (when: string, only?: 'new') => {
      const found = await filesByContent(movies);
      for (const [body, names] of allowed) {
        const at = found.get(body) ?? [];
        if (at.length !== 1) problems.push(`${when}: ${body} found ${at.length} times (${at.join(', ')})`);
        else if (only === 'new' ? at[0] !== names[2] : !names.includes(at[0]!)) problems.push(`${when}: ${body} at ${at[0]}`);
      }
      if (found.size !== allowed.size) problems.push(`${when}: ${found.size} files where ${allowed.size} were`);
    };
    await check('after the kill');
    const notes = await Promise.all(
      (await readdir(notesDir).catch(() => [] as string[])).map(
        async (n) => JSON.parse(await readFile(join(notesDir, n), 'utf8')) as { recorded: number | null },
      ),
    );
    figures.set('groups renamed, not yet in the index, at the kill', notes.filter((n) => n.recorded !== null).length);
    figures.set('groups caught mid-way (noted, not recorded)', notes.filter((n) => n.recorded === null).length);

    await ageLocks([join(paths.data, 'scanner.lock')]);
    await fastForwardStalls(redisUrl, prefix, 'library');
    const next = await startWorker({ ...env, WORKER_QUEUES: 'library' });
    running.push(next);
    const record = await jobFinal(port, 'library', id, 30_000);
    figures.set('renames', MOVIES * 3);
    figures.set('killed at', `${killedAt!.done}/${killedAt!.total}`);
    figures.set('seconds to settle', (Date.now() - started) / 1000);
    expect(record?.state, record?.error ?? 'stuck').toBe('completed');
    await check('after the retry', 'new');

    const items = [];
    for (let before: number | null = null; ;) {
      const page = historyResponse.parse(json(await send(port, 'GET', `/api/history?limit=500${before ? `&before=${before}` : ''}`)));
      items.push(...page.items);
      if (page.next === null) break;
      before = page.next;
    }
    expect(items.every((h) => h.mode === 'rename' && h.method === 'rename' && h.undone_at === null)).toBe(true);
    expect(new Set(items.map((h) => h.source)).size, 'each group recorded once').toBe(items.length);
    expect(items).toHaveLength(MOVIES * 2);
    // The history matches the disk: a folder's record names its new path, a file's the path it had under the folder's old name.
    for (const h of items) {
      const release = relative(movies, h.source).split('/')[0]!;
      const title = relative(movies, h.destination)
        .split('/')
        .at(-1)!
        .replace(/\.mkv$/, '');
      const onDisk = h.sidecars.length === 0 ? h.destination : join(movies, title, relative(join(movies, release), h.destination));
      if (!(await exists(onDisk))) problems.push(`history ${h.id}: ${onDisk} is not there`);
      if (await exists(h.source)) problems.push(`history ${h.id}: ${h.source} is still there`);
    }
    expect(await readdir(join(paths.data, 'scanner/organize')).catch(() => [])).toEqual([]);
    await waitFor(async () => json(await send(port, 'GET', '/api/library/organize')).renames.length === 0, 10_000, 'the preview to empty');
    expect(problems).toEqual([]);
  }, 120_000);
});
