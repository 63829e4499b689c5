import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PassLockLostError, withPassLock } from './pass-lock.ts';

const dir = mkdtempSync(join(tmpdir(), 'mo-passlock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('withPassLock', () => {
  it('runs two passes one after the other, never together', async () => {
    const events: string[] = [];
    const pass = (name: string) =>
      withPassLock(dir, async (held) => {
        events.push(`${name} start`);
        await sleep(300);
        held();
        events.push(`${name} end`);
        return name;
      });
    expect(await Promise.all([pass('a'), pass('b')])).toEqual(['a', 'b']);
    expect([events.slice(0, 2), events.slice(2)]).toEqual([
      [expect.stringMatching(/start$/), expect.stringMatching(/end$/)],
      [expect.stringMatching(/start$/), expect.stringMatching(/end$/)],
    ]);
    expect(events[0]!.split(' ')[0]).toBe(events[1]!.split(' ')[0]);
  });

  it('gives up after its wait with a clear message, and releases on failure', async () => {
    let release!: () => void;
    const holding = withPassLock(dir, () => new Promise<void>((r) => (release = r)));
    await sleep(100);
    await expect(withPassLock(dir, async () => 'x', { waitMs: 500 })).rejects.toThrow('another scanner pass is running');
    release();
    await holding;
    await expect(
      withPassLock(dir, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await withPassLock(dir, async () => 'free again', { waitMs: 0 })).toBe('free again');
  });

  it('tells the pass when its lock was lost, so that it stops moving files', async () => {
    await withPassLock(dir, async (held) => {
      held();
      // As if another box had taken the lock over: the heartbeat finds it gone.
      await rm(join(dir, 'scanner.lock'), { recursive: true });
      await sleep(5_500);
      expect(() => held()).toThrow(PassLockLostError);
    });
  }, 15_000);
});
