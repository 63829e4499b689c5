import { describe, expect, it } from 'vitest';
import { DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS, waitSeconds } from './jobs.ts';

describe('waitSeconds', () => {
  it('takes seconds from 0 to the maximum in any JSON number form, and the default when absent', () => {
    expect([undefined, '', '0', '5', '2.5', '007', String(MAX_WAIT_SECONDS)].map(waitSeconds)).toEqual([
      DEFAULT_WAIT_SECONDS,
      DEFAULT_WAIT_SECONDS,
      0,
      5,
      2.5,
      7,
      MAX_WAIT_SECONDS,
    ]);
    expect(['1e1', '1E1', '1e+1', '1.5e1', '25e-1', '3e2', '0e5', '1e-400', '-0', '-0.0', '0.000'].map(waitSeconds)).toEqual([
      10, 10, 10, 15, 2.5, 300, 0, 0, 0, 0, 0,
    ]);
    expect(Object.is(waitSeconds('-0'), 0)).toBe(true);
  });

  it.each([
    '-1',
    '-1e-9',
    '301',
    '3.01e2',
    '1e3',
    '1e999',
    'abc',
    '0x10',
    '0b1',
    '0o7',
    '+5',
    '+1e1',
    ' 5',
    '5 ',
    '.5',
    '5.',
    '1e',
    '1e+',
    'e1',
    '1e1.5',
    '1_0',
    '--1',
    'NaN',
    'Infinity',
    '-Infinity',
    '1,5',
    '99999999999999999999',
    '٣',
  ])('refuses %j with a 400 naming wait', (raw) => {
    expect(() => waitSeconds(raw)).toThrow(expect.objectContaining({ code: 'bad_request', message: expect.stringMatching(/^wait:/) }));
  });
});
