import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { removeStaleTemps, writeFileAtomic, removeStaleTempsIn } from './atomic-write.ts';

// Lets one test make rename fail the way a full or broken disk would, with the real fs otherwise.
const failRename = vi.hoisted(() => ({ on: false }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    rename: async (from: string, to: string) => {
      if (failRename.on) throw Object.assign(new Error('EIO: simulated rename failure'), { code: 'EIO' });
      return actual.rename(from, to);
    },
  };
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'atomic-write-'));
});
afterEach(async () => {
  failRename.on = false;
  await rm(dir, { recursive: true, force: true });
});

const temps = async () => (await readdir(dir)).filter((n) => n.endsWith('.tmp'));
const deadPid = () => {
  const pid = spawnSync(process.execPath, ['-e', '']).pid;
  if (!pid) throw new Error('could not spawn');
  return pid;
};

describe('writeFileAtomic', () => {
  it('writes strings and bytes, replaces existing content and leaves no temp file', async () => {
    const file = path.join(dir, 'state.json');
    await writeFileAtomic(file, 'first\n');
    expect(await readFile(file, 'utf8')).toBe('first\n');
    await writeFileAtomic(file, new TextEncoder().encode('second'));
    expect(await readFile(file, 'utf8')).toBe('second');
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('applies mode, and otherwise keeps the mode of the file it replaces', async () => {
    const file = path.join(dir, 'secret.json');
    await writeFileAtomic(file, '{}', { mode: 0o600 });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await writeFileAtomic(file, '{"a":1}');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await chmod(file, 0o640);
    await writeFileAtomic(file, '{"a":2}');
    expect((await stat(file)).mode & 0o777).toBe(0o640);
  });

  it('rejects when the rename fails, keeping the old file and removing the temp', async () => {
    const file = path.join(dir, 'state.json');
    await writeFile(file, 'old');
    failRename.on = true;
    await expect(writeFileAtomic(file, 'new')).rejects.toThrow(/simulated rename failure/);
    expect(await readFile(file, 'utf8')).toBe('old');
    expect(await temps()).toEqual([]);
  });

  it('rejects when the target is a non-empty directory, leaving it as it was', async () => {
    const target = path.join(dir, 'taken');
    await mkdir(target);
    await writeFile(path.join(target, 'keep'), 'x');
    await expect(writeFileAtomic(target, 'data')).rejects.toMatchObject({ code: expect.stringMatching(/EISDIR|ENOTEMPTY|EEXIST/) });
    expect(await readdir(target)).toEqual(['keep']);
    expect(await temps()).toEqual([]);
  });

  it('rejects when the folder does not exist', async () => {
    await expect(writeFileAtomic(path.join(dir, 'missing', 'state.json'), 'x')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('removeStaleTemps', () => {
  it("removes a dead process's temp and old temps, keeps live ones and unrelated files", async () => {
    const file = path.join(dir, 'state.json');
    const dead = path.join(dir, `.state.json.${deadPid()}.a1b2c3.tmp`);
    const live = path.join(dir, `.state.json.${process.pid}.d4e5f6.tmp`);
    const oldLive = path.join(dir, `.state.json.${process.pid}.0a0b0c.tmp`);
    const other = path.join(dir, `.other.json.${deadPid()}.a1b2c3.tmp`);
    const lookalike = path.join(dir, `.state.jsonx.${deadPid()}.a1b2c3.tmp`);
    for (const p of [file, dead, live, oldLive, other, lookalike]) await writeFile(p, 'x');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(oldLive, twoHoursAgo, twoHoursAgo);

    expect((await removeStaleTemps(file)).sort()).toEqual([dead, oldLive].sort());
    expect((await readdir(dir)).sort()).toEqual([file, live, other, lookalike].map((p) => path.basename(p)).sort());
  });

  it('returns nothing for a folder that does not exist', async () => {
    expect(await removeStaleTemps(path.join(dir, 'nope', 'state.json'))).toEqual([]);
  });
});

describe('removeStaleTempsIn', () => {
  it('removes the temps of dead writers of any file in the folder, and nothing else', async () => {
    const join = path.join;
    const dir = await mkdtemp(join(os.tmpdir(), 'mo-temps-'));
    try {
      await writeFile(join(dir, '.a.json.999999.abc123.tmp'), 'x');
      await writeFile(join(dir, `.b.json.${process.pid}.abc123.tmp`), 'x');
      await writeFile(join(dir, 'a.json'), '{}');
      const removed = await removeStaleTempsIn(dir);
      expect(removed).toEqual([join(dir, '.a.json.999999.abc123.tmp')]);
      expect((await readdir(dir)).sort()).toEqual([`.b.json.${process.pid}.abc123.tmp`, 'a.json']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
