import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import type { z } from 'zod';
import { issuePath } from '../errors.ts';
import { removeStaleTemps, writeFileAtomic } from '../fs/atomic-write.ts';

export interface StateStore<T> {
  readonly file: string;
  /** Parsed and validated by the schema; `initial()` when the file is missing. */
  read(): Promise<T>;
  /** Read-modify-write under an inter-process lock; returns the value written. `fn` answering its argument leaves an existing file alone. */
  update(fn: (current: T) => T | Promise<T>): Promise<T>;
}

export interface StateStoreOptions<T> {
  file: string;
  schema: z.ZodType<T>;
  initial: () => T;
  /** File mode to write with (e.g. 0o600 for secrets); without it an existing file keeps its mode. */
  mode?: number;
  /**
   * How long (ms) a lock may go without its heartbeat before another process takes it over, e.g.
   * after its holder was SIGKILLed. proper-lockfile raises anything below 2000 to 2000.
   */
  staleMs?: number;
}

/** The state file exists but cannot be used; it is left untouched so no saved setting is lost. */
export class StateFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StateFileError';
  }
}

const DEFAULT_STALE_MS = 10_000;

// One chain per file for the whole process: two stores on the same file must not race each other
// for the lock directory (proper-lockfile would just see ELOCKED and back off).
const chains = new Map<string, Promise<unknown>>();

function serialize<R>(key: string, task: () => Promise<R>): Promise<R> {
  const run = (chains.get(key) ?? Promise.resolve()).then(task, task);
  const tail = run.then(
    () => {},
    () => {},
  );
  chains.set(key, tail);
  void tail.then(() => {
    if (chains.get(key) === tail) chains.delete(key);
  });
  return run;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${issuePath(i.path)}: ${i.message}`).join('; ');
}

export function createStateStore<T>(opts: StateStoreOptions<T>): StateStore<T> {
  const file = path.resolve(opts.file);
  const lockPath = `${file}.lock`;
  const stale = Math.max(opts.staleMs ?? DEFAULT_STALE_MS, 2000);
  // Backoff capped at 200 ms, for at least 3 stale periods: long enough to outwait a dead holder
  // plus a busy live one, short enough that a wedged lock surfaces as an error instead of a hang.
  const retries = {
    retries: Math.ceil(Math.max(30_000, 3 * stale) / 200),
    factor: 1.5,
    minTimeout: 5,
    maxTimeout: 200,
    randomize: true,
  };
  let tempsChecked = false;

  function validate(value: unknown, what: string): T {
    const result = opts.schema.safeParse(value);
    if (!result.success) throw new StateFileError(file, `${what} ${file}: ${describeIssues(result.error)}`);
    return result.data;
  }

  async function read(): Promise<T> {
    return (await readKnowing()).value;
  }

  async function readKnowing(): Promise<{ value: T; existed: boolean }> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { value: opts.initial(), existed: false };
      throw err;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new StateFileError(file, `Invalid state file ${file}: not valid JSON (${(err as Error).message})`, {
        cause: err,
      });
    }
    return { value: validate(json, 'Invalid state file'), existed: true };
  }

  async function lockedUpdate(fn: (current: T) => T | Promise<T>): Promise<T> {
    await mkdir(path.dirname(file), { recursive: true });
    let compromised: Error | undefined;
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(file, {
        realpath: false,
        lockfilePath: lockPath,
        stale,
        retries,
        // The default throws from a timer and kills the process; failing this update is enough.
        onCompromised: (err) => {
          compromised = err;
        },
      });
    } catch (err) {
      throw new Error(`Could not lock state file ${file}: ${(err as Error).message}`, { cause: err });
    }
    try {
      if (!tempsChecked) {
        tempsChecked = true;
        // Under the lock no other store can be mid-write, so whatever temp is left is an orphan.
        await removeStaleTemps(file).catch(() => {});
      }
      const { value: current, existed } = await readKnowing();
      const out = await fn(current);
      // Nothing changed: the file is left alone, so readers that watch it are not woken for nothing.
      if (out === current && existed) return current;
      const next = validate(out, 'Refusing to write an invalid value to');
      if (compromised) throw new Error(`Lost the lock on ${file} before writing: ${compromised.message}`);
      await writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`, opts.mode === undefined ? {} : { mode: opts.mode });
      return next;
    } finally {
      // Once the write landed the update must not be reported as failed (callers might repeat it);
      // a lock directory left behind just goes stale.
      await release().catch(() => {});
    }
  }

  return {
    file,
    read,
    update: (fn) => serialize(file, () => lockedUpdate(fn)),
  };
}
