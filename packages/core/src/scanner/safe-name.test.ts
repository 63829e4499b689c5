import { describe, expect, it } from 'vitest';
import { MAX_NAME_BYTES, safeName, truncateBytes } from './safe-name.ts';

describe('safeName', () => {
  it.each([
    ['CON: The Movie', 'CON - The Movie'],
    ['Time 12:01', 'Time 12-01'],
    ['AC/DC Live', 'AC-DC Live'],
    ['Back\\Slash|Pipe', 'Back-Slash-Pipe'],
    ['Say "Hello"', "Say 'Hello'"],
    ['What If...?', 'What If'],
    ['Who? What* <Where>', 'Who What Where'],
    ['  spaced   out  ', 'spaced out'],
    ['.hidden name', 'hidden name'],
    ['trailing dots...', 'trailing dots'],
    ['tab\tand\nnewline\u0000nul', 'tab and newline nul'],
    ['', '_'],
    ['...', '_'],
    ['?*', '_'],
    ['Amélie', 'Amélie'],
  ])('%j → %j', (raw, safe) => {
    expect(safeName(raw)).toBe(safe);
  });

  it('composes decomposed accents (macOS names) so one title has one spelling', () => {
    expect(safeName('Ame\u0301lie')).toBe('Amélie');
  });

  it.each([['CON'], ['con'], ['PRN'], ['AUX'], ['NUL'], ['COM1'], ['LPT9'], ['com²']])('suffixes the Windows device name %s', (name) => {
    expect(safeName(name)).toBe(`${name}_`);
    expect(safeName(name, { suffix: '.mkv' })).toBe(`${name}_.mkv`);
  });

  it('leaves names that only start like a device name alone', () => {
    expect(safeName('Console Wars')).toBe('Console Wars');
    expect(safeName('Auxiliary')).toBe('Auxiliary');
  });

  it('keeps the suffix whole and trims the stem when the name is too long', () => {
    const name = safeName('a'.repeat(400), { suffix: '.mkv' });
    expect(Buffer.byteLength(name)).toBe(MAX_NAME_BYTES);
    expect(name.endsWith('a.mkv')).toBe(true);
  });

  it('leaves room for longer suffixes when asked', () => {
    const name = safeName('a'.repeat(400), { suffix: '.mkv', reserveBytes: 24 });
    expect(Buffer.byteLength(name)).toBe(MAX_NAME_BYTES - 24);
  });

  it('never cuts a multi-byte character in two, and drops a space or dot the cut exposes', () => {
    const name = safeName('日本'.repeat(100));
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(name).toBe('日本'.repeat(42) + '日');
    expect(safeName(`${'a'.repeat(250)}  .  bcdefgh`, { suffix: '.mkv' })).toBe(`${'a'.repeat(250)}.mkv`);
  });
});

describe('truncateBytes', () => {
  it('counts bytes, not characters', () => {
    expect(truncateBytes('ééé', 5)).toBe('éé');
    expect(truncateBytes('😀x', 3)).toBe('');
    expect(truncateBytes('abc', 10)).toBe('abc');
  });
});
