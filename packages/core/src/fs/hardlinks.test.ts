import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMountInfo } from './mounts.ts';
import { checkHardlinks, hardlinkAnswer, hardlinkByDevices, hardlinkByMounts, hardlinkCache, hardlinkWarning, type DriveHardlinks } from './hardlinks.ts';

const ROOT = '27 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw';

/** The answer for one mount table, the downloads and a drive. */
const judge = (lines: string[], downloads: string, drive: string) => hardlinkByMounts(parseMountInfo(lines.join('\n')), downloads, drive);

describe('whether a hard link reaches a drive, by the mount table', () => {
  it('refuses two bind mounts of one disk (the old compose file): same device, two mounts', () => {
    const table = [
      ROOT,
      '41 27 8:17 /downloads /downloads rw,relatime - ext4 /dev/sdb1 rw',
      '42 27 8:17 /media/disk1 /media/disk1 rw,relatime - ext4 /dev/sdb1 rw',
    ];
    expect(judge(table, '/downloads', '/media/disk1')).toEqual({
      problem: 'separate-mounts',
      downloadsMount: '/downloads',
      driveMount: '/media/disk1',
      type: 'ext4',
    });
    expect(judge(table, '/downloads/complete', '/media/disk1/Movies')?.problem).toBe('separate-mounts');
  });

  it('allows one mount holding both (the TRaSH layout), however deep each folder lies', () => {
    const table = [ROOT, '41 27 8:17 /srv/data /data rw,relatime - ext4 /dev/sdb1 rw'];
    expect(judge(table, '/data/torrents', '/data/media')).toEqual({ problem: null, downloadsMount: '/data', driveMount: '/data', type: 'ext4' });
    expect(judge(table, '/data/usenet/complete/tv', '/data/media')?.problem).toBeNull();
  });

  it('reads mount points with escaped spaces, and does not take /data for /data area', () => {
    const table = [
      ROOT,
      '41 27 8:17 /my\\040data /my\\040data rw - ext4 /dev/sdb1 rw',
      '42 27 8:17 /other /data rw - ext4 /dev/sdb1 rw',
      '43 27 8:17 /area /data\\040area rw - ext4 /dev/sdb1 rw',
    ];
    expect(judge(table, '/my data/torrents', '/my data/media')).toMatchObject({ problem: null, downloadsMount: '/my data' });
    expect(judge(table, '/data/torrents', '/data area/media')).toMatchObject({ problem: 'separate-mounts', downloadsMount: '/data', driveMount: '/data area' });
  });

  it('tells different filesystems from separate mounts of one', () => {
    const table = [ROOT, '41 27 8:17 / /data rw - ext4 /dev/sdb1 rw', '42 41 8:33 / /data/media rw - xfs /dev/sdc1 rw'];
    expect(judge(table, '/data/torrents', '/data/media')).toEqual({
      problem: 'different-filesystems',
      downloadsMount: '/data',
      driveMount: '/data/media',
      type: 'xfs',
    });
    // Both on the root filesystem, one mount: no table line but `/` needed.
    expect(judge([ROOT], '/srv/downloads', '/srv/media')?.problem).toBeNull();
  });

  it('takes the last of two mounts on one point, as the kernel shows the newer one', () => {
    const table = [
      ROOT,
      '41 27 8:17 / /data rw - ext4 /dev/sdb1 rw',
      '50 27 0:60 / /data rw - tmpfs tmpfs rw',
      '51 27 8:17 /media /data/media rw - ext4 /dev/sdb1 rw',
    ];
    expect(judge(table, '/data/torrents', '/data/media')).toMatchObject({ problem: 'different-filesystems', downloadsMount: '/data', type: 'ext4' });
    expect(judge(table.slice(0, 3), '/data/torrents', '/data/media')).toMatchObject({ problem: null, type: 'tmpfs' });
  });

  it('refuses filesystems that hold no hard links, even within one mount', () => {
    for (const type of ['vfat', 'exfat', 'squashfs']) {
      expect(judge([`41 1 8:17 / / rw - ${type} /dev/sdb1 rw`], '/downloads', '/media/disk1'), type).toMatchObject({ problem: 'no-hardlinks', type });
    }
    for (const type of ['ext4', 'xfs', 'btrfs', 'zfs', 'nfs4', 'fuse.mergerfs', 'overlay', 'ntfs3']) {
      expect(judge([`41 1 8:17 / / rw - ${type} /dev/sdb1 rw`], '/downloads', '/media/disk1')?.problem, type).toBeNull();
    }
  });

  it('knows nothing from an empty or foreign table, so the devices decide', () => {
    expect(judge([], '/downloads', '/media')).toBeNull();
    expect(judge(['not a mount line', '41 27 8:17 / /data rw - ext4 /dev/sdb1 rw'], '/downloads', '/data/media')).toBeNull();
    expect(hardlinkByDevices(2049, 2049).problem).toBeNull();
    expect(hardlinkByDevices(2049, 2065).problem).toBe('different-filesystems');
    expect(hardlinkByDevices(null, 2049).problem).toBe('different-filesystems');
  });
});

