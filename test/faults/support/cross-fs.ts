import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTestKey } from '@mo/test-support/service';

export interface CrossFilesystem {
  /** A folder on tmpfs (/dev/shm). */
  shm: string;
  /** A folder on the disk the temp folder is on. */
  disk: string;
  /** Why trials that need a copy across filesystems cannot run here; null when they can. */
  skip: string | null;
  cleanup(): void;
}

/**
 * Two folders on different filesystems, so that a move between them is a verified copy (the long
 * window a kill must land in). `what` names the trials in the skip reason.
 */
export function crossFilesystem(name: string, what: string): CrossFilesystem {
  let skip: string | null = null;
  let shm = '';
  let disk = '';
  try {
    shm = mkdtempSync(`/dev/shm/mo-faults-${name}-`);
    disk = mkdtempSync(join(tmpdir(), `mo-faults-${name}-`));
    if (statSync(shm).dev === statSync(disk).dev) skip = `${what} skipped: /dev/shm and ${tmpdir()} are one filesystem here, so nothing would copy`;
  } catch (err) {
    skip = `${what} skipped: /dev/shm is not usable (${(err as Error).message})`;
  }
  if (skip) console.warn(skip);
  return {
    shm,
    disk,
    skip,
    cleanup() {
      if (shm) rmSync(shm, { recursive: true, force: true });
      if (disk) rmSync(disk, { recursive: true, force: true });
    },
  };
}

export interface KillInstall {
  paths: { downloads: string; data: string; config: string; drive: string };
  configFile: string;
}

/**
 * An install for kill trials: downloads under `shm`, the data, config and drive (with `Movies` and
 * `TV`) under `disk`, the test key written, and a config of the transfer mode that runs at once
 * (dry run off, no periodic pass, no watcher, nothing left to settle).
 */
export async function killInstall(root: { shm: string; disk: string }, transfer: 'move' | 'hardlink' | 'copy'): Promise<KillInstall> {
  const paths = {
    downloads: join(root.shm, 'downloads'),
    data: join(root.disk, 'data'),
    config: join(root.disk, 'config'),
    drive: join(root.disk, 'media', 'disk1'),
  };
  for (const p of [paths.downloads, paths.data, paths.config, join(paths.drive, 'Movies'), join(paths.drive, 'TV')]) await mkdir(p, { recursive: true });
  await writeTestKey(paths.data);
  const configFile = join(paths.config, 'config.toml');
  await writeFile(
    configFile,
    `[app]\ndry_run = false\nscan_interval_seconds = 0\nwatch = false\nsettle_seconds = 0\n\n[paths]\ndownloads = "${paths.downloads}"\nconfig = "${paths.config}"\ndata = "${paths.data}"\n\n` +
      `[[drives]]\nname = "disk1"\npath = "${paths.drive}"\n\n[library]\nsample_max_bytes = 0\ntransfer = "${transfer}"\n`,
  );
  return { paths, configFile };
}
