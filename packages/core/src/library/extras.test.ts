import { describe, expect, it } from 'vitest';
import { isExtraFile, isExtrasFolder } from './extras.ts';

describe('isExtrasFolder', () => {
  it.each([
    'Extras',
    'extras',
    'Extra',
    'Behind The Scenes',
    'behind the scenes',
    'Deleted Scenes',
    'Featurettes',
    'Featurette',
    'Interviews',
    'Interview',
    'Scenes',
    'Scene',
    'Shorts',
    'Short',
    'Trailers',
    'trailer',
    'Clips',
    'Clip',
    'Other',
    'Others',
    'Samples',
    'Sample',
    'SAMPLE',
    'Backdrops',
    'theme-music',
    'Bonus',
  ])('%s holds extras', (name) => {
    expect(isExtrasFolder(name)).toBe(true);
  });

  it.each(['Season 1', 'Specials', 'Subs', 'Trailer Park Boys', 'The Other Guys (2010)', 'Scenes from a Marriage', 'Deleted Scenes (2019)'])(
    '%s does not',
    (name) => {
      expect(isExtrasFolder(name)).toBe(false);
    },
  );
});

describe('isExtraFile', () => {
  it.each([
    // a file named only the word
    'trailer',
    'Trailer',
    'Trailer 2',
    'trailer2',
    'sample',
    'Sample',
    // Jellyfin's and Plex's suffixes, with a number after them
    'Movie (2010)-trailer',
    'Movie (2010).trailer',
    'Movie (2010)_trailer',
    'Movie (2010) trailer',
    'Movie (2010)-trailer2',
    'Movie (2010)-sample',
    'Movie (2010).sample',
    'alien.1979.sample',
    'Movie (2010) sample',
    'Favorite Scene-scene',
    'The Best Ever-clip',
    'Director-interview',
    'Making Of-behindthescenes',
    'Alternate-deleted',
    'Alternate-deletedscene',
    'Theme Song Video-featurette',
    'Art-short',
    'Loremipsum-other',
    'Thing-extra',
    'MOVIE-TRAILER',
    'Show - S01E01-deleted',
    // scene samples name the word first
    'sample-grp-movie',
    'sample.movie.2010',
  ])('%s is an extra', (base) => {
    expect(isExtraFile(base, 'Movie')).toBe(true);
  });

  it.each([
    'Movie (2010)',
    'Trailer Park Boys - S01E01',
    'The Other Guys (2010)',
    'Scenes from a Marriage - S01E01',
    'Deleted Scenes',
    'A Short',
    'The Other',
    'Movie - Other',
    'Short Circuit (1986)',
    'Interview with the Vampire (1994)',
    'Clip Show',
    'Samples of Life',
    'Movie (2010) - cd1',
  ])('%s is not', (base) => {
    expect(isExtraFile(base, 'Movie')).toBe(false);
  });

  it('takes a file named after its folder as the main video whatever word it ends in', () => {
    expect(isExtraFile('Free Sample', 'Free Sample')).toBe(false);
    expect(isExtraFile('free.sample', 'Free Sample')).toBe(false);
    expect(isExtraFile('Free Sample', null)).toBe(true);
  });
});
