import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { freeSpace } from './free-space.ts';

describe('freeSpace', () => {
  it('agrees with df on the available bytes', async () => {
    const space = await freeSpace(tmpdir());
    const [size, avail] = execFileSync('df', ['-B1', '--output=size,avail', tmpdir()], { encoding: 'utf8' }).trim().split('\n')[1]!.trim().split(/\s+/);
    expect(space!.total_bytes).toBe(Number(size));
    // Other processes write meanwhile: within 64 MiB.
    expect(Math.abs(space!.free_bytes - Number(avail))).toBeLessThan(64 * 1024 * 1024);
  });

  it('is null for a path that is not there (an unmounted drive)', async () => {
    expect(await freeSpace('/nonexistent/drive')).toBeNull();
  });
});
