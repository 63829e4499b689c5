import { describe, expect, it } from 'vitest';
import { settlePollMs } from './job-client.ts';

describe('settlePollMs', () => {
  it('looks again after a twentieth of the wait so far, so a finished job is answered within ~5 % of its time', () => {
    expect(settlePollMs(1500)).toBe(75);
    expect(settlePollMs(3000)).toBe(150);
    // Summed over a 1.5 s wait, the sleeps land close to its end: the last one is short.
    let waited = 0;
    while (waited < 1500) waited += settlePollMs(waited);
    expect(waited - 1500).toBeLessThanOrEqual(75);
  });

  it('stays between 20 ms (no busy loop at the start) and 250 ms (a long wait still asks four times a second)', () => {
    expect(settlePollMs(0)).toBe(20);
    expect(settlePollMs(100)).toBe(20);
    expect(settlePollMs(60_000)).toBe(250);
  });
});
