import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { driveHealth } from './drive-health.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'drive-health-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('driveHealth', () => {
  it('reads a folder with media as mounted, with its free and total space', async () => {
    await mkdir(path.join(root, 'Movies'));
    const d = await driveHealth({ name: 'disk1', path: root });
    expect(d).toMatchObject({ name: 'disk1', path: root, state: 'mounted' });
    expect(d.total_bytes).toBeGreaterThan(0);
    expect(d.free_bytes).toBeGreaterThanOrEqual(0);
  });

  it('reads an empty folder as empty: a mount point without its disk', async () => {
    expect(await driveHealth({ name: 'disk1', path: root })).toMatchObject({ state: 'empty' });
  });

  it('reads a path that does not exist, or is a file, as missing', async () => {
    expect(await driveHealth({ name: 'disk2', path: path.join(root, 'gone') })).toEqual({
      name: 'disk2',
      path: path.join(root, 'gone'),
      state: 'missing',
      free_bytes: null,
      total_bytes: null,
    });
    await writeFile(path.join(root, 'file'), 'x');
    expect(await driveHealth({ name: 'disk3', path: path.join(root, 'file') })).toMatchObject({ state: 'missing' });
  });
});
