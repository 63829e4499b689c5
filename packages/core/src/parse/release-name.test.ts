import { describe, expect, it } from 'vitest';
import { parseRelease, parseReleaseName } from './release-name.ts';
import { absolute, daily, episode, expectParsed, expectRefused, movie } from './test-fixtures/expect-parse.ts';

describe('parseRelease: paths and folders', () => {
  it('reads Plex / Sonarr / Radarr library layouts', () => {
    expectParsed('Breaking Bad/Season 01/Breaking Bad - S01E01 - Pilot.mkv', episode('Breaking Bad', 1, [1]));
    expectParsed('Breaking Bad (2008)/Season 05/Breaking Bad (2008) - S05E14 - Ozymandias.mkv', episode('Breaking Bad', 5, [14], { year: 2008 }));
    expectParsed('The Matrix (1999)/The Matrix (1999).mkv', movie('The Matrix', 1999));
    expectParsed('TV\\Breaking Bad\\Season 2\\Breaking Bad - S02E03.mkv', episode('Breaking Bad', 2, [3]));
    expectParsed('Dark/Staffel 2/Dark - S02E03.mkv', episode('Dark', 2, [3]));
  });

  it('takes the title of a release folder for an abbreviated or obfuscated file name', () => {
    expectParsed('The.Matrix.1999.1080p.BluRay.x264-GROUP/the.matrix.1999.1080p.mkv', movie('The Matrix', 1999));
    expectParsed('Knives.Out.2019.1080p.BluRay.x264-SPARKS/sparks-knivesout-1080p.mkv', movie('Knives Out', 2019));
    expectParsed('The.Last.of.Us.S01E01.1080p.WEB.H264-CAKES/tlou.s01e01.1080p-cakes.mkv', episode('The Last of Us', 1, [1]));
    expectParsed('The.Mandalorian.S03E01.1080p.WEB.H264-GLHF/3f8a9c2e1b7d.mkv', episode('The Mandalorian', 3, [1]));
    expectParsed('Breaking.Bad.S01.1080p.BluRay.x264-ROVERS/breaking.bad.s01e03.1080p.bluray.x264-rovers.mkv', episode('Breaking Bad', 1, [3]));
  });

  it('lets the release folder decide for a file name of random characters', () => {
    // Each holds an accidental marker ("3X11", "1x04") that read as an episode of a series of its own.
    expectParsed('Night.Harbour.S02E05.720p.WEB-DL-GRP/tRq9wK3X11bLm7Wz.mkv', episode('Night Harbour', 2, [5]));
    expectParsed('Night.Harbour.2018.1080p.BluRay.x264-GRP/bN7vKd1x04fLqWe2.mkv', movie('Night Harbour', 2018));
  });

  it('refuses a file name of random characters that no folder names', () => {
    const why = /obfuscated/;
    expectRefused('hJkQ2x05mPwRt9Yz.mkv', why);
    expectRefused('Night.Harbour.S02.720p.WEB-DL-GRP/hJkQ2x05mPwRt9Yz.mkv', why);
    expectRefused('Night Harbour/Season 2/hJkQ2x05mPwRt9Yz.mkv', why);
  });

  it('reads a camel-cased file name, which is no random one', () => {
    expectParsed('NightHarbourS02E05.mkv', episode('NightHarbour', 2, [5]));
  });

  it('reads slashes between the numbers of a date ending a release name as a date, not folders', () => {
    expectParsed('Harbour Lights 03/14/2015', daily('Harbour Lights', '2015-03-14'));
    expectParsed('Harbour Lights 03/14/2015 720p HDTV', daily('Harbour Lights', '2015-03-14'));
    expectParsed('TV/Harbour Lights/Harbour Lights 03/14/2015.mkv', daily('Harbour Lights', '2015-03-14'));
  });

  it('reads an abbreviated file name ending in a code of the season its folder names', () => {
    expectParsed('Harbour.Lights.S03.720p.HDTV.x264-GRP/grp-hl307.avi', episode('Harbour Lights', 3, [7]));
    expectParsed('Harbour Lights/Season 12/grp.hl1204.avi', episode('Harbour Lights', 12, [4]));
    expectParsed('Harbour.Lights.S03.720p.HDTV.x264-GRP/05 - The Storm.avi', episode('Harbour Lights', 3, [5]));
    // A code of another season is no episode of this one.
    expectRefused('Harbour.Lights.S03.720p.HDTV.x264-GRP/grp-hl407.avi');
  });

  it('takes what a file name lacks from the folders around it', () => {
    expectParsed('The Matrix (1999)/abc-xyz.mkv', movie('The Matrix', 1999));
    expectParsed('Firefly/Season 1/Episode 5.mkv', episode('Firefly', 1, [5]));
    expectParsed('Fargo (2014)/Season 02/05 - Fear and Trembling.mkv', episode('Fargo', 2, [5], { year: 2014 }));
    expectParsed('Sherlock/Season 2/S02E03.mkv', episode('Sherlock', 2, [3]));
    expectParsed('Planet Earth II/Specials/Planet Earth II - S00E01 - A World of Wonder.mkv', episode('Planet Earth II', 0, [1]));
    expectParsed('Movies/Inception (2010)/Inception.mkv', movie('Inception', 2010));
    expectParsed('Dune.Part.Two.2024.2160p.WEB-DL.DDP5.1.Atmos.DV.HDR.H.265-FLUX/Sample/sample.mkv', movie('Dune Part Two', 2024));
    expectParsed('Naruto/Season 1/[Grp] Naruto - 05 [720p].mkv', episode('Naruto', 1, [5]));
    expectParsed('One Piece/[Grp] One Piece - 1071 [1080p].mkv', absolute('One Piece', [1071]));
  });

  it("says when the year follows the episode marker, and takes a folder's year for the same show over it", () => {
    const year = (path: string) => {
      const r = parseRelease(path);
      return r.ok ? { year: r.media.year, late: r.media.year_after_episode } : null;
    };
    expect(year('Young.Sheldon.S07E14.2024.1080p.WEB.h264-ETHEL.mkv')).toEqual({ year: 2024, late: true });
    expect(year('Doctor.Who.2005.S13E01.1080p.WEB.mkv')).toEqual({ year: 2005, late: false });
    expect(year('Young Sheldon (2017)/Young.Sheldon.S07E14.2024.1080p.WEB.h264-ETHEL.mkv')).toEqual({ year: 2017, late: false });
    expect(year('Young.Sheldon.S07.2024.1080p.WEB/Young.Sheldon.S07E14.2024.1080p.WEB.mkv')).toEqual({ year: 2024, late: true });
    expect(year('The Matrix (1999)/The Matrix (1999).mkv')).toEqual({ year: 1999, late: false });
  });

  it('lets a series folder name the series of a longer file title', () => {
    expectParsed('Bizarre Tales (2012)/Season 02/[Grp] Bizarre Tales - Desert Run - 12 [1080p].mkv', episode('Bizarre Tales', 2, [12], { year: 2012 }));
  });

  it('reads subtitle and .nfo sidecars as their video', () => {
    expectParsed('Parasite (2019)/Parasite (2019).en.srt', movie('Parasite', 2019));
    expectParsed('Movies/Arrival (2016)/Arrival (2016).en.forced.srt', movie('Arrival', 2016));
    expectParsed('Dark/Season 1/Dark - S01E01 - Secrets.de.forced.srt', episode('Dark', 1, [1]));
    expectParsed('Dark.S01E01.1080p.WEB.nfo', episode('Dark', 1, [1]));
  });

  it('does not take a year or a titled season pack folder for a season folder', () => {
    expectParsed('2019/Dark.S01E01.1080p.WEB.mkv', episode('Dark', 1, [1]));
    expectParsed('Dark.S01.1080p.WEB/Dark.S01E04.1080p.WEB.mkv', episode('Dark', 1, [4]));
  });
});

