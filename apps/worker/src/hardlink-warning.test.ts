import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '@mo/core';
import { warnUnlinkableDrives } from './hardlink-warning.ts';

describe('the start-up warning about drives a hard link cannot reach', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mo-link-warning-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const downloads = join(dir, 'downloads');
  const near = join(dir, 'media', 'disk1');
  mkdirSync(downloads);
  mkdirSync(near, { recursive: true });

  const logged = async (drives: { name: string; path: string }[]) => {
    const lines: string[] = [];
    const logger = createLogger({ name: 'worker', level: 'info', destination: { write: (l: string) => lines.push(l) } });
    await warnUnlinkableDrives({ paths: { downloads, config: dir, data: dir }, drives }, logger);
    return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  };

  it('says nothing when every drive shares the downloads folder’s mount', async () => {
    expect(await logged([{ name: 'disk1', path: near }])).toEqual([]);
  });

  // /dev/shm is a mount of its own on Linux.
  it.skipIf(!existsSync('/dev/shm'))('names the drive, both folders and both mounts, at warn level, once per drive', async () => {
    const shm = mkdtempSync('/dev/shm/mo-link-warning-');
    try {
      const lines = await logged([
        { name: 'disk1', path: near },
        { name: 'fast', path: shm },
      ]);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 40, drive: 'fast', drive_mount: '/dev/shm', reason: 'different-filesystems' });
      expect(lines[0]!.msg).toMatch(
        new RegExp(
          `^downloads \\(${downloads}, mount /[^)]*\\) and drive fast \\(${shm}, mount /dev/shm\\) lie on different filesystems: hardlink mode will copy and move will copy then delete`,
        ),
      );
    } finally {
      rmSync(shm, { recursive: true, force: true });
    }
  });
});
