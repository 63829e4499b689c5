import { afterEach, describe, expect, it, vi } from 'vitest';
import { Queue } from 'bullmq';
import { createLogger, createRuntimeConfig, readProcessEnv, type RuntimeConfig } from '@mo/core';
import { workerRedisOptions } from '@mo/core/queue';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { tempInstall } from '@mo/test-support/service';
import { transcodeRun } from './handlers/transcode-run.ts';
import { keepTranscodePauseInLine, transcodeQueuePause } from './transcode-queue-pause.ts';

const logger = createLogger({ name: 'transcode-pause-test', level: 'silent' });
const redisUrl = testRedisUrl();
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const install = await tempInstall();
  cleanups.push(() => install.cleanup());
  const config: RuntimeConfig = await createRuntimeConfig({ configFile: install.configFile, pollMs: 50 });
  cleanups.push(() => config.close());
  const prefix = uniquePrefix('transcode-pause');
  cleanups.push(() => dropPrefix(redisUrl, prefix));
  const pause = transcodeQueuePause({ redisUrl, prefix, logger });
  cleanups.push(() => pause.close());
  // What the API sees: BullMQ's own pause of the queue, read over another connection.
  const seen = new Queue('transcode', { connection: workerRedisOptions(redisUrl), prefix });
  cleanups.push(() => seen.close());
  const transcodes = transcodeRun({ config, logger, env: readProcessEnv({}) }, { queuePause: pause });
  return { config, prefix, seen, transcodes, setPaused: (paused: boolean) => config.transcodes.update(() => [{ paused }]) };
}

describe('the transcode queue pause follows its records (real Redis)', () => {
  it('at a worker start: paused records pause the queue, also after Redis lost the pause; running records resume it', async () => {
    const { prefix, seen, transcodes, setPaused } = await setup();
    await setPaused(true);
    expect(await seen.isPaused()).toBe(false);
    expect(await transcodes.syncQueuePause()).toBe(true);
    expect(await seen.isPaused()).toBe(true);
    expect(await transcodes.syncQueuePause()).toBeNull();
    // A Redis flushed (or restarted without its data) keeps no pause.
    await dropPrefix(redisUrl, prefix);
    expect(await seen.isPaused()).toBe(false);
    expect(await transcodes.syncQueuePause()).toBe(true);
    expect(await seen.isPaused()).toBe(true);
    await setPaused(false);
    expect(await transcodes.syncQueuePause()).toBe(false);
    expect(await seen.isPaused()).toBe(false);
  });

  it('kept in line by the worker: at once, and whenever the records change', async () => {
    const { config, seen, transcodes, setPaused } = await setup();
    await setPaused(true);
    await seen.resume();
    cleanups.push(keepTranscodePauseInLine(config, transcodes, 60_000));
    await vi.waitFor(async () => expect(await seen.isPaused()).toBe(true));
    // A paused queue whose records say running (a resume whose second write came after a sync).
    await setPaused(false);
    await vi.waitFor(async () => expect(await seen.isPaused()).toBe(false), { timeout: 3000 });
  });
});