describe('parseRelease: refusals say why', () => {
  it.each([
    ['abc-xyz.mkv', /no year, season, episode/],
    ['sample.mkv', /./],
    ['Episode 5.mkv', /title/],
    ['S01E01.mkv', /title/],
    ['Inception.1080p.BluRay.mkv', /year/],
    ['IMG_1234.mp4', /camera/],
    ['Some Artist - Song (1999).mp3', /\.mp3/],
    ['Movies/abc-xyz.mkv', /./],
    ['', /./],
    ['.mkv', /./],
  ])('%j', (name, why) => {
    expectRefused(name, why);
  });

  it('refuses a season folder around a file that names no episode', () => {
    expectRefused('Firefly/Season 1/abc-xyz.mkv');
  });
});

describe('parseRelease: hostile and odd input', () => {
  it('never throws and keeps its shape', () => {
    const odd = [
      '/',
      '////',
      '[]',
      '[] - 01',
      '((((((',
      ' - - - ',
      'S99999E99999',
      '1x1',
      '0000.00.00',
      'ä'.repeat(500),
      `${'a.'.repeat(2000)}S01E01`,
      '.'.repeat(3000),
      `${' -'.repeat(2000)}2010`,
      '\u0000\uffff',
      '1999',
      '(1999)',
      'constructor',
      '__proto__.S01E01',
      '['.repeat(400),
      `${'(2010)'.repeat(200)}`,
      '&#039;'.repeat(100),
    ];
    for (const n of odd) {
      const r = parseRelease(n);
      if (r.ok) {
        expect(['movie', 'episode']).toContain(r.media.kind);
        expect(r.media.title.length).toBeGreaterThan(0);
      } else {
        expect(typeof r.detail).toBe('string');
      }
    }
  });

  it('reads phone and camera clips as no media', () => {
    for (const name of ['IMG_1964.mov', 'VID_20240101_1964.mp4', 'PXL_20230405_123456789.mp4', 'DSC01964.MOV', 'GOPR1964.MP4', 'MVI_1999.avi']) {
      expect(parseReleaseName(name), name).toBeNull();
    }
  });
});
