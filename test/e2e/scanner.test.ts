import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  statSync,
  utimesSync,
  watch,
  writeFileSync,
  writeSync,
  chmodSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { startProcess, waitFor, type RunningProcess, withTestKey, writeTestKey } from '@mo/test-support/service';

// The scanner as users run it: API and worker processes, a real Redis, downloads on tmpfs and the
// drive on the disk, so that every move really crosses filesystems.
const redisUrl = testRedisUrl();
const prefixes: string[] = [];
const running: RunningProcess[] = [];
const OLD = new Date('2024-05-01T12:00:00.000Z');
const OWNER = { PUID: '1234', PGID: '4321', UMASK: '027' };

let shm: string;
let disk: string;
let paths: { downloads: string; data: string; config: string; drive: string };
let configFile: string;
let skip: string | null = null;

try {
  shm = mkdtempSync('/dev/shm/mo-e2e-scan-');
  disk = mkdtempSync(join(tmpdir(), 'mo-e2e-scan-'));
  if (statSync(shm).dev === statSync(disk).dev) skip = `scanner e2e skipped: /dev/shm and ${tmpdir()} are one filesystem here`;
} catch (err) {
  skip = `scanner e2e skipped: /dev/shm is not usable (${(err as Error).message})`;
}
if (skip) console.warn(skip);

