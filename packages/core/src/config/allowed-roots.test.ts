import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '@mo/shared';
import { isInside, realPathOf } from '../fs/real-path.ts';
import { allowedRoots, checkRuntimePath, fileConfigPaths, realRoots, runtimePathProblem, systemFolderOf } from './allowed-roots.ts';

describe('systemFolderOf', () => {
  it.each([
    ['/', '/'],
    ['/etc', '/etc'],
    ['/etc/cron.d', '/etc'],
    ['/usr', '/usr'],
    ['/usr/lib/python3/dist-packages', '/usr'],
    ['/usr/local/lib', '/usr'],
    ['/bin/x', '/bin'],
    ['/sbin', '/sbin'],
    ['/lib', '/lib'],
    ['/lib64', '/lib64'],
    ['/lib32/x', '/lib32'],
    ['/libx32', '/libx32'],
    // The contract's "/lib*" is a glob on the top-level name.
    ['/library', '/library'],
    ['/boot/grub', '/boot'],
    ['/dev/shm', '/dev'],
    ['/proc/self/root', '/proc'],
    ['/sys/kernel', '/sys'],
    ['/root/.ssh', '/root'],
    ['/run/secrets', '/run'],
    ['/var/lib', '/var/lib'],
    ['/var/lib/x', '/var/lib'],
  ])('%s lies in %s', (path, folder) => {
    expect(systemFolderOf(path)).toBe(folder);
  });

  it.each([
    '/var/library',
    '/var/libx',
    '/var',
    '/var/log',
    '/etcetera',
    '/usrlocal',
    '/media/disk1',
    '/home/me/lib',
    '/srv/etc',
    '/rooted',
    '/runs',
    '/devices',
    '/mnt/usr',
    '/data/var/lib',
  ])('%s is not a system folder', (path) => {
    expect(systemFolderOf(path)).toBeNull();
  });
});

describe('isInside', () => {
  it.each([
    ['/media', '/media', true],
    ['/media/disk1', '/media', true],
    ['/media/..x', '/media', true],
    ['/mediaX', '/media', false],
    ['/', '/media', false],
    ['/med', '/media', false],
    ['/anything', '/', true],
  ])('%s in %s: %s', (path, root, inside) => {
    expect(isInside(path, root)).toBe(inside);
  });
});

const config = (over: { roots?: string[]; paths?: Partial<Config['paths']>; drives?: Config['drives'] }) => ({
  app: { ...DEFAULT_CONFIG.app, allowed_roots: over.roots ?? [] },
  paths: { downloads: '/srv/dl', config: '/srv/cfg', data: '/srv/data', ...over.paths },
  drives: over.drives ?? [],
});

describe('allowedRoots', () => {
  it('defaults to the folders and drives of the config file, and each drive parent but /', () => {
    const roots = allowedRoots(
      config({
        drives: [
          { name: 'a', path: '/media/disk1' },
          { name: 'b', path: '/disk2' },
          { name: 'c', path: '/media/disk3/' },
        ],
      }),
    );
    expect(roots).toEqual(['/srv/dl', '/srv/cfg', '/srv/data', '/media/disk1', '/disk2', '/media/disk3', '/media']);
  });

  it('is app.allowed_roots alone when the file sets it', () => {
    expect(allowedRoots(config({ roots: ['/mnt/', '/srv/media'], drives: [{ name: 'a', path: '/media/disk1' }] }))).toEqual(['/mnt', '/srv/media']);
  });

  it('lists the paths the config file names, normalised', () => {
    expect(fileConfigPaths(config({ drives: [{ name: 'a', path: '/var/lib/media/' }] }))).toEqual(['/srv/dl', '/srv/cfg', '/srv/data', '/var/lib/media']);
  });
});

