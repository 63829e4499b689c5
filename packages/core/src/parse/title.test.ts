import { describe, it } from 'vitest';
import { absolute, episode, expectParsed, expectRefused, movie } from './test-fixtures/expect-parse.ts';

describe('titles: what is taken off and what stays', () => {
  it('takes release words, languages and editions off the end of a title', () => {
    expectParsed('Cold.Harbour.UNCUT.GERMAN.1994.DL.1080p.BluRay', movie('Cold Harbour', 1994, { edition: 'Uncut' }));
    expectParsed('Cold.Harbour.German.2012.LD.DVDRip', movie('Cold Harbour', 2012));
    expectParsed('Cold Harbour French 2015 AC3 BDRiP x264', movie('Cold Harbour', 2015));
    expectParsed('Cold.Harbour.3D.2012.1080p.BluRay.HSBS', movie('Cold Harbour', 2012));
    expectParsed('Cold.Harbour.SPECIAL.EXTENDED.EDITION.2001.1080p.BluRay', movie('Cold Harbour', 2001));
    expectParsed('Cold.Harbour.Directors.Cut.1996.1080p.BluRay', movie('Cold Harbour', 1996, { edition: "Director's Cut" }));
    expectParsed('Cold.Harbour.20th.Anniversary.Edition.1994.1080p', movie('Cold Harbour', 1994, { edition: '20th Anniversary Edition' }));
    expectParsed('Cold Harbour - International Cut (2018) 720p', movie('Cold Harbour', 2018));
    expectParsed('Cold.Harbour.CUSTOM.EXTENDED.2020.2160p.UHD', movie('Cold Harbour', 2020));
  });

  it('takes an edition said right before a bracketed year off the title', () => {
    expectParsed('Cold Harbour EXTENDED (2016)', movie('Cold Harbour', 2016, { edition: 'Extended' }));
    expectParsed('Cold Harbour UNRATED (2016).mkv', movie('Cold Harbour', 2016, { edition: 'Unrated' }));
    expectParsed("Cold Harbour Director's Cut (2016)", movie('Cold Harbour', 2016, { edition: "Director's Cut" }));
    expectParsed('Cold Harbour Extended Edition (2016) 1080p', movie('Cold Harbour', 2016, { edition: 'Extended' }));
  });

  it('keeps an edition word a clean title may hold: in title case, in a title all in capitals, after a joining word', () => {
    expectParsed('Cold Harbour Redux (2001)', movie('Cold Harbour Redux', 2001, { edition: null }));
    expectParsed('COLD HARBOUR EXTENDED (2016)', movie('COLD HARBOUR EXTENDED', 2016));
    expectParsed('Rough Longer and UNCUT (2001)', movie('Rough Longer and UNCUT', 2001));
    expectParsed('The Final Cut (2004)', movie('The Final Cut', 2004));
    expectParsed('Cold Harbour The Final Cut (2007)', movie('Cold Harbour The Final Cut', 2007));
    expectParsed('Cold.Harbour.The.Final.Cut.2007.1080p', movie('Cold Harbour The Final Cut', 2007));
  });

  it('keeps words a title needs', () => {
    expectParsed('Harry.English.2006.1080p.BluRay', movie('Harry English', 2006));
    expectParsed('The Quiet German (2009).mkv', movie('The Quiet German', 2009));
    expectParsed('Rough.Longer.and.Uncut.2001.1080p.BluRay', movie('Rough Longer and Uncut', 2001));
    expectParsed('The.Final.Cut.2015.1080p.WEB-DL', movie('The Final Cut', 2015));
    expectParsed('Bokura.wa.Ita.2013.1080p.BluRay', movie('Bokura wa Ita', 2013));
    expectParsed('Storm 3D (2014) [1080p 3D] [BluRay].mkv', movie('Storm 3D', 2014));
    expectParsed('Acme, Inc. (2003) Bluray-1080p.mkv', movie('Acme, Inc.', 2003));
    expectParsed('Agents.of.F.O.X.S02E03.720p.HDTV', episode('Agents of F.O.X.', 2, [3]));
    expectParsed('X.O.R.2019.S01E01.720p.WEB', episode('X.O.R.', 1, [1], { year: 2019 }));
  });

  it('splits a series year and a country code off', () => {
    expectParsed('Dark.Harbour.2019.S01E02.720p.WEB', episode('Dark Harbour', 1, [2], { year: 2019 }));
    expectParsed('Dark Harbour (2019) - S01E02 - Title.mkv', episode('Dark Harbour', 1, [2], { year: 2019 }));
    expectParsed('Dark.Harbour.US.S01E02.720p.WEB', episode('Dark Harbour', 1, [2], { country: 'US' }));
    expectParsed('Dark Harbour (UK) - S01E02.mkv', episode('Dark Harbour', 1, [2], { country: 'UK' }));
    expectParsed('Dark Harbour (US) (2005) - S01E02.mkv', episode('Dark Harbour', 1, [2], { country: 'US', year: 2005 }));
    // a title word that spells a code is not one
    expectParsed('Hold.Onto.Us.S01E02.720p.WEB', episode('Hold Onto Us', 1, [2], { country: null }));
    // nor, in a name all in capitals, a bare one: a word is as likely
    expectParsed('HOLD.ONTO.US.S01E02.720p.WEB', episode('HOLD ONTO US', 1, [2], { country: null }));
    expectParsed('DARK.HARBOUR.(US).S01E02.720p.WEB', episode('DARK HARBOUR', 1, [2], { country: 'US' }));
  });

  it('ends a series title at its bracketed year: brackets after it are tags', () => {
    expectParsed('Dark Harbour (1972) [GRP] episode 06 [1A2B3C4D].mkv', absolute('Dark Harbour', [6], { year: 1972 }));
    expectParsed('Dark Harbour [1972] [Remux] [GRP] - S01E02.mkv', episode('Dark Harbour', 1, [2], { year: 1972 }));
    // without a year before it, a bracket of words may be another title
    expectRefused('Dark Harbour [Puerto Oscuro] episode 06.mkv', /title/);
  });

  it('takes a series year said among the release words after the marker', () => {
    expectParsed('Dark.Harbour.S01.E12.German.2014.ANiME.DL.1080p', episode('Dark Harbour', 1, [12], { year: 2014 }));
    expectParsed('Dark.Harbour.S01E01.Back.to.1985.720p', episode('Dark Harbour', 1, [1], { year: null }));
  });

  it('cuts alternative titles, site prefixes and bracketed release words', () => {
    expectParsed('Dark.Harbour.AKA.Puerto.Oscuro.2015.1080p', movie('Dark Harbour', 2015));
    expectParsed('www.SomeSite.org - Dark Harbour (2015) 1080p', movie('Dark Harbour', 2015));
    expectParsed('[ SomeSite.com ] Dark.Harbour.2015.1080p.mkv', movie('Dark Harbour', 2015));
    expectParsed('IMAX - Dark Harbour 2015 2160p UHD', movie('Dark Harbour', 2015));
  });

  it('takes the one Latin title after a translated one: the original title', () => {
    expectParsed('Тёмная гавань / Dark Harbour (2010) WEB-DL', movie('Dark Harbour', 2010));
    expectParsed('暗港 / Dark Harbour - 04 (1080p)', absolute('Dark Harbour', [4]));
  });

  it('refuses titles that cannot be told apart or are only noise', () => {
    expectRefused('Dark Harbour [Puerto Oscuro] (2016) 720p', /title/);
    expectRefused('Тёмная гавань (Dark Harbour) 1992 BDRip', /title/);
    expectRefused('Тёмная гавань / Dark Harbour / Black Port (2010) WEB-DL');
    expectRefused('(Drama) Some Channel - Dark Harbour - The Film (2017) 1080p', /several parts/);
    expectRefused('The Harbour (Bron Havn) S01 Season 1 BRRip', /bracketed/);
    expectRefused('The.2015.1080p.BluRay', /title/);
    expectRefused('[1080p].2015.mkv');
  });
});