describe('the mount table and the devices together', () => {
  const table = parseMountInfo([ROOT, '41 27 0:45 / /data rw - btrfs /dev/sdb1 rw', '42 27 0:45 / /other rw - btrfs /dev/sdb1 rw'].join('\n'));

  it('needs one mount and one device: btrfs subvolumes under one mount have a device each', () => {
    expect(hardlinkAnswer(table, '/data/torrents', '/data/media', 40, 40).problem).toBeNull();
    expect(hardlinkAnswer(table, '/data/torrents', '/data/media', 40, 41)).toMatchObject({
      problem: 'different-filesystems',
      downloadsMount: '/data',
      driveMount: '/data',
    });
    // One device is not enough where the mounts differ.
    expect(hardlinkAnswer(table, '/data/torrents', '/other/media', 40, 40).problem).toBe('separate-mounts');
  });

  it('falls back to the devices without a table', () => {
    expect(hardlinkAnswer([], '/a', '/b', 40, 40)).toEqual({ problem: null, downloadsMount: null, driveMount: null, type: null });
    expect(hardlinkAnswer([], '/a', '/b', 40, 41).problem).toBe('different-filesystems');
  });
});

describe('the start-up warning', () => {
  const base: DriveHardlinks = {
    drive: 'disk1',
    downloadsPath: '/downloads',
    drivePath: '/media/disk1',
    problem: null,
    downloadsMount: '/downloads',
    driveMount: '/media/disk1',
    type: 'ext4',
  };

  it('names both folders and both mounts, what the modes will do, and the fix', () => {
    expect(hardlinkWarning(base)).toBeNull();
    expect(hardlinkWarning({ ...base, problem: 'separate-mounts' })).toBe(
      'downloads (/downloads, mount /downloads) and drive disk1 (/media/disk1, mount /media/disk1) are separate mounts: hardlink mode will copy and move will copy then delete; mount one folder holding both (see README)',
    );
    expect(hardlinkWarning({ ...base, problem: 'different-filesystems', downloadsMount: null, driveMount: null })).toBe(
      "downloads (/downloads) and drive disk1 (/media/disk1) lie on different filesystems: hardlink mode will copy and move will copy then delete; a hard link needs the downloads on the drive's filesystem, mounted once with it (see README)",
    );
    expect(hardlinkWarning({ ...base, problem: 'no-hardlinks', type: 'exfat' })).toBe(
      'drive disk1 (/media/disk1) lies on exfat, a filesystem without hard links: hardlink mode will copy',
    );
  });
});

