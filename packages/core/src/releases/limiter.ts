export interface LimiterOptions {
  /** Tasks running at once. */
  concurrency: number;
  /** Least time between two starts: a public API's rate limit (TVmaze: 20 calls per 10 s). */
  minIntervalMs: number;
}

export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

/** Runs tasks in the order given, at most `concurrency` at once and no two starts closer than `minIntervalMs`. */
export function createLimiter(opts: LimiterOptions): Limiter {
  const queue: (() => void)[] = [];
  let running = 0;
  let lastStart = -Infinity;
  let timer: NodeJS.Timeout | undefined;

  function pump() {
    while (running < opts.concurrency && queue.length > 0 && !timer) {
      const wait = lastStart + opts.minIntervalMs - performance.now();
      if (wait > 0) {
        timer = setTimeout(() => {
          timer = undefined;
          pump();
        }, wait);
        // Pending look-ups must not keep a process alive that is otherwise done.
        timer.unref();
        return;
      }
      lastStart = performance.now();
      running++;
      queue.shift()!();
    }
  }

  return (task) =>
    new Promise((resolve, reject) => {
      queue.push(() => {
        Promise.resolve()
          .then(task)
          .then(resolve, reject)
          .finally(() => {
            running--;
            pump();
          });
      });
      pump();
    });
}
