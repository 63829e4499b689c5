import { defineConfig } from 'vitest/config';

// The fault and bad-input suite (test/faults): real processes killed at random, a Redis stopped and
// started, 1,000+ generated bodies, a load run. Run by scripts/test-faults, one file at a time so
// that kill timings and load figures are not disturbed by another file's processes.
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 300_000,
    teardownTimeout: 60_000,
  },
});
