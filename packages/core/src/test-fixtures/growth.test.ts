import { describe, expect, it } from 'vitest';
import { growthExponent, LINEAR_BOUND, run, superLinearRuns } from './growth.ts';

// The check itself, on functions whose growth is known: it must pass linear work whatever the machine
// and fail the quadratic backtracking the linear-time tests exist for.

const blanks = run('a', ' ', '!');
/** Each start in a run of blanks takes the rest of the run, then gives it back: n²/2 steps. */
const TRAILING_BLANKS = /\s+$/;
/** Anchored at the start, the same run is taken and given back once: n steps. */
const LEADING_BLANKS = /^a\s+$/;

/**
 * Linear work that allocates nothing: `split('')` made an array of one-character strings as long as
 * the input, and the collector's threads (whose processor time counts too) grew it past the bound.
 */
function countBlanks(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 32) n++;
  return n;
}

describe('growthExponent', () => {
  it('passes a linear expression and a linear loop', () => {
    expect(growthExponent((s) => LEADING_BLANKS.test(s), blanks)).toBeLessThan(LINEAR_BOUND);
    expect(growthExponent(countBlanks, blanks)).toBeLessThan(LINEAR_BOUND);
  });

  it('passes n log n work', () => {
    expect(
      growthExponent(
        (s) => [...s].sort(),
        (n) => Array.from({ length: n }, (_, i) => String.fromCharCode(65 + ((i * 7919) % 26))).join(''),
      ),
    ).toBeLessThan(LINEAR_BOUND);
  });

  it('does not count the time a call waits, which grows on a loaded machine', () => {
    const cell = new Int32Array(new SharedArrayBuffer(4));
    // A linear scan that then waits for longer the longer its input, as if the machine were busier
    // each time: by the clock, quadratic; by the processor time, linear.
    const waits = (s: string) => {
      Atomics.wait(cell, 0, 0, 0.1 * (s.length / 2_000) ** 2);
      return countBlanks(s);
    };
    expect(growthExponent(waits, blanks)).toBeLessThan(LINEAR_BOUND);
  });

  it('fails a backtracking expression and a nested loop', () => {
    expect(growthExponent((s) => TRAILING_BLANKS.test(s), blanks)).toBeGreaterThanOrEqual(LINEAR_BOUND);
    const pairs = (s: string) => {
      let equal = 0;
      for (let i = 0; i < s.length; i++) for (let j = i + 1; j < s.length; j++) if (s[i] === s[j]) equal++;
      return equal;
    };
    expect(growthExponent(pairs, blanks)).toBeGreaterThanOrEqual(LINEAR_BOUND);
  });

  it('names the runs a reader grows quadratically on, and only those', () => {
    const read = (s: string) => TRAILING_BLANKS.test(s) || /^(?:Show )?(?:ab)+$/.test(s);
    expect(superLinearRuns(read, [' ', 'ab'], ['!'])).toEqual([expect.stringMatching(/^" "…"!": time ∝ length\^\d\.\d\d$/)]);
  });
});
