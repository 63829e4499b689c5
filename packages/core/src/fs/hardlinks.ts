import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Config } from '@mo/shared';
import { realPathOf } from './real-path.ts';
import { locate, parseMountInfo, type Mount } from './mounts.ts';

// link(2) and rename(2) fail with EXDEV unless both paths lie on one mount, not merely on one
// filesystem: Docker's two bind mounts of one disk (`-v /srv/dl:/downloads -v /srv/media:/media`)
// share st_dev, yet every link or rename between them fails. So the answer is read from the mount
// table, and nothing is written into the user's folders to find out (dry run is the default).

/** Filesystems on which link(2) fails even within one mount: no hard links, or read-only by design. */
export const NO_HARDLINK_TYPES: ReadonlySet<string> = new Set(['vfat', 'msdos', 'exfat', 'iso9660', 'udf', 'squashfs', 'cramfs', 'erofs', 'romfs']);

/** Why a hard link from the downloads to a drive cannot work; null: it can. */
export type HardlinkProblem = 'separate-mounts' | 'different-filesystems' | 'no-hardlinks';

export interface HardlinkAnswer {
  problem: HardlinkProblem | null;
  /** The mount points holding each side, when the mount table was read; null in the fallback. */
  downloadsMount: string | null;
  driveMount: string | null;
  /** The filesystem type of the drive's mount, when known. */
  type: string | null;
}

/**
 * By the mount table: both real paths on one mount (the deepest mount point holding each, one mount
 * id) of a filesystem that has hard links. Null when the table holds neither side (not Linux, or
 * /proc unreadable), so that the caller falls back to the devices.
 */
export function hardlinkByMounts(mounts: readonly Mount[], downloads: string, drive: string): HardlinkAnswer | null {
  const from = locate(downloads, mounts);
  const to = locate(drive, mounts);
  if (from === null || to === null) return null;
  const problem: HardlinkProblem | null =
    from.mount.id !== to.mount.id
      ? from.device === to.device
        ? 'separate-mounts'
        : 'different-filesystems'
      : NO_HARDLINK_TYPES.has(to.mount.type)
        ? 'no-hardlinks'
        : null;
  return { problem, downloadsMount: from.mount.point, driveMount: to.mount.point, type: to.mount.type || null };
}

/** Without a mount table (macOS, BSD): one device is as close as can be told without writing. */
export function hardlinkByDevices(downloadsDev: number | null, driveDev: number | null): HardlinkAnswer {
  const same = downloadsDev !== null && downloadsDev === driveDev;
  return { problem: same ? null : 'different-filesystems', downloadsMount: null, driveMount: null, type: null };
}

export interface DriveHardlinks extends HardlinkAnswer {
  drive: string;
  /** The paths as configured. */
  downloadsPath: string;
  drivePath: string;
}

/** The log line for a drive a hard link cannot reach; null when it can. */
export function hardlinkWarning(d: DriveHardlinks): string | null {
  if (d.problem === null) return null;
  const side = (what: string, path: string, mount: string | null) => `${what} (${path}${mount === null ? '' : `, mount ${mount}`})`;
  const both = `${side('downloads', d.downloadsPath, d.downloadsMount)} and ${side(`drive ${d.drive}`, d.drivePath, d.driveMount)}`;
  const effect = 'hardlink mode will copy and move will copy then delete';
  if (d.problem === 'separate-mounts') return `${both} are separate mounts: ${effect}; mount one folder holding both (see README)`;
  if (d.problem === 'different-filesystems')
    return `${both} lie on different filesystems: ${effect}; a hard link needs the downloads on the drive's filesystem, mounted once with it (see README)`;
  return `drive ${d.drive} (${d.drivePath}) lies on ${d.type}, a filesystem without hard links: hardlink mode will copy`;
}

/**
 * The mount table and the devices together: one mount is needed (bind mounts share a device), and so
 * is one device (btrfs subvolumes under one mount each have their own, and link() between them fails
 * with EXDEV too). Without a table, the devices alone.
 */
export function hardlinkAnswer(
  mounts: readonly Mount[],
  downloads: string,
  drive: string,
  downloadsDev: number | null,
  driveDev: number | null,
): HardlinkAnswer {
  const byMounts = hardlinkByMounts(mounts, downloads, drive);
  if (byMounts === null) return hardlinkByDevices(downloadsDev, driveDev);
  if (byMounts.problem === null && hardlinkByDevices(downloadsDev, driveDev).problem !== null) return { ...byMounts, problem: 'different-filesystems' };
  return byMounts;
}

/** Device of the path or of its nearest existing folder above (a folder not made yet lands there). */
async function deviceOf(path: string): Promise<number | null> {
  for (let at = path; ; at = dirname(at)) {
    const st = await stat(at).catch(() => null);
    if (st) return st.dev;
    if (dirname(at) === at) return null;
  }
}

const realOf = (path: string) => realPathOf(path).catch(() => resolve(path));

/** For each drive, whether a hard link from the downloads folder reaches it. Never throws. */
export async function checkHardlinks(
  cfg: Pick<Config, 'paths' | 'drives'>,
  readMountInfo: () => Promise<string> = () => readFile('/proc/self/mountinfo', 'utf8'),
): Promise<DriveHardlinks[]> {
  const mounts = parseMountInfo(await readMountInfo().catch(() => ''));
  const downloads = await realOf(cfg.paths.downloads);
  const downloadsDev = await deviceOf(downloads);
  return Promise.all(
    cfg.drives.map(async (d) => {
      const drive = await realOf(d.path);
      const answer = hardlinkAnswer(mounts, downloads, drive, downloadsDev, await deviceOf(drive));
      return { ...answer, drive: d.name, downloadsPath: cfg.paths.downloads, drivePath: d.path };
    }),
  );
}

/**
 * `GET /api/ready` asks every 30 s: the answer is kept while the downloads folder and the drives
 * stay as they are, and for a minute at most, so that a disk mounted later is seen. A healthcheck
 * must not wait on a hung network mount either: past `limitMs` the answer is `{}` that once (no drive
 * named, rather than a guess), and the check goes on for the next request.
 */
export function hardlinkCache(opts: { check?: typeof checkHardlinks; ttlMs?: number; limitMs?: number; now?: () => number } = {}) {
  const { check = checkHardlinks, ttlMs = 60_000, limitMs = 2_000, now = () => Date.now() } = opts;
  let cached: { key: string; at: number; answer: Promise<Record<string, boolean>> } | null = null;
  return async (cfg: Pick<Config, 'paths' | 'drives'>): Promise<Record<string, boolean>> => {
    const key = JSON.stringify([cfg.paths.downloads, cfg.drives.map((d) => [d.name, d.path])]);
    if (!cached || cached.key !== key || now() - cached.at >= ttlMs) {
      const answer = check(cfg).then(
        (all) => Object.fromEntries(all.map((d) => [d.drive, d.problem === null])),
        () => ({}),
      );
      cached = { key, at: now(), answer };
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Record<string, boolean>>((r) => (timer = setTimeout(() => r({}), limitMs)));
    return Promise.race([cached.answer, late]).finally(() => clearTimeout(timer));
  };
}
