import { describe, expect, it } from 'vitest';
import { DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS, waitSeconds } from './jobs.ts';

describe('waitSeconds', () => {
  it('takes plain decimal seconds from 0 to the maximum, and the default when absent', () => {
    expect([undefined, '', '0', '5', '2.5', '007', String(MAX_WAIT_SECONDS)].map(waitSeconds)).toEqual([DEFAULT_WAIT_SECONDS, DEFAULT_WAIT_SECONDS, 0, 5, 2.5, 7, MAX_WAIT_SECONDS]);
  });

  it.each(['-1', '301', 'abc', '0x10', '1e1', '+5', ' 5', '5 ', '.5', '5.', 'NaN', 'Infinity', '1,5', '99999999999999999999'])('refuses %j with a 400 naming wait', (raw) => {
    expect(() => waitSeconds(raw)).toThrow(expect.objectContaining({ code: 'bad_request', message: expect.stringMatching(/^wait:/) }));
  });
});
