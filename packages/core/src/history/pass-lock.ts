import { mkdir } from 'node:fs/promises';
import lockfile from 'proper-lockfile';
import { dataDir as dataFolder } from '../data-dir/data-dir.ts';

/**
 * BullMQ's global concurrency already runs one pass at a time, but a worker that stalls (a long
 * GC pause, a network split from Redis) can see its job handed to another box while it still
 * moves files. This lock, in the data folder every worker shares, keeps the two apart; a holder
 * killed with SIGKILL stops refreshing it and loses it after `STALE_MS`.
 */
const STALE_MS = 10_000;

export class PassLockLostError extends Error {
  constructor(cause: Error) {
    super(`lost the scanner lock: ${cause.message}`, { cause });
    this.name = 'PassLockLostError';
  }
}

/** The lock stayed taken for as long as the caller would wait. */
export class PassBusyError extends Error {
  constructor(cause: Error) {
    super(`another scanner pass is running (${cause.message})`, { cause });
    this.name = 'PassBusyError';
  }
}

/** Runs `fn` holding the scanner lock; `held()` throws once the lock was lost, so `fn` stops moving files. */
export async function withPassLock<T>(dataDir: string, fn: (held: () => void) => Promise<T>, opts: { waitMs?: number } = {}): Promise<T> {
  await mkdir(dataDir, { recursive: true });
  const waitMs = opts.waitMs ?? 3 * STALE_MS + 5000;
  let lost: Error | undefined;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dataFolder(dataDir).scannerFolder(), {
      realpath: false,
      lockfilePath: dataFolder(dataDir).path('scannerLock'),
      stale: STALE_MS,
      retries: { retries: Math.ceil(waitMs / 250), factor: 1, minTimeout: 250, maxTimeout: 250 },
      onCompromised: (err) => {
        lost = err;
      },
    });
  } catch (err) {
    throw new PassBusyError(err as Error);
  }
  try {
    return await fn(() => {
      if (lost) throw new PassLockLostError(lost);
    });
  } finally {
    await release().catch(() => {});
  }
}