/** An API and a worker on their own queue prefix, sharing the install's config and data. */
async function startService(): Promise<{ base: string; worker: RunningProcess; api: RunningProcess }> {
  const prefix = uniquePrefix('scan');
  prefixes.push(prefix);
  const port = await freePort();
  const env = { MEDIA_ORGANIZER_CONFIG: configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: '127.0.0.1', ...OWNER };
  const api = startProcess('api', env);
  const worker = startProcess('worker', env);
  running.push(api, worker);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${base}/api/ready`)).ok, 20_000, 'the api');
  return { base, worker, api };
}

async function call(base: string, path: string, init?: RequestInit) {
  const res = await fetch(base + path, withTestKey(init));
  return { status: res.status, body: (await res.json()) as any };
}
const post = (base: string, path: string, body?: unknown) =>
  call(base, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

function put(rel: string, content: string | Buffer, mode = 0o644) {
  const p = join(paths.downloads, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, content);
  chmodSync(p, mode);
  utimesSync(p, OLD, OLD);
  return p;
}

function tree(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      const st = statSync(p);
      out.push(`${p} ${st.mode} ${st.size} ${st.mtimeMs}`);
      if (st.isDirectory()) walk(p);
    }
  };
  walk(root);
  return out.sort();
}

let svc: { base: string; worker: RunningProcess; api: RunningProcess };

beforeAll(async () => {
  if (skip) return;
  paths = { downloads: join(shm, 'downloads'), data: join(disk, 'data'), config: join(disk, 'config'), drive: join(disk, 'media', 'disk1') };
  for (const p of [paths.downloads, paths.data, paths.config, join(paths.drive, 'Movies'), join(paths.drive, 'TV')]) mkdirSync(p, { recursive: true });
  await writeTestKey(paths.data);
  configFile = join(paths.config, 'config.toml');
  writeFileSync(
    configFile,
    `[app]\nscan_interval_seconds = 0\nwatch = false\n\n[paths]\ndownloads = "${paths.downloads}"\nconfig = "${paths.config}"\ndata = "${paths.data}"\n\n` +
      `[[drives]]\nname = "disk1"\npath = "${paths.drive}"\n\n[library]\nsample_max_bytes = 1000\n`,
  );
  svc = await startService();
});

afterAll(async () => {
  for (const p of running) await p.stop('SIGKILL');
  for (const p of prefixes) await dropPrefix(redisUrl, p);
  if (shm) rmSync(shm, { recursive: true, force: true });
  if (disk) rmSync(disk, { recursive: true, force: true });
});

describe.skipIf(skip !== null)('the scanner end to end, across filesystems', () => {
  it('with dry_run on, plans everything, shows it in GET /api/downloads and changes nothing', async () => {
    put('Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.mkv', Buffer.alloc(4096, 1), 0o640);
    put('Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.en.forced.srt', 'subs');
    put('Show.Name.S01E01E02.720p.HDTV/Show.Name.S01E01E02.720p.HDTV.mkv', Buffer.alloc(4096, 2));
    put('Show.Name.S01E01E02.720p.HDTV/Sample/sample.mkv', Buffer.alloc(500, 3));
    put('Alien.1979.mkv.part', 'half');
    const before = [...tree(paths.downloads), ...tree(paths.drive)];

    const scan = await post(svc.base, '/api/scan');
    expect(scan.status).toBe(200);
    expect(scan.body.dry_run).toBe(true);
    expect(scan.body.moves).toEqual([]);
    expect(scan.body.plans.map((p: any) => p.destination)).toEqual([
      join(paths.drive, 'Movies/Heat (1995)/Heat (1995).mkv'),
      join(paths.drive, 'TV/Show Name/Season 01/Show Name - S01E01-E02.mkv'),
    ]);
    expect(scan.body.skipped.map((s: any) => s.reason).sort()).toEqual(['partial', 'sample']);
    expect([...tree(paths.downloads), ...tree(paths.drive)]).toEqual(before);

    const dl = await call(svc.base, '/api/downloads');
    expect(dl.body.files).toHaveLength(5);
    expect(dl.body.recent.map((r: any) => `${r.type}:${r.status}`)).toEqual(Array(3).fill('plan:planned'));
  });

  it('with dry_run off, moves each plan across filesystems with its sidecars, as PUID:PGID, keeping mode and mtime', async () => {
    expect((await post(svc.base, '/api/settings', { dry_run: false })).status).toBe(200);
    const scan = await post(svc.base, '/api/scan');
    expect(scan.status).toBe(200);
    expect(scan.body.moves.map((m: any) => [m.title, m.status])).toEqual([
      ['Heat', 'moved'],
      ['Show Name', 'moved'],
    ]);

    const movie = join(paths.drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    expect(statSync(movie)).toMatchObject({ size: 4096, uid: 1234, gid: 4321, mtimeMs: OLD.getTime() });
    expect(statSync(movie).mode & 0o7777).toBe(0o640);
    expect(existsSync(join(paths.drive, 'Movies/Heat (1995)/Heat (1995).en.forced.srt'))).toBe(true);
    // Folders it creates follow PUID, PGID and UMASK=027.
    const folder = statSync(join(paths.drive, 'TV/Show Name/Season 01'));
    expect({ uid: folder.uid, gid: folder.gid, mode: folder.mode & 0o777 }).toEqual({ uid: 1234, gid: 4321, mode: 0o750 });
    expect(existsSync(join(paths.downloads, 'Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.mkv'))).toBe(false);

    const dl = await call(svc.base, '/api/downloads');
    expect(dl.body.files.map((f: any) => f.path.slice(paths.downloads.length + 1)).sort()).toEqual([
      'Alien.1979.mkv.part',
      'Show.Name.S01E01E02.720p.HDTV/Sample/sample.mkv',
    ]);
    expect(dl.body.recent.slice(0, 3).map((r: any) => `${r.type}:${r.status}`)).toEqual(Array(3).fill('move:moved'));
  });

  it('a worker killed with SIGKILL mid-copy loses nothing; the next pass leaves no temp file and moves the file once', async () => {
    // 512 MiB, sparse on tmpfs, marked at both ends.
    const size = 512 * 1024 * 1024;
    const source = join(paths.downloads, 'Big.Movie.2012.2160p/Big.Movie.2012.2160p.mkv');
    mkdirSync(dirname(source), { recursive: true });
    const fd = openSync(source, 'w');
    ftruncateSync(fd, size);
    writeSync(fd, Buffer.from('head'), 0, 4, 0);
    writeSync(fd, Buffer.from('tail'), 0, 4, size - 4);
    closeSync(fd);
    utimesSync(source, OLD, OLD);
    const look = () => {
      const h = openSync(source, 'r');
      const buf = Buffer.alloc(8);
      readSync(h, buf, 0, 4, 0);
      readSync(h, buf, 4, 4, size - 4);
      closeSync(h);
      const st = statSync(source);
      return `${buf} ${st.size} ${st.mtimeMs} ${st.ino}`;
    };
    const before = look();
    const folder = join(paths.drive, 'Movies/Big Movie (2012)');
    mkdirSync(folder, { recursive: true });

    const killed = new Promise<void>((resolve) => {
      const w = watch(folder, (_e, name) => {
        if (name?.startsWith('.mo-partial-')) {
          svc.worker.proc.kill('SIGKILL');
          w.close();
          resolve();
        }
      });
    });
    expect((await post(svc.base, '/api/scan?wait=0')).status).toBe(202);
    await killed;
    await svc.worker.stop();
    expect(look()).toBe(before);
    expect(readdirSync(folder).filter((n) => !n.startsWith('.mo-partial-'))).toEqual([]);

    // The next pass, in a fresh worker (the dead one's job waits on BullMQ's stall timer in its own prefix).
    const next = await startService();
    const scan = await post(next.base, '/api/scan?wait=60');
    expect(scan.status).toBe(200);
    expect(scan.body.moves.map((m: any) => [m.title, m.status])).toEqual([['Big Movie', 'moved']]);
    expect(readdirSync(folder)).toEqual(['Big Movie (2012).mkv']);
    expect(statSync(join(folder, 'Big Movie (2012).mkv')).size).toBe(size);
    expect(existsSync(source)).toBe(false);
    expect(readdirSync(join(paths.data, 'scanner', 'transfers'))).toEqual([]);

    // Delivered again: nothing left to move, nothing fails.
    const again = await post(next.base, '/api/scan');
    expect(again.body.moves).toEqual([]);
    expect(again.body.plans).toEqual([]);
  }, 90_000);
});
