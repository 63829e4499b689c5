import { describe, expect, it } from 'vitest';
import { withoutNameTags } from './name-tags.ts';

describe('withoutNameTags', () => {
  it.each([
    ['Movie (2021) [imdbid-tt12801262]', 'Movie (2021)'],
    ['Best_Movie_Ever (1994) [tmdbid-680] [imdbid-1234]', 'Best_Movie_Ever (1994)'],
    ['Series Name (2018) [tvdbid-79168]', 'Series Name (2018)'],
    ['Movie (2010) [tmdbid=680]', 'Movie (2010)'],
    ['Show {tvdb-12345}', 'Show'],
    ['Movie (2010) {tmdb-123}', 'Movie (2010)'],
    ['Movie (2010) {imdb-tt0106145}', 'Movie (2010)'],
    ['Show [TVDBID-1] (2005)', 'Show (2005)'],
    ["Blade Runner (1982) {edition-Director's Cut}", 'Blade Runner (1982)'],
    ['Movie (2010) {edition-Final Cut} {tmdb-78}', 'Movie (2010)'],
    // what is not a tag stays
    ['Movie (2010) [1080p]', 'Movie (2010) [1080p]'],
    ['The Office (US)', 'The Office (US)'],
    ['Firefly', 'Firefly'],
  ])('%s', (name, want) => {
    expect(withoutNameTags(name)).toBe(want);
  });
});
