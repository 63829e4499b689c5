import { describe, it } from 'vitest';
import { episode, expectParsed, expectRefused, movie } from '../test-fixtures/expect-parse.ts';

describe('form NxNN', () => {
  it.each([
    ['Harbour Lights 3x07 The Storm.avi', episode('Harbour Lights', 3, [7])],
    ['Harbour.Lights.03x07.HDTV', episode('Harbour Lights', 3, [7])],
    ['Harbour Lights 3X7 HDTV XviD.avi', episode('Harbour Lights', 3, [7])],
    ['Harbour Lights - [03x07] - The Storm.mkv', episode('Harbour Lights', 3, [7])],
    ['The.Old.Harbour3x07.HDTV.avi', episode('The Old Harbour', 3, [7])],
    ['Harbour Lights [3.07] The Storm.avi', episode('Harbour Lights', 3, [7])],
    ['Harbour Lights - 3.07 - The Storm.mkv', episode('Harbour Lights', 3, [7])],
    ['Гавань [03х07] (2019) HDTVRip', episode('Гавань', 3, [7])],
    ['Harbour.Lights.2009.3x07.HDTV', episode('Harbour Lights', 3, [7], { year: 2009 })],
    ['Harbour.Lights.2xAll.Season.Complete-GRP', episode('Harbour Lights', 2, [])],
  ])('%s', (name, want) => {
    expectParsed(name, want);
  });

  it.each([
    ['Harbour.Lights.3x07.3x08.HDTV', [7, 8]],
    ['Harbour Lights 3x07 3x08 3x09 Titles', [7, 8, 9]],
    ['Harbour_Lights.3x07x08x09.DVD', [7, 8, 9]],
    ['Harbour Lights - 3x07-3x09 - Titles', [7, 8, 9]],
    ['Harbour Lights 3x07-09', [7, 8, 9]],
    ['Harbour.Lights.3x07-x09.HDTV', [7, 8, 9]],
    ['Harbour Lights - [03x07-x09] - Titles', [7, 8, 9]],
    ['Harbour Lights 3x07+08', [7, 8]],
    ['Harbour_Lights.3x07and08and09.DVD', [7, 8, 9]],
  ])('multi-episode %s', (name, episodes) => {
    expectParsed(name, { season: 3, episodes });
  });

  it("ends a spaced range where a title word or another part follows: the number is the title's or an absolute one", () => {
    expectParsed('Harbour Lights - 3x07 - 24 Hour Watch [SDTV]', episode('Harbour Lights', 3, [7]));
    expectParsed('Harbour Lights - 3x07 - 107 - The Storm', { season: 3, episodes: [7], absolute_episodes: [107] });
    expectParsed('Harbour Lights - 3x07 - 09', { season: 3, episodes: [7, 8, 9] });
    expectParsed('Harbour Lights - 3x07 - 09 HDTV', { season: 3, episodes: [7, 8, 9] });
    expectParsed('Harbour Lights - 3x07 - 09 [720p]', { season: 3, episodes: [7, 8, 9] });
  });

  it('is no episode inside a resolution, an audio layout or a title', () => {
    expectParsed('Harbour (2011) [1280x720 x264 AC3 5.1x2].mkv', movie('Harbour', 2011));
    expectParsed('12x12.2015.1080p.BluRay.x264', movie('12x12', 2015));
  });

  it('reads a spaced x, unless a year after it makes the pair part of a title', () => {
    expectParsed('Harbour Lights 3 x 07 The Storm', episode('Harbour Lights', 3, [7]));
    expectParsed('Harbour Lights 1 x 2-GRP', episode('Harbour Lights', 1, [2]));
    expectParsed('Harbour 2 x 4 (2010)', movie('Harbour 2 x 4', 2010));
  });

  it('reads a lone underscore joining two numbers in a dotted or dashed name as the x', () => {
    expectParsed('Harbour.Lights-03_07.avi', episode('Harbour Lights', 3, [7]));
    expectParsed('HarbLts-12_04.avi', episode('HarbLts', 12, [4]));
    expectParsed('Harbour-Lights-2014-02_11-F.avi', episode('Harbour-Lights', 2, [11], { year: 2014 }));
    // Underscores that separate every word are spaces: two loose numbers say nothing sure.
    expectRefused('harbour_lights_03_07.avi');
  });

  it('reads a zero-padded season dotted to its episode in a dotted name, but not a date', () => {
    expectParsed('Harbour.Lights.03.07.720p.HDTV', episode('Harbour Lights', 3, [7]));
    expectParsed('Harbour.Lights.03.07.The.Storm', episode('Harbour Lights', 3, [7]));
    expectParsed('HbrLts.03.07.avi', episode('HbrLts', 3, [7]));
    expectRefused('Harbour.Lights.03.07.2015');
    expectParsed('Harbour.Lights.2015.03.07', { air_date: '2015-03-07' });
  });

  it('refuses episodes of two seasons', () => {
    expectRefused('Harbour.Lights.3x07-4x01.HDTV', /two seasons/);
  });

  it('refuses a range that runs backwards', () => {
    expectRefused('Harbour.Lights.3x09-3x07.HDTV', /ends before it starts/);
    expectRefused('Harbour.Lights.3x09-x07.HDTV', /ends before it starts/);
    expectRefused('Harbour.Lights.3x09-07.HDTV', /ends before it starts/);
  });

  it('leaves a lower number after a spaced dash to the absolute number it may be', () => {
    expectParsed('Harbour Lights - 3x14 - 012 - The Storm', episode('Harbour Lights', 3, [14], { absolute_episodes: [12] }));
  });
});
