import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { locate, parseMountInfo } from '../fs/mounts.ts';
import { heldByMount, libraryFolderHolding } from './downloads-in-library.ts';

const MOUNTS = [
  '22 27 0:21 / /proc rw,relatime - proc proc rw',
  '27 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw',
  '40 27 8:17 / /srv/media rw,relatime - ext4 /dev/sdb1 rw',
  // Docker's `-v /srv/media:/media -v /srv/media/Movies/downloads:/downloads`
  '41 27 8:17 / /media rw,relatime - ext4 /dev/sdb1 rw',
  '42 27 8:17 /Movies/downloads /downloads rw,relatime - ext4 /dev/sdb1 rw',
  '43 27 8:17 /dl\\040area /other\\040dl rw,relatime - ext4 /dev/sdb1 rw',
  '44 42 0:50 / /downloads/tmp rw - tmpfs tmpfs rw',
  'not a mount line',
].join('\n');

describe('where a path lies on its filesystem', () => {
  const mounts = parseMountInfo(MOUNTS);

  it('reads each mount, with the escapes of spaces undone', () => {
    expect(mounts).toHaveLength(7);
    expect(mounts[5]).toEqual({ id: '43', device: '8:17', root: '/dl area', point: '/other dl', type: 'ext4' });
    expect(mounts[6]!.type).toBe('tmpfs');
  });

  it('by the deepest mount that holds it, a bind mount of a folder included', () => {
    const at = (p: string) => {
      const l = locate(p, mounts);
      return l && { device: l.device, path: l.path };
    };
    expect(at('/downloads/Heat.1995')).toEqual({ device: '8:17', path: '/Movies/downloads/Heat.1995' });
    expect(at('/downloads')).toEqual({ device: '8:17', path: '/Movies/downloads' });
    expect(at('/media/Movies')).toEqual({ device: '8:17', path: '/Movies' });
    expect(at('/downloads/tmp/x')).toEqual({ device: '0:50', path: '/x' });
    expect(at('/other dl/a')).toEqual({ device: '8:17', path: '/dl area/a' });
    // `/mediax` is not under `/media`
    expect(at('/mediax/a')).toEqual({ device: '8:1', path: '/mediax/a' });
    expect(locate('/x', [])).toBeNull();
  });
});

describe('a downloads folder held by a library folder, by mount', () => {
  const lib = (p: string) => ({ path: p, real: p });

  it("finds the bind mount of a library's subfolder (Docker: /srv/media:/media, /srv/media/Movies/downloads:/downloads)", () => {
    const mounts = parseMountInfo(MOUNTS);
    expect(heldByMount('/downloads/complete', [lib('/media/TV'), lib('/media/Movies')], mounts)).toBe('/media/Movies');
    expect(heldByMount('/other dl', [lib('/media/Movies')], mounts)).toBeNull();
    // a downloads folder under a mount of a whole filesystem: its own parent folders tell
    expect(heldByMount('/media/Movies/x', [lib('/media/Movies')], mounts)).toBeNull();
  });

  it("says nothing on NFS, which writes / as every mount's root and shares a device among exports", () => {
    const nfs = parseMountInfo(
      [
        '27 1 8:1 / / rw - ext4 /dev/sda1 rw',
        '50 27 0:53 / /drives/nas/Movies rw - nfs4 nas:/volume1/Movies rw',
        '51 27 0:53 / /downloads rw - nfs4 nas:/volume1/downloads rw',
        '52 27 0:53 /TV /mnt/media-tv rw - nfs nas:/volume1/media rw',
        '53 27 0:53 /TV /mnt/dl-tv rw - nfs nas:/volume1/downloads rw',
      ].join('\n'),
    );
    expect(heldByMount('/downloads/complete', [lib('/drives/nas/Movies')], nfs)).toBeNull();
    expect(heldByMount('/mnt/dl-tv', [lib('/mnt/media-tv')], nfs)).toBeNull();
  });
});

describe('libraryFolderHolding', () => {
  const root = mkdtempSync(join(tmpdir(), 'mo-dl-in-lib-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const movies = join(root, 'drive', 'Movies');
  const tv = join(root, 'drive', 'TV');
  for (const d of [join(movies, 'incoming'), tv, join(root, 'downloads'), join(root, 'mnt')]) mkdirSync(d, { recursive: true });

  it('finds the library folder a downloads folder is, lies in, or reaches through a link; none for a folder beside', async () => {
    expect(await libraryFolderHolding(movies, [movies, tv])).toBe(movies);
    expect(await libraryFolderHolding(join(movies, 'incoming'), [movies, tv])).toBe(movies);
    symlinkSync(tv, join(root, 'tv-link'));
    expect(await libraryFolderHolding(join(root, 'tv-link'), [movies, tv])).toBe(tv);
    expect(await libraryFolderHolding(join(root, 'downloads'), [movies, tv, join(root, 'gone')])).toBeNull();
    expect(await libraryFolderHolding(join(root, 'gone'), [movies, tv])).toBeNull();
  });

  // A private mount namespace and a bind mount need root (or user namespaces) and no confining
  // profile; where they are not allowed, this is skipped.
  const canMount = process.platform === 'linux' && spawnSync('unshare', ['-m', 'sh', '-c', `mount --bind "${root}" "${root}"`]).status === 0;
  it.skipIf(!canMount)("finds a bind mount of a folder inside a library folder, which the mount point's parents never show", () => {
    const fixture = join(dirname(fileURLToPath(import.meta.url)), 'test-fixtures', 'holding-library.mts');
    const mounted = join(root, 'mnt');
    const run = (source: string) => {
      const script = `mount --bind "$1" "$2" && exec "$3" --import tsx "$4" "$2" "$5" "$6"`;
      const r = spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script, 'sh', source, mounted, process.execPath, fixture, movies, tv], {
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as string | null;
    };
    expect(run(join(movies, 'incoming'))).toBe(movies);
    expect(run(join(root, 'downloads'))).toBeNull();
  });
});
