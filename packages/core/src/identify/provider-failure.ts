import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { DataDir } from '../data-dir/data-dir.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';

/** Since when the provider's look-ups fail, and the newest reason: what the System page warns of. */
export interface ProviderFailure {
  since: string;
  error: string;
}

const failureSchema = z.object({ since: z.string(), error: z.string() });

/**
 * The record of a failing provider, kept in the data folder because the worker looks up and the
 * API reports. It is written when a look-up fails and removed when one succeeds, so a working
 * provider costs no write at all.
 */
export interface ProviderFailureRecord {
  failed(error: string): Promise<void>;
  succeeded(): Promise<void>;
}

/** The provider's failure record in the data folder: what the worker writes and the API reports. */
export interface ProviderFailureStore {
  readonly file: string;
  read(): Promise<ProviderFailure | null>;
  record(warn: (message: string) => void, now?: () => number): ProviderFailureRecord;
}

export function providerFailureStore(data: DataDir): ProviderFailureStore {
  const file = data.path('providerFailure');
  return { file, read: () => readProviderFailure(file), record: (warn, now) => providerFailureRecord(file, warn, now) };
}

/** The recorded failure, or null when there is none (or the file is no such record). */
async function readProviderFailure(file: string): Promise<ProviderFailure | null> {
  try {
    const parsed = failureSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * One pass's view of the record, made when the pass starts: whether a record is there is looked at
 * once then, so a look-up that succeeds while none is costs no file system call at all. A failure to
 * keep the record is no reason to fail a look-up: `warn` says so, and the pass goes on.
 */
function providerFailureRecord(file: string, warn: (message: string) => void, now: () => number = Date.now): ProviderFailureRecord {
  let failing = existsSync(file);
  const kept = (work: Promise<void>) => work.catch((err: Error) => warn(`the provider's failure record ${file} could not be kept: ${err.message}`));
  return {
    async failed(error) {
      const since = failing ? (await readProviderFailure(file))?.since : null;
      failing = true;
      const record = `${JSON.stringify({ since: since ?? new Date(now()).toISOString(), error })}\n`;
      await kept(mkdir(dirname(file), { recursive: true }).then(() => writeFileAtomic(file, record)));
    },
    async succeeded() {
      if (!failing) return;
      failing = false;
      await kept(rm(file, { force: true }));
    },
  };
}
