import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { guardMediaPath, mediaRoots } from './path-guard.ts';

let root: string;
let opts: { roots: string[]; extensions: string[] };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mo-guard-'));
  const drive = join(root, 'drive');
  const downloads = join(root, 'downloads');
  const outside = join(root, 'outside');
  for (const d of [join(drive, 'Movies'), downloads, outside]) await mkdir(d, { recursive: true });
  await writeFile(join(drive, 'Movies', 'A.mkv'), 'x');
  await writeFile(join(drive, 'Movies', 'notes.txt'), 'x');
  await mkdir(join(drive, 'Movies', 'Folder.mkv'));
  await writeFile(join(downloads, 'B.MP4'), 'x');
  await writeFile(join(outside, 'secret.mkv'), 'x');
  await symlink(join(outside, 'secret.mkv'), join(drive, 'Movies', 'escape.mkv'));
  await symlink(join(drive, 'Movies', 'A.mkv'), join(downloads, 'link.mkv'));
  await symlink(join(drive, 'Movies', 'notes.txt'), join(drive, 'Movies', 'disguised.mkv'));
  await symlink(join(drive, 'Movies'), join(outside, 'movies-link'));
  await symlink('loop.mkv', join(drive, 'Movies', 'loop.mkv'));
  opts = { roots: [drive, downloads, join(root, 'missing-drive')], extensions: ['.mkv', '.mp4'] };
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function code(raw: unknown): Promise<string> {
  try {
    await guardMediaPath(raw, opts);
    return 'ok';
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}

describe('guardMediaPath', () => {
  it('accepts media inside a drive or the downloads folder and gives its real path', async () => {
    const a = join(root, 'drive/Movies/A.mkv');
    expect(await guardMediaPath(a, opts)).toEqual({ requested: a, real: a });
    expect(await code(join(root, 'downloads/B.MP4'))).toBe('ok');
    expect(await guardMediaPath(join(root, 'downloads/x/../link.mkv'), opts)).toEqual({ requested: join(root, 'downloads/link.mkv'), real: a });
  });

  it('400: missing, relative, NUL, not media, a folder, a symlink loop', async () => {
    expect(await code(undefined)).toBe('bad_request');
    expect(await code('')).toBe('bad_request');
    expect(await code('drive/Movies/A.mkv')).toBe('bad_request');
    expect(await code(`${root}/drive/Movies/A.mkv\0.txt`)).toBe('bad_request');
    expect(await code(join(root, 'drive/Movies/notes.txt'))).toBe('bad_request');
    expect(await code(join(root, 'drive/Movies/disguised.mkv'))).toBe('bad_request');
    expect(await code(join(root, 'drive/Movies/Folder.mkv'))).toBe('bad_request');
    expect(await code(join(root, 'drive/Movies/loop.mkv'))).toBe('bad_request');
  });

  it('403: outside the roots, by path, by "..", or through a symlink, existing or not', async () => {
    expect(await code(join(root, 'outside/secret.mkv'))).toBe('forbidden');
    expect(await code(join(root, 'outside/absent.mkv'))).toBe('forbidden');
    expect(await code(join(root, 'drive/../outside/secret.mkv'))).toBe('forbidden');
    expect(await code(join(root, 'drive/Movies/escape.mkv'))).toBe('forbidden');
    expect(await code('/etc/passwd')).toBe('forbidden');
  });

  it('follows a symlink from outside into a root: the real file is what counts', async () => {
    expect(await code(join(root, 'outside/movies-link/A.mkv'))).toBe('ok');
  });

  it('404: inside a root but absent', async () => {
    expect(await code(join(root, 'drive/Movies/Absent.mkv'))).toBe('not_found');
    expect(await code(join(root, 'drive/Movies/A.mkv/inner.mkv'))).toBe('not_found');
  });

  it('does not take a sibling with a longer name for a root', async () => {
    await mkdir(join(root, 'drive2'), { recursive: true });
    await writeFile(join(root, 'drive2', 'C.mkv'), 'x');
    expect(await code(join(root, 'drive2/C.mkv'))).toBe('forbidden');
  });
});

describe('mediaRoots', () => {
  it('is the downloads folder and every drive', () => {
    expect(
      mediaRoots({
        paths: { downloads: '/dl', config: '/c', data: '/d' },
        drives: [
          { name: 'a', path: '/m/a' },
          { name: 'b', path: '/m/b' },
        ],
      }),
    ).toEqual(['/dl', '/m/a', '/m/b']);
  });
});
