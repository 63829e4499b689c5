// "Linear time" as a test can check it without a clock's verdict: the time a function takes on a
// 1 MB input over the time it takes on a 10 KB one. Linear work grows about 100×, quadratic
// backtracking 10,000×; a bound of 1,000× tells them apart on any machine, however loaded.

const MIN_SAMPLE_MS = 5;

/** The time of one call, from enough calls in a row to take a few milliseconds; best of `runs`. */
function perCallMs(fn: (input: string) => unknown, input: string, runs: number): number {
  let best = Infinity;
  for (let r = 0; r < runs; r++) {
    let calls = 0;
    const start = performance.now();
    let elapsed = 0;
    do {
      fn(input);
      calls++;
      elapsed = performance.now() - start;
    } while (elapsed < MIN_SAMPLE_MS);
    best = Math.min(best, elapsed / calls);
  }
  return best;
}

export const SMALL = 10_000;
export const BIG = 1_000_000;

/** Tries before a high ratio counts: a pause (GC, another process) slows one try, quadratic work every try. */
const TRIES = 3;
/** A ratio below this needs no second try: linear work gives about 100. */
const CLEARLY_LINEAR = 300;

/** How many times longer `fn` takes on `make(BIG)` than on `make(SMALL)`, the least of a few tries. */
export function growth(fn: (input: string) => unknown, make: (length: number) => string, runs = 3): number {
  const small = make(SMALL);
  const big = make(BIG);
  fn(small); // compiled before it is timed
  let least = Infinity;
  for (let t = 0; t < TRIES && least >= CLEARLY_LINEAR; t++) least = Math.min(least, perCallMs(fn, big, runs) / perCallMs(fn, small, runs));
  return least;
}

/** `unit` repeated to `length` characters, between `before` and `after`. */
export const run = (before: string, unit: string, after = '') => (length: number) =>
  before + unit.repeat(Math.ceil(length / unit.length)) + after;

/** The runs of `units` (each ended by one of `ends`) on which `read` grows 1,000× or more: none for linear code. */
export function superLinearRuns(read: (input: string) => unknown, units: readonly string[], ends: readonly string[]): string[] {
  const found: string[] = [];
  for (const unit of units) {
    for (const end of ends) {
      const ratio = growth(read, run('Show ', unit, end), 2);
      if (ratio >= 1000) found.push(`${JSON.stringify(unit)}…${JSON.stringify(end)}: ${ratio.toFixed(0)}×`);
    }
  }
  return found;
}
