import { describe, expect, it } from 'vitest';
import { superLinearRuns } from '../test-fixtures/growth.ts';
import { normalizeTitle } from './normalize-title.ts';
import { parseRelease } from './release-name.ts';
import { seasonOfFolder } from './season-folder.ts';

// What other modules call of the parser, on inputs no name on disk reaches: it cuts each name and
// folder at 300 characters before its expressions run, and what it does before the cut is linear.

const RUNS = [' ', '.', '-', '1', '2000.', 'a.', 'S01E01', '(', 'Season ', 'E01-'];
const ENDS = ['!', '.mkv'];
const READERS: Record<string, (s: string) => unknown> = {
  'parseRelease (a name)': parseRelease,
  'parseRelease (a path of many folders)': (s) => parseRelease(s.replaceAll('.', '/')),
  seasonOfFolder,
  normalizeTitle,
};

describe('the release-name parser runs in linear time', () => {
  it.each(Object.entries(READERS))('%s', (_, read) => {
    expect(superLinearRuns(read, RUNS, ENDS)).toEqual([]);
  }, 120_000);
});
