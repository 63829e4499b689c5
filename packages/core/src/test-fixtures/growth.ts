// "Linear time" as a test can check it on any machine: the exponent k in time ∝ length^k, fitted
// over several lengths to the processor time a call takes. A machine's speed scales every time
// alike and drops out of k, and time spent waiting for a processor is not counted. Linear work fits
// k ≈ 1 (less where a call's fixed cost still counts), the quadratic backtracking these tests exist
// for k ≈ 2, and 1.5 sits between them.
//
// A ratio of two times (10 KB against 1 MB) did not: on a 1 MB input a call copies strings too big
// for the young heap and the caches, so its time grew with the machine's memory and collector, and
// linear readers grew 1,662–2,208× on one machine and 100× on another. The lengths here stay well
// below that (a copy of the longest, even in two-byte characters, is an ordinary young object) and
// span 16×, where quadratic work grows 256× and linear at most 16×.

export const LENGTHS = [2_000, 4_000, 8_000, 16_000, 32_000] as const;
/** The exponent at or above which growth is not linear. */
export const LINEAR_BOUND = 1.5;

/** One sample: calls in a row until this long, so the clock's grain and one call's jitter drop out. */
const SAMPLE_MS = 1;
/** Samples per length, taken in turn over the lengths, so that what slows one sample (a collection, a cold cache) spoils no length. */
const ROUNDS = 3;
/** A call this slow is not sampled again, and longer inputs are not tried: they would only take longer. */
const SLOW_CALL_MS = 25;
/** Fits before a high exponent counts: a collection or a cache another process emptied can spoil one fit; quadratic work spoils every fit. */
const TRIES = 3;

/** This process's processor time in ms: time it waited for a processor (a loaded machine) is not in it. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The processor time of one call, from calls in a row (in doubling batches, so that reading the time costs little). */
function perCallMs(fn: (input: string) => unknown, input: string): number {
  let calls = 0;
  let elapsed = 0;
  const start = cpuMs();
  for (let batch = 1; elapsed < SAMPLE_MS; batch *= 2) {
    for (let i = 0; i < batch; i++) fn(input);
    calls += batch;
    elapsed = cpuMs() - start;
  }
  return elapsed / calls;
}

/** The least-squares slope of log(ms) over log(length). */
function slope(lengths: readonly number[], ms: readonly number[]): number {
  const xs = lengths.map(Math.log);
  const ys = ms.map(Math.log);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  return sxy / sxx;
}

/** One fit: the least time per call at each length, over at least three lengths. */
function fitOnce(fn: (input: string) => unknown, inputs: readonly string[]): number {
  const best = inputs.map(() => Infinity);
  let measured = inputs.length;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < measured; i++) {
      if (round > 0 && best[i]! > SLOW_CALL_MS) continue;
      best[i] = Math.min(best[i]!, perCallMs(fn, inputs[i]!));
      if (round === 0 && i >= 2 && best[i]! > SLOW_CALL_MS) measured = i + 1;
    }
  }
  return slope(LENGTHS.slice(0, measured), best.slice(0, measured));
}

/** The exponent of `fn`'s time over `make(length)`, the least of a few fits. */
export function growthExponent(fn: (input: string) => unknown, make: (length: number) => string): number {
  const inputs = LENGTHS.map(make);
  fn(inputs[0]!); // compiled, and each expression past its first run, before anything is timed
  let least = Infinity;
  for (let t = 0; t < TRIES && least >= LINEAR_BOUND; t++) least = Math.min(least, fitOnce(fn, inputs));
  return least;
}

/** `unit` repeated to `length` characters, between `before` and `after`. */
export const run =
  (before: string, unit: string, after = '') =>
  (length: number) =>
    before + unit.repeat(Math.ceil(length / unit.length)) + after;

/** The runs of `units` (each ended by one of `ends`) on which `read` grows faster than linearly: none for linear code. */
export function superLinearRuns(read: (input: string) => unknown, units: readonly string[], ends: readonly string[]): string[] {
  const found: string[] = [];
  for (const unit of units) {
    for (const end of ends) {
      const k = growthExponent(read, run('Show ', unit, end));
      if (k >= LINEAR_BOUND) found.push(`${JSON.stringify(unit)}…${JSON.stringify(end)}: time ∝ length^${k.toFixed(2)}`);
    }
  }
  return found;
}
