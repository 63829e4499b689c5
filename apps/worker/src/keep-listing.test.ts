import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger, type RuntimeConfig } from '@mo/core';
import { DEFAULT_CONFIG, type Config } from '@mo/shared';
import { keepDownloadsListing, MIN_GAP_MS, POLL_MS, REST_PER_WALK } from './keep-listing.ts';

/** A config that never changes but can be told to, and a refresh that records when it walked. */
function setup(opts: { watched: boolean; walkMs?: number }) {
  let listener: ((next: Config, prev: Config) => void) | undefined;
  const config = {
    current: () => DEFAULT_CONFIG,
    onChange: (l: typeof listener) => ((listener = l), () => (listener = undefined)),
  } as unknown as RuntimeConfig;
  const walks: number[] = [];
  let watched = opts.watched;
  const keeper = keepDownloadsListing({
    config,
    logger: createLogger({ name: 'test', level: 'silent' }),
    watched: () => watched,
    refresh: async () => {
      walks.push(Date.now());
      await new Promise((r) => setTimeout(r, opts.walkMs ?? 0));
    },
  });
  return { keeper, walks, setWatched: (w: boolean) => (watched = w), settingsChanged: () => listener?.(DEFAULT_CONFIG, DEFAULT_CONFIG) };
}

let keeper: ReturnType<typeof keepDownloadsListing> | undefined;
beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
afterEach(async () => {
  const closing = keeper?.close();
  await vi.runOnlyPendingTimersAsync();
  await closing;
  keeper = undefined;
  vi.useRealTimers();
});

describe('keepDownloadsListing', () => {
  it('walks at start, then only when the watch reports a change, within a second or so', async () => {
    const s = setup({ watched: true });
    keeper = s.keeper;
    await vi.advanceTimersByTimeAsync(10);
    expect(s.walks).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.walks).toHaveLength(1);
    const changedAt = Date.now();
    s.keeper.changed();
    await vi.advanceTimersByTimeAsync(MIN_GAP_MS + 10);
    expect(s.walks).toHaveLength(2);
    expect(s.walks[1]! - changedAt).toBeLessThanOrEqual(MIN_GAP_MS);
  });

  it(`walks every ${POLL_MS} ms while nothing watches (app.watch off, or the watch failed)`, async () => {
    const s = setup({ watched: false });
    keeper = s.keeper;
    await vi.advanceTimersByTimeAsync(POLL_MS * 4 + 10);
    expect(s.walks).toHaveLength(5);
    // The watch is armed: the polling stops after the walk its start asks for.
    s.setWatched(true);
    s.keeper.changed();
    await vi.advanceTimersByTimeAsync(POLL_MS * 4);
    expect(s.walks).toHaveLength(6);
  });

  it('a burst of changes during a walk asks for one more walk, not one each', async () => {
    const s = setup({ watched: true, walkMs: 100 });
    keeper = s.keeper;
    await vi.advanceTimersByTimeAsync(50);
    for (let i = 0; i < 50; i++) s.keeper.changed();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(s.walks).toHaveLength(2);
  });

  it(`rests ${REST_PER_WALK} times as long as a slow walk took before the next, so a huge folder costs a fifth of a core`, async () => {
    const s = setup({ watched: true, walkMs: 2000 });
    keeper = s.keeper;
    await vi.advanceTimersByTimeAsync(2010);
    s.keeper.changed();
    await vi.advanceTimersByTimeAsync(REST_PER_WALK * 2000 + 10);
    expect(s.walks).toHaveLength(2);
    expect(s.walks[1]! - s.walks[0]!).toBe(2000 + REST_PER_WALK * 2000);
  });

  it('walks again when the settings change (another folder, settle_seconds)', async () => {
    const s = setup({ watched: true });
    keeper = s.keeper;
    await vi.advanceTimersByTimeAsync(MIN_GAP_MS + 10);
    s.settingsChanged();
    await vi.advanceTimersByTimeAsync(MIN_GAP_MS + 10);
    expect(s.walks).toHaveLength(2);
  });
});
