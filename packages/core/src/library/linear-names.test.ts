import { DEFAULT_CONFIG } from '@mo/shared';
import { describe, expect, it } from 'vitest';
import { readSubtitleTags } from '../languages/subtitle-tags.ts';
import { classify, titleYearOfFolder } from './classify.ts';
import { episodeOfFile } from './episode-file.ts';
import { isExtraFile, isExtrasFolder } from './extras.ts';
import { moviePart } from './multi-part.ts';
import { boundedName } from '../parse/name-bound.ts';
import { withoutNameTags } from './name-tags.ts';
import { superLinearRuns } from '../test-fixtures/growth.ts';
import { titleKey } from '../parse/title-key.ts';
import { folderTitleKey } from './title-match.ts';

const opts = {
  videoExtensions: new Set(DEFAULT_CONFIG.library.video_extensions),
  subtitleExtensions: new Set(DEFAULT_CONFIG.library.subtitle_extensions),
};

/** What the library walk and the reports run on a name or a title. */
const READERS: Record<string, (s: string) => unknown> = {
  titleYearOfFolder,
  'classify (a loose movie)': (s) => classify('movies', [`${s}.mkv`], opts, titleYearOfFolder),
  'classify (an episode in a season folder)': (s) => classify('tv', ['Show', 'Season 1', `${s}.mkv`], opts, titleYearOfFolder),
  'classify (a loose episode)': (s) => classify('tv', [`${s}.srt`], opts, titleYearOfFolder),
  episodeOfFile: (s) => episodeOfFile(s, 'Show'),
  isExtraFile: (s) => isExtraFile(s, s),
  isExtrasFolder,
  moviePart,
  withoutNameTags,
  titleKey: (s) => titleKey(s),
  folderTitleKey,
  readSubtitleTags,
};

// Runs of what names are made of, each ending in something that fails the match at the end, which
// is what makes a backtracking expression try every split of the run.
const RUNS = [' ', '.', '-', '_', ' - ', '\t', '1', '19', '2000 ', 'a.', '(', '[', '{tmdb-', 'S01E01', 'cd1 ', 'x1'];
const ENDS = ['', '!'];

describe('the name readers run in linear time', () => {
  it.each(Object.entries(READERS))(
    '%s',
    (_, read) => {
      expect(superLinearRuns(read, RUNS, ENDS)).toEqual([]);
    },
    120_000,
  );
});

describe('boundedName', () => {
  it('cuts nothing a file system can hold, and keeps the rest to the parser’s bound', () => {
    const longest = 'é'.repeat(127); // 254 bytes, as long as a name on disk gets
    expect(boundedName(longest)).toBe(longest);
    expect(boundedName('a'.repeat(255))).toBe('a'.repeat(255));
    expect(boundedName('a'.repeat(1_000_000))).toBe('a'.repeat(300));
  });
});