describe('runtimePathProblem', () => {
  const base = { roots: ['/srv', '/media'], fileConfigPaths: ['/srv/dl', '/var/lib/transmission/downloads'] };
  const judge = (requested: string, real = requested) => runtimePathProblem({ ...base, requested, real });

  it('allows a path inside a root, by its real path', () => {
    expect(judge('/srv/dl2')).toBeNull();
    expect(judge('/media')).toBeNull();
    expect(judge('/elsewhere/link', '/media/disk9')).toBeNull();
  });

  it('refuses a path whose real path leaves the roots, whatever it is called', () => {
    expect(judge('/srv/link', '/home/me')).toMatch(/outside the allowed roots.*app\.allowed_roots/);
    expect(judge('/opt/x')).toMatch(/outside the allowed roots/);
    expect(judge('/srvx')).toMatch(/outside the allowed roots/);
  });

  it('refuses / and the system folders, by name or by real path, even inside a root', () => {
    expect(runtimePathProblem({ ...base, roots: ['/'], requested: '/', real: '/' })).toMatch(/root folder/);
    expect(runtimePathProblem({ ...base, roots: ['/'], requested: '/usr/lib/python3', real: '/usr/lib/python3' })).toMatch(/\/usr, a system folder/);
    expect(runtimePathProblem({ ...base, roots: ['/var/lib'], requested: '/var/lib/mo/new', real: '/var/lib/mo/new' })).toMatch(/\/var\/lib/);
    expect(judge('/srv/etc-link', '/etc')).toMatch(/\/etc, a system folder/);
    expect(judge('/lib64')).toMatch(/\/lib64/);
  });

  it('allows a path the config file names itself, as it is, even in a system folder', () => {
    expect(judge('/var/lib/transmission/downloads')).toBeNull();
    expect(judge('/var/lib/transmission/downloads/sub')).toMatch(/\/var\/lib/);
    expect(judge('/var/lib/transmission')).toMatch(/\/var\/lib/);
  });
});

describe('real paths on disk', () => {
  let dir: string;
  let root: string;
  let outside: string;

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'allowed-roots-')));
    root = join(dir, 'root');
    outside = join(dir, 'outside');
    await mkdir(join(root, 'media', 'disk1'), { recursive: true });
    await mkdir(outside, { recursive: true });
    await symlink(outside, join(root, 'to-outside'));
    await symlink(join(root, 'media'), join(dir, 'root-link'));
    await symlink('/etc', join(root, 'to-etc'));
    await symlink('/usr/lib', join(root, 'to-usr-lib'));
    await symlink(join(dir, 'nowhere'), join(root, 'dangling'));
    await symlink('loop', join(root, 'loop'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const check = async (path: string, roots = [root]) => checkRuntimePath(path, { roots: await realRoots(roots), fileConfigPaths: [] });

  it('resolves a missing path by its nearest existing ancestor', async () => {
    expect(await realPathOf(join(root, 'new', 'deeper'))).toBe(join(root, 'new', 'deeper'));
    expect(await realPathOf(join(root, 'to-outside', 'new'))).toBe(join(outside, 'new'));
    expect(await realPathOf(join(dir, 'root-link', 'disk1', 'x'))).toBe(join(root, 'media', 'disk1', 'x'));
    expect(await realPathOf('/nonexistent/mo-test/x')).toBe('/nonexistent/mo-test/x');
  });

  it('allows folders inside the root, existing or not, with trailing slashes and dots', async () => {
    expect(await check(join(root, 'media', 'disk1'))).toBeNull();
    expect(await check(join(root, 'media', 'disk2'))).toBeNull();
    expect(await check(`${root}/media/disk1/`)).toBeNull();
    expect(await check(`${root}/./media//disk1/../disk3`)).toBeNull();
  });

  it('follows a symlinked root: a path through it or below its target counts as inside', async () => {
    const linkRoot = join(dir, 'root-link');
    expect(await check(join(root, 'media', 'disk2'), [linkRoot])).toBeNull();
    expect(await check(join(linkRoot, 'new'), [linkRoot])).toBeNull();
    expect(await check(join(root, 'elsewhere'), [linkRoot])).toMatch(/outside the allowed roots/);
  });

  it('refuses what climbs out with ..', async () => {
    expect(await check(`${root}/media/../../outside`)).toMatch(/outside the allowed roots/);
    expect(await check(`${root}/../../../../etc`)).toMatch(/\/etc, a system folder/);
    expect(await check(`${root}/new/../../outside/x`)).toMatch(/outside the allowed roots/);
  });

  it('refuses a symlink inside the root that leads outside it or into a system folder', async () => {
    expect(await check(join(root, 'to-outside'))).toMatch(/outside the allowed roots/);
    expect(await check(join(root, 'to-outside', 'not-yet'))).toMatch(/outside the allowed roots/);
    expect(await check(join(root, 'to-etc'))).toMatch(/\/etc, a system folder/);
    expect(await check(join(root, 'to-usr-lib', 'python3'))).toMatch(/\/usr, a system folder/);
  });

  it('refuses a dangling symlink and a loop', async () => {
    expect(await check(join(root, 'dangling'))).toMatch(/symbolic link to a missing target/);
    expect(await check(join(root, 'dangling', 'sub'))).toMatch(/symbolic link to a missing target/);
    expect(await check(join(root, 'loop'))).toMatch(/ELOOP/);
  });

  it('a root that is itself a system folder still allows nothing inside the system folder', async () => {
    expect(await check('/usr/lib/python3', ['/usr'])).toMatch(/\/usr, a system folder/);
    expect(await check('/', ['/'])).toMatch(/root folder/);
  });
});
