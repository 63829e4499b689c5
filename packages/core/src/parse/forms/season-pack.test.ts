import { describe, it } from 'vitest';
import { episode, expectParsed, expectRefused } from '../test-fixtures/expect-parse.ts';

describe('form season pack', () => {
  it.each([
    ['Glass.City.S03.1080p.BluRay.x264-GRP', episode('Glass City', 3, [])],
    ['Glass City Season 3 Complete 720p', episode('Glass City', 3, [])],
    ['Glass City - The Complete Season 3 [HDTV]', episode('Glass City', 3, [])],
    ['Glass City S03 Season 3 720p WebRip', episode('Glass City', 3, [])],
    ['Glass.City.S03D02.German.DVD9', episode('Glass City', 3, [])],
    ['Glass City Staffel 3 German', episode('Glass City', 3, [])],
    ['Glass City - 3ª Temporada Completa 2019 (1080p)', episode('Glass City', 3, [], { year: 2019 })],
    ['Glass.City.S03.2017.720p.BluRay', episode('Glass City', 3, [], { year: 2017 })],
    ['Glass City S01 (01 - 10) [1080p]', episode('Glass City', 1, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])],
  ])('%s', (name, want) => {
    expectParsed(name, want);
  });

  it('refuses several seasons', () => {
    expectRefused('Glass.City.S01-S03.1080p.BluRay', /several seasons/);
    expectRefused('Glass City Seasons 1-3 Complete', /several seasons/);
    expectRefused('Glass.City.S01-03.720p', /several seasons/);
  });

  it('refuses a pack that names a part: of the season, or of an episode title?', () => {
    expectRefused('Glass.City.S03.The.Storm.Part.2.720p.BluRay', /part/);
  });
});
