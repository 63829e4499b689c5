// A seeded PRNG (mulberry32) so that every generated input can be reproduced from the seed printed
// in the summary: FAULTS_SEED=<n> runs the same bodies, the same kill delays, the same trees.

export interface Rng {
  readonly seed: number;
  /** [0, 1) */
  next(): number;
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
  /** A fresh generator derived from this one, for a sub-task that must not shift the others. */
  fork(tag: string): Rng;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function rng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const self: Rng = {
    seed,
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)]!,
    chance: (p) => next() < p,
    fork: (tag) => rng((seed ^ hash(tag)) >>> 0),
  };
  return self;
}

/** FAULTS_SEED, or a fixed default so that two plain runs generate the same inputs. */
export function suiteSeed(): number {
  const raw = process.env.FAULTS_SEED;
  const n = raw === undefined || raw === '' ? 20260522 : Number(raw);
  if (!Number.isInteger(n)) throw new Error(`FAULTS_SEED must be an integer, got "${raw}"`);
  return n >>> 0;
}
