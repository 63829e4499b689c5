import { describe, it } from 'vitest';
import { expectParsed, expectRefused, movie } from '../test-fixtures/expect-parse.ts';

describe('form movie year', () => {
  it.each([
    ['Paper.Boats.2015.1080p.BluRay.x264-GRP', movie('Paper Boats', 2015)],
    ['Paper Boats (2015) [1080p] [BluRay] [5.1]', movie('Paper Boats', 2015)],
    ['Paper_Boats_2015_1080p.mkv', movie('Paper Boats', 2015)],
    ['Paper Boats (2015) {imdb-tt0000000} [Bluray-1080p].mkv', movie('Paper Boats', 2015)],
    ['Paper Boats [2015] WEBRip.mkv', movie('Paper Boats', 2015)],
    ['1999.A.Long.Night.1971.1080p.BluRay', movie('1999 A Long Night', 1971)],
    ['City 2040 (2012).mkv', movie('City 2040', 2012)],
    ['City.2040.2012.1080p.BluRay', movie('City 2040', 2012)],
    ['1990 (2020).mkv', movie('1990', 2020)],
    ['Paper Boats  (Drama 1951)  Lead Actor', movie('Paper Boats', 1951)],
    ['Dust.1922.1080p.BluRay.x264', movie('Dust', 1922)],
    ['Dust.and.Echoes.1982-1992.2019.DOCU.HDTV', movie('Dust and Echoes 1982-1992', 2019)],
    ['Бумажные кораблики / Paper Boats (2015) WEB-DL 1080p', movie('Paper Boats', 2015)],
  ])('%s', (name, want) => {
    expectParsed(name, want);
  });

  it('refuses a translated title beside two Latin ones: either may be the original', () => {
    expectRefused('Бумажные кораблики / Paper Boats / Boats of Paper (2015) WEB-DL 1080p');
  });

  it('refuses a "N of M" part inside a movie title: the episode of a mini-series', () => {
    expectRefused('Paper.Boats.Saga.3of6.The.River.1992.DVDRip', /of M/);
    expectParsed('One of Us (2016)', movie('One of Us', 2016));
  });

  it('refuses a movie without a year, and a collection of years', () => {
    expectRefused('Paper.Boats.1080p.BluRay.x264-GRP', /year/);
    expectRefused('Paper Boats Collection (1990-2005) [1080p]', /collection/);
  });
});
