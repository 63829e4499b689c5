import { describe, it } from 'vitest';
import { absolute, episode, expectParsed, expectRefused, movie } from '../test-fixtures/expect-parse.ts';

describe('form absolute number', () => {
  it.each([
    ['[Kitsune] Moon Garden - 07 [1080p][ABCD1234].mkv', absolute('Moon Garden', [7])],
    ['[Kitsune] Moon Garden - 1104 (1080p) [ABCD1234].mkv', absolute('Moon Garden', [1104])],
    ['[Kitsune] Moon Garden - 07v2 [720p].mkv', absolute('Moon Garden', [7])],
    ['[Kitsune] Moon Garden - 07-09 [720p].mkv', absolute('Moon Garden', [7, 8, 9])],
    ['[Kitsune] Moon Garden - (01-04) [720p].mkv', absolute('Moon Garden', [1, 2, 3, 4])],
    ['[Kitsune] Moon Garden - 07+08 [720p].mkv', absolute('Moon Garden', [7, 8])],
    ['[Kitsune] Moon Garden - 24 END [720p].mkv', absolute('Moon Garden', [24])],
    ['[Kitsune].Moon.Garden.-.07.[1080p]', absolute('Moon Garden', [7])],
    ['[Kitsune] Moon_Garden-07_(H264)_[ABCD1234].mkv', absolute('Moon Garden', [7])],
    ['[Kitsune] Moon Garden 07 [BD 1080p].mkv', absolute('Moon Garden', [7])],
    ['[Kitsune] Moon Garden (7).mkv', absolute('Moon Garden', [7])],
    ['[Kitsune][Moon Garden][07][1080p]', absolute('Moon Garden', [7])],
    ['[Kitsune][Moon Garden] 07 [1080p]', absolute('Moon Garden', [7])],
    ['Moon Garden 07 vostfr [1080p]', absolute('Moon Garden', [7])],
    ['Moon.Garden.10.720p.HDTV', absolute('Moon Garden', [10])],
    ['Moon Garden 63 [ABCD1234].mkv', absolute('Moon Garden', [63])],
    ['Moon Garden - 107 - The Long Night.mkv', absolute('Moon Garden', [107])],
    ['Moon_Garden_13-15_[BD_1080p]', absolute('Moon Garden', [13, 14, 15])],
    ['Moon Garden 720p 07', absolute('Moon Garden', [7])],
    ['Moon.Garden.HDTV.x264.107', absolute('Moon Garden', [107])],
    ['[Kitsune] Moon Garden 2 - 05 [720p].mkv', absolute('Moon Garden 2', [5])],
    ['[Kitsune] Moon Garden No. 8 - 05 [720p].mkv', absolute('Moon Garden No. 8', [5])],
    ['【Kitsune】★【Moon Garden】[12（END）][GB][720P_MP4]', absolute('Moon Garden', [12])],
    ['[Kitsune][Moon Garden][12 END][1080p]', absolute('Moon Garden', [12])],
    ['Uploader.[Kitsune]_Moon_Garden_-_05v2_[720p][ABCD1234].mkv', absolute('Moon Garden', [5])],
    ['12 [Kitsune]_Moon_Garden_-_12_[FINAL]_[XviD][ABCD1234].avi', absolute('Moon Garden', [12])],
    ['[Kitsune][国漫][月之花园][Moon Garden][2019][08][HEVC][1080P]', absolute('Moon Garden', [8], { year: 2019 })],
    ['【4月/月光字幕社】[KTS][月之花园][Moon Garden][04][1080p AVC_AAC]', absolute('Moon Garden', [4])],
    ['[Kitsune] 月之花园 / Moon Garden - 04 (B-Global 1920x1080 HEVC AAC MKV)', absolute('Moon Garden', [4])],
  ])('%s', (name, want) => {
    expectParsed(name, want);
  });

  it('reads a range of three-digit numbers ending a spaced name as a batch, not a two-digit one', () => {
    expectParsed('Moon Garden 104-106', absolute('Moon Garden', [104, 105, 106]));
    expectParsed('Moon Garden No. 8 001-002 [DVD]', absolute('Moon Garden No. 8', [1, 2]));
    // "03-20" may be season 3, episode 20.
    expectRefused('Moon Garden 03-20');
  });

  it('reads a season written before the number as that season', () => {
    expectParsed('[Kitsune] Moon Garden S2 - 05 [1080p].mkv', episode('Moon Garden', 2, [5]));
    expectParsed('[Kitsune] Moon Garden Season 2 - 05 [1080p].mkv', episode('Moon Garden', 2, [5]));
    expectParsed('[Kitsune] Moon Garden S3 - 01 (51) [720p].mkv', episode('Moon Garden', 3, [1], { absolute_episodes: [51] }));
    expectParsed('Moon Garden S2 (2019) - 11 (720p)', episode('Moon Garden', 2, [11], { year: 2019 }));
  });

  it('is no episode number: years, sizes, audio layouts, counted words', () => {
    expectParsed('Moon Garden (2019) 1080p WEB - 5.1 - 2.3GB', movie('Moon Garden', 2019));
    expectParsed('Catch-44 (1970) 1080p.mkv', movie('Catch-44', 1970));
    expectRefused('Moon.Garden.Vol.3.720p.HDTV');
  });

  it('refuses what could be read two ways', () => {
    // the series may be "Moon Garden" or "Moon Garden - Night Bloom"
    expectRefused('[Kitsune] Moon Garden - Night Bloom - 05 [720p].mkv', /" - "/);
    // 07 is the episode, or the show is "Moon Garden 279 Long Night"?
    expectRefused('[Kitsune] Moon_Garden_279_Long_Night_1_[720p].mkv', /number inside the title/);
    // a lone 2 before release words: season, sequel or episode?
    expectRefused('Moon Garden 2 (TV)');
    // "03-20" is season 3 episode 20 in some countries' names, episodes 3 to 20 in others
    expectRefused('Moon Garden 03-20.mkv');
    // HD is a word of titles too ("Moon Garden HD")
    expectRefused('Moon Garden HD 07');
    // episode 5 in 1080 lines, or episode 1080 of "Moon Garden 05"?
    expectRefused('[Kitsune]Moon_Garden_05_1080.BD.FLAC_[D7F8E39D].mkv', /resolution/);
    expectRefused('[Kitsune] Moon Garden 05 1080 [BD][D7F8E39D].mkv', /resolution/);
    expectRefused('[Kitsune] Moon Garden 05 - 1080 [BD].mkv', /resolution/);
    expectRefused('[Kitsune] Moon Garden 05v2 1080 [BD].mkv', /resolution/);
    expectParsed('[Kitsune] Moon Garden 1080 [1080p].mkv', absolute('Moon Garden', [1080]));
  });

  it('drops a word before a group only in a fansub name', () => {
    // no checksum: nothing says the bracket is a group
    expectRefused('Uploader.[Kitsune]_Moon_Garden_-_05_[720p].mkv');
  });

  it('lets a series folder say where the title ends', () => {
    expectParsed('Moon Garden/Season 02/[Kitsune] Moon Garden - Night Bloom - 05 [720p].mkv', episode('Moon Garden', 2, [5]));
  });

  it('leaves numbered films of a series to the movie forms', () => {
    expectRefused('[Kitsune] Moon Garden Movie 2 [BD].mkv');
  });
});