describe('checking the configured folders', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mo-hardlinks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const downloads = join(dir, 'downloads');
  mkdirSync(downloads);
  const cfg = (drives: { name: string; path: string }[]) => ({ paths: { downloads, config: dir, data: dir }, drives });

  it('answers true for a drive beside the downloads, also one not made yet, from this machine’s own mount table', async () => {
    mkdirSync(join(dir, 'disk1'));
    const all = await checkHardlinks(
      cfg([
        { name: 'disk1', path: join(dir, 'disk1') },
        { name: 'later', path: join(dir, 'not', 'yet') },
      ]),
    );
    expect(all.map((d) => [d.drive, d.problem])).toEqual([
      ['disk1', null],
      ['later', null],
    ]);
    expect(all[0]!.downloadsMount).not.toBeNull();
  });

  it.skipIf(!existsSync('/dev/shm'))('falls back to the devices when the mount table cannot be read', async () => {
    const shm = mkdtempSync('/dev/shm/mo-hardlinks-');
    try {
      const unreadable = () => Promise.reject(new Error('EACCES'));
      const all = await checkHardlinks(
        cfg([
          { name: 'near', path: join(dir, 'near') },
          { name: 'shm', path: shm },
        ]),
        unreadable,
      );
      expect(all.map((d) => [d.drive, d.problem, d.downloadsMount])).toEqual([
        ['near', null, null],
        ['shm', 'different-filesystems', null],
      ]);
      // With the table, /dev/shm is a mount of its own.
      expect((await checkHardlinks(cfg([{ name: 'shm', path: shm }])))[0]).toMatchObject({ problem: 'different-filesystems', driveMount: '/dev/shm' });
    } finally {
      rmSync(shm, { recursive: true, force: true });
    }
  });

  it('keeps the answer while the folders stay and for a minute, then asks again', async () => {
    let calls = 0;
    let clock = 0;
    let fail = false;
    const check: typeof checkHardlinks = async (c) => {
      calls++;
      if (fail) throw new Error('boom');
      return c.drives.map((d) => ({
        drive: d.name,
        downloadsPath: '',
        drivePath: d.path,
        problem: d.name === 'b' ? 'separate-mounts' : null,
        downloadsMount: null,
        driveMount: null,
        type: null,
      }));
    };
    const ask = hardlinkCache({ check, now: () => clock });
    const one = cfg([{ name: 'a', path: '/a' }]);
    expect(await ask(one)).toEqual({ a: true });
    expect(await ask(cfg([{ name: 'a', path: '/a' }]))).toEqual({ a: true });
    expect(calls).toBe(1);
    expect(
      await ask(
        cfg([
          { name: 'a', path: '/a' },
          { name: 'b', path: '/b' },
        ]),
      ),
    ).toEqual({ a: true, b: false });
    expect(calls).toBe(2);
    clock = 60_000;
    fail = true;
    expect(
      await ask(
        cfg([
          { name: 'a', path: '/a' },
          { name: 'b', path: '/b' },
        ]),
      ),
    ).toEqual({});
    expect(calls).toBe(3);
  });

  it('answers {} rather than wait past its limit on a hung mount, and keeps the check for the next request', async () => {
    let release: (v: DriveHardlinks[]) => void = () => {};
    const hung: typeof checkHardlinks = () => new Promise((r) => (release = r));
    const ask = hardlinkCache({ check: hung, limitMs: 50 });
    const one = cfg([{ name: 'a', path: '/a' }]);
    const started = Date.now();
    expect(await ask(one)).toEqual({});
    expect(Date.now() - started).toBeLessThan(1_000);
    release([{ drive: 'a', downloadsPath: '', drivePath: '/a', problem: null, downloadsMount: null, driveMount: null, type: null }]);
    expect(await ask(one)).toEqual({ a: true });
  });
});

// A user and mount namespace of its own (`unshare -rm`) lets an unprivileged user bind-mount;
// where the kernel or a confining profile forbids it, this is skipped.
const canUnshare = process.platform === 'linux' && spawnSync('unshare', ['-rm', 'sh', '-c', 'mount --bind "$0" "$0"', tmpdir()]).status === 0;

describe.skipIf(!canUnshare)('a real link between bind mounts, in a private mount namespace', () => {
  const root = mkdtempSync(join(tmpdir(), 'mo-exdev-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const fixture = join(dirname(fileURLToPath(import.meta.url)), 'test-fixtures', 'hardlink-probe.mts');
  const host = join(root, 'host');
  for (const d of ['host/downloads', 'host/media', 'mnt/downloads', 'mnt/media', 'mnt/data']) mkdirSync(join(root, d), { recursive: true });

  /** Mounts `binds` ([source, target] pairs) in a fresh namespace, then runs the probe there. */
  const inNamespace = (binds: [string, string][], downloads: string, drive: string) => {
    const mounts = binds.map(([s, t]) => `mount --bind '${s}' '${t}'`).join(' && ');
    const r = spawnSync(
      'unshare',
      ['-rm', '--propagation', 'private', 'sh', '-c', `${mounts} && exec "$0" --import tsx "$1" "$2" "$3"`, process.execPath, fixture, downloads, drive],
      {
        encoding: 'utf8',
      },
    );
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { problem: string | null; downloadsMount: string; driveMount: string; link: string; rename: string };
  };

  it('says false for two bind mounts of one filesystem, where link and rename fail with EXDEV', () => {
    const [downloads, media] = [join(root, 'mnt/downloads'), join(root, 'mnt/media')];
    const r = inNamespace(
      [
        [join(host, 'downloads'), downloads],
        [join(host, 'media'), media],
      ],
      downloads,
      media,
    );
    expect(r).toEqual({ problem: 'separate-mounts', downloadsMount: downloads, driveMount: media, link: 'EXDEV', rename: 'EXDEV' });
  });

  it('says true for one bind mount holding both, where they work', () => {
    const data = join(root, 'mnt/data');
    const r = inNamespace([[host, data]], join(data, 'downloads'), join(data, 'media'));
    expect(r).toEqual({ problem: null, downloadsMount: data, driveMount: data, link: 'ok', rename: 'ok' });
  });
});
