import { DEFAULT_CONFIG } from '@mo/shared';

/** A task given up while it waited for its turn; it never started. */
export class PoolWaitAborted extends Error {
  constructor() {
    super('given up while waiting for a free slot');
    this.name = 'PoolWaitAborted';
  }
}

export interface Pool {
  /**
   * Runs `task` once fewer than `limit()` tasks of this pool run; until then it waits in line.
   * An abort while waiting takes it out of the line and rejects with PoolWaitAborted.
   */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  readonly running: number;
  readonly waiting: number;
}

/** A first-come first-served pool whose size is read again whenever a slot frees up. */
export function createPool(limit: () => number): Pool {
  let running = 0;
  const line: (() => void)[] = [];
  const pump = () => {
    while (line.length > 0 && running < Math.max(1, limit())) {
      running++;
      line.shift()!();
    }
  };
  return {
    run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        if (signal?.aborted) return reject(new PoolWaitAborted());
        const start = () => {
          signal?.removeEventListener('abort', giveUp);
          const release = () => {
            running--;
            pump();
          };
          // A task that throws before returning its promise must free its slot too.
          Promise.resolve()
            .then(task)
            .then(
              (value) => {
                release();
                resolve(value);
              },
              (err: unknown) => {
                release();
                reject(err);
              },
            );
        };
        const giveUp = () => {
          const at = line.indexOf(start);
          if (at < 0) return;
          line.splice(at, 1);
          reject(new PoolWaitAborted());
        };
        signal?.addEventListener('abort', giveUp, { once: true });
        line.push(start);
        pump();
      });
    },
    get running() {
      return running;
    },
    get waiting() {
      return line.length;
    },
  };
}

let probeConcurrency: () => number = () => DEFAULT_CONFIG.app.probe_concurrency;

/**
 * Where the shared probe pool reads its size (`app.probe_concurrency`); each process points it
 * at its live config once at start, so a settings change applies to the next probe.
 */
export function useProbeConcurrency(limit: () => number): void {
  probeConcurrency = limit;
}

/** Every ffprobe run of this process goes through this pool. */
export const probePool = createPool(() => probeConcurrency());
