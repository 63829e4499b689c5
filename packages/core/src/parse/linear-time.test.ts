import { describe, expect, it } from 'vitest';
import { growthExponent, LINEAR_BOUND, run, superLinearRuns } from '../test-fixtures/growth.ts';
import { parseRelease } from './release-name.ts';
import { seasonOfFolder } from './season-folder.ts';
import { titleKey } from './title-key.ts';

// What other modules call of the parser, on inputs no name on disk reaches: it cuts each name and
// folder at 300 characters before its expressions run, and what it does before the cut is linear.

const RUNS = [' ', '.', '-', '1', '2000.', 'a.', 'S01E01', '(', 'Season ', 'E01-'];
const ENDS = ['!', '.mkv'];
const READERS: Record<string, (s: string) => unknown> = {
  'parseRelease (a name)': parseRelease,
  'parseRelease (a path of many folders)': (s) => parseRelease(s.replaceAll('.', '/')),
  seasonOfFolder,
  titleKey: (s) => titleKey(s),
};

// Names made only of a run, each with what ends it: judged by how the time grows, not by a time
// limit, which a slow or loaded machine misses however linear the parser is.
const PATHOLOGICAL_NAMES: [unit: string, end: string][] = [
  [' -', 'x'],
  ['a.', '2010'],
  ['1 ', ''],
  ['[a]', ''],
  ['S01E01', ''],
  ['1x', ''],
  ['Season 1 ', ''],
  ['- 01 ', ''],
];

describe('the release-name parser runs in linear time', () => {
  it.each(Object.entries(READERS))(
    '%s',
    (_, read) => {
      expect(superLinearRuns(read, RUNS, ENDS)).toEqual([]);
    },
    120_000,
  );

  it('parseRelease on pathological names', () => {
    const superLinear = PATHOLOGICAL_NAMES.filter(([unit, end]) => growthExponent(parseRelease, run('', unit, end)) >= LINEAR_BOUND);
    expect(superLinear).toEqual([]);
  }, 60_000);
});
