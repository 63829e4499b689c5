// Issue 26, item 4: a library scan of a hostile library, by a real worker process. `.nfo` files
// that are FIFOs, links to a FIFO, to devices and to a secret outside the library, and a link
// from the movies folder back to the drive: the scan ends, indexes TV where it is and none of the
// secret, and the worker still stops at once on SIGTERM (an open that waited on a FIFO held the
// worker for good, deaf to it).
import { spawnSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLibraryIndex } from '@mo/core';
import { apiJobOptions } from '@mo/shared';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { startProcess, tempInstall, waitFor, type RunningProcess, type TempInstall } from '@mo/test-support/service';
import { Figures } from './support/report.ts';

const figures = new Figures('hostile-library');
const redisUrl = testRedisUrl();
const prefix = uniquePrefix('hostile-lib');

let install: TempInstall;
let worker: RunningProcess | undefined;
let queue: Queue;

function mkfifo(path: string) {
  const out = spawnSync('mkfifo', [path], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`mkfifo ${path}: ${out.stderr}`);
}

beforeAll(async () => {
  install = await tempInstall('[app]\nscan_interval_seconds = 0\nwatch = false\n');
  const drive = install.paths.drive;
  const outside = join(install.root, 'outside');
  await mkdir(outside);
  await writeFile(join(outside, 'secret.nfo'), '<movie><title>Secret</title></movie>');
  mkfifo(join(outside, 'pipe'));
  const film = join(drive, 'Movies', 'Film (2001)');
  await mkdir(film);
  await writeFile(join(film, 'Film (2001).mkv'), Buffer.alloc(10));
  await symlink(join(outside, 'secret.nfo'), join(film, 'movie.nfo'));
  await symlink(join(outside, 'pipe'), join(film, 'pipe.nfo'));
  await symlink('/dev/zero', join(film, 'zero.nfo'));
  await symlink('/dev/null', join(film, 'null.nfo'));
  mkfifo(join(film, 'fifo.nfo'));
  await symlink('..', join(drive, 'Movies', 'Loop (2001)'));
  await mkdir(join(drive, 'TV', 'Show (2010)', 'Season 01'), { recursive: true });
  await writeFile(join(drive, 'TV', 'Show (2010)', 'Season 01', 'Show (2010) - S01E01.mkv'), Buffer.alloc(10));

  const env = { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix };
  worker = startProcess('worker', env);
  await waitFor(
    async () => {
      if (worker!.proc.exitCode !== null) throw new Error(`the worker exited: ${worker!.output().slice(-2000)}`);
      return worker!.output().includes('"msg":"worker started"');
    },
    30_000,
    'the worker to start',
  );
  const url = new URL(redisUrl);
  queue = new Queue('library', { connection: { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null }, prefix });
}, 60_000);

afterAll(async () => {
  figures.print();
  await worker?.stop('SIGKILL');
  await queue?.close();
  await dropPrefix(redisUrl, prefix);
  await install?.cleanup();
});

describe('a library scan of a hostile library', () => {
  it('ends with TV indexed where it is and nothing from outside; the worker then stops on SIGTERM within 10 s', async () => {
    const started = Date.now();
    const job = await queue.add('library-scan', { trigger: 'api' }, apiJobOptions('library-scan'));
    const state = await waitFor(
      async () => {
        const s = await queue.getJobState(job.id!);
        return s === 'completed' || s === 'failed' ? s : undefined;
      },
      20_000,
      'the library scan to end',
    ).catch((err: Error) => {
      throw new Error(`${err.message}: ${worker!.output().slice(-3000)}`);
    });
    figures.set('scan (ms)', Date.now() - started);
    expect(state, worker!.output().slice(-2000)).toBe('completed');

    const index = (await readLibraryIndex(install.paths.data))!;
    const rel = (p: string) => p.slice(install.paths.drive.length + 1);
    expect(index.items.map((i) => [rel(i.path), i.section, i.nfo])).toEqual([
      ['Movies/Film (2001)/Film (2001).mkv', 'movies', null],
      ['Movies/Film (2001)/movie.nfo', 'movies', null],
      ['TV/Show (2010)/Season 01/Show (2010) - S01E01.mkv', 'tv', null],
    ]);
    expect(index.skipped).toEqual([{ path: join(install.paths.drive, 'Movies', 'Loop (2001)'), error: 'ELOOP' }]);

    const stopping = Date.now();
    const code = await Promise.race([worker!.stop('SIGTERM'), new Promise((r) => setTimeout(() => r('still running'), 10_000))]);
    figures.set('SIGTERM to exit (ms)', Date.now() - stopping);
    expect(code).toBe(0);
  });
});
