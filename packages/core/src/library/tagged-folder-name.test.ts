import { describe, expect, it } from 'vitest';
import { superLinearRuns } from '../test-fixtures/growth.ts';
import { titleYearOfFolder } from './classify.ts';
import { folderTitleKey } from './title-match.ts';
import { readTaggedFolderName } from './tagged-folder-name.ts';

describe('tagged folder names: the title without the release words (the issue’s forms)', () => {
  it.each([
    ['Crouching.Tiger.Hidden.Dragon.4K.UltraHD.HDR.BDrip-HDC', 'Crouching Tiger Hidden Dragon', null],
    ['The Show S01E01', 'The Show', null],
    ['The Show Season 10', 'The Show', null],
    ['[Baz-Bar]Foo - [1080p][Multiple Subtitle]', 'Foo', null],
    ['Heat.1995.1080p.BluRay.x264-GRP', 'Heat', 1995],
  ])('%s', (name, title, year) => {
    expect(titleYearOfFolder(name)).toEqual({ title, year });
  });
});

// In the spirit of Jellyfin's naming tests (Emby.Naming: clean string, clean date/time, series
// path and series resolver tests), written for folder names.
describe('tagged folder names: forms media servers read', () => {
  it.each([
    // resolution, source, codec, HDR and the group glued to the last word
    ['Super movie 480p', 'Super movie', null],
    ['Super movie [480p]', 'Super movie', null],
    ['Super movie Multi', 'Super movie', null],
    ['Crouching.Tiger.Hidden.Dragon.4k', 'Crouching Tiger Hidden Dragon', null],
    ['Crouching.Tiger.Hidden.Dragon.UltraHD', 'Crouching Tiger Hidden Dragon', null],
    ['Crouching.Tiger.Hidden.Dragon.UHD', 'Crouching Tiger Hidden Dragon', null],
    ['Crouching.Tiger.Hidden.Dragon.HDR', 'Crouching Tiger Hidden Dragon', null],
    ['Crouching.Tiger.Hidden.Dragon.BDrip-HDC', 'Crouching Tiger Hidden Dragon', null],
    ['Last.Call.for.Nowhere.WEB-DL.1080p', 'Last Call for Nowhere', null],
    ['Heat.2160p.UHD.BluRay.REMUX.HDR10.HEVC.TrueHD.Atmos-GRP', 'Heat', null],
    ['Heat 1080p', 'Heat', null],
    ['Heat.PROPER.1080p', 'Heat', null],
    ['Heat.REPACK.720p.WEBRip.AAC2.0.x264', 'Heat', null],
    ['Heat.MULTi.1080p.BluRay.x264', 'Heat', null],
    ['Heat DTS-HD 1080p', 'Heat', null],
    ['Heat.AV1.Opus', 'Heat', null],
    ['Heat XviD', 'Heat', null],
    // years: in brackets wherever they stand, bare right before the release words
    ['Heat (1995) 1080p BluRay', 'Heat', 1995],
    ['Heat (1995) [1080p]', 'Heat', 1995],
    ['[GRP] Heat (1995) [1080p]', 'Heat', 1995],
    ['Heat 1995 1080p BluRay x264-GRP', 'Heat', 1995],
    ['Robin Hood [Multi-Subs] [2018]', 'Robin Hood', 2018],
    ['Maximum Ride - 2016 - WEBDL-1080p - x264 AC3', 'Maximum Ride', 2016],
    ['Arrival.2016.2160p.Blu-Ray.HEVC', 'Arrival', 2016],
    ['3.Days.to.Kill.2014.720p.BluRay.x264.YIFY', '3 Days to Kill', 2014],
    ['The Wolf of Wall Street 2001 (2013) 1080p', 'The Wolf of Wall Street 2001', 2013],
    ['300 (2006) [1080p]', '300', 2006],
    ['Super movie(2009) 1080p', 'Super movie', 2009],
    // a year-looking title keeps its title
    ['1917.1080p.BluRay', '1917', null],
    ['1917.2019.1080p.BluRay', '1917', 2019],
    ['2001.A.Space.Odyssey.1080p', '2001 A Space Odyssey', null],
    ['2001 A Space Odyssey (1968) 2160p UHD', '2001 A Space Odyssey', 1968],
    ['Blade.Runner.2049.1080p.BluRay', 'Blade Runner 2049', null],
    ['Blade Runner 2049 (2017) 4K HDR', 'Blade Runner 2049', 2017],
    // series folders
    ['The.Show.S01', 'The Show', null],
    ['The.Show.S01.COMPLETE', 'The Show', null],
    ['The Show S01', 'The Show', null],
    ['The Show S01 1080p', 'The Show', null],
    ['The Show S01E01 Episode', 'The Show', null],
    ['The Show s02e10 720p hdtv', 'The Show', null],
    ['The Show S01E01-E02 720p', 'The Show', null],
    ['The_Show_Season_1', 'The Show', null],
    ['The Show Saison 2', 'The Show', null],
    ['The Show (2010) Season 2 1080p', 'The Show', 2010],
    ['Game of Thrones - The Complete Season 3 [HDTV]', 'Game of Thrones', null],
    ['Hayate no Gotoku 2nd Season 24 (Blu-Ray 1080p)', 'Hayate no Gotoku', null],
    ['Downton Abbey 5x06 HDTV x264-FoV', 'Downton Abbey', null],
    ['S.H.O.W S01', 'S.H.O.W', null],
    ['The.Show.P.I.S01', 'The Show P.I', null],
    ['Bunker.S03.1080p.PULSAR.WEB-DL.DDP5.1.Atmos.H.264-showWEB', 'Bunker', null],
    ['Outer.Colony.S01.1080p.NOVA.WEB-DL.DDP5.1.H.264.HUN.ENG-QUASAR', 'Outer Colony', null],
    ['Kami no Tou - S01E12-Judas[TGx]', 'Kami no Tou', null],
    // group tags and anime
    ['[HorribleSubs] Made in Abyss - 13 [720p]', 'Made in Abyss', null],
    ['[Tsundere] Kore wa Zombie Desu ka of the Dead [BDRip h264 1920x1080 FLAC]', 'Kore wa Zombie Desu ka of the Dead', null],
    ['[Erai-raws] Jujutsu Kaisen - 03 [720p][Multiple Subtitle]', 'Jujutsu Kaisen', null],
    ['[OCN] 애타는 로맨스 720p-NEXT', '애타는 로맨스', null],
    ['[tvN] 혼술남녀.E01-E16.720p-NEXT', '혼술남녀', null],
    ['[tvN] 연애말고 결혼 E01~E16 END HDTV.H264.720p-WITH', '연애말고 결혼', null],
    ['[SGKK] Tengen Toppa Gurren Lagann - 45-46 (720p h264) [F501C9BE]', 'Tengen Toppa Gurren Lagann', null],
    ['[ShinBunBu-Subs] Bleach - 02-03 (CX 1280x720 x264 AAC)', 'Bleach', null],
    ['[Cthuko] Shirobako - 05v2 [720p H264 AAC][80C9B09B]', 'Shirobako', null],
    ['[Erai-raws] Arte - 12 END [720p]', 'Arte', null],
    ['[HorribleSubs] Momokuri - 01+02 [720p]', 'Momokuri', null],
    ['[BluRay Rip 720p ITA AC3] Hostel [2005]', 'Hostel', 2005],
    // a site's name first
    ['www.example.org - Before Sunset 1080p', 'Before Sunset', null],
    ['example.com - Before Sunset 1080p', 'Before Sunset', null],
    // words that are titles' in other cases count in capitals only
    ['The.Purge.Anarchy.German.DL.AC3.Dubbed.1080p.BluRay.x264-Pleaders', 'The Purge Anarchy', null],
    ['Dracula.Untold.TS.XViD.AC3-SiMPLE', 'Dracula Untold', null],
  ])('%s', (name, title, year) => {
    expect(readTaggedFolderName(name)).toEqual({ title, year });
  });
});

describe('tagged folder names: names left as the library names them', () => {
  // readTaggedFolderName says null (nothing it is sure of); the folder's title is then what it
  // was before release words were read.
  it.each([
    // no release words: a title, whatever it looks like
    'Heat',
    '1917',
    '2001 A Space Odyssey',
    'Blade Runner 2049',
    "Charlotte's Web",
    'The Good German',
    'Season of the Witch',
    'The Final Cut',
    'A Proper Violence',
    "Charlotte's Web 2",
    'Web Therapy',
    'Spider-Man',
    'Multi-Facial',
    'American.Psycho',
    'Apocalypse.Now - Redux',
    'The Falls - Peter Greenaway',
    'Exit.Through.the.Gift.Shop - Banksy',
    'The Office (US)',
    'THE GOOD GERMAN WEB',
    // the first word is the title's, whatever it is
    'HDTV Show',
    'Season 2',
    'S01',
    // a group's tag alone, or a bracketed title
    '[REC]',
    '[REC]³',
    '[Group] Show Name',
    // what is left may still hold an episode's number
    'Show Name 04 vostfr [1080p]',
    '[SGKK] Bleach 312v2 [720p MKV]',
    'Something 63 [560D3414]',
    'The.Animatrix.08.A.Detective.Story.720p.BluRay.DTS.x264-ESiR',
    // what is left is not a title
    'The 4K Project',
    'A.1080p.Story.2019',
    'Les HDR Chroniques',
    '[GM-Team][国漫][西行纪之集结篇][The Westward Ⅱ][2019][17][AVC][GB][1080P]',
  ])('%s', (name) => {
    expect(readTaggedFolderName(name)).toBeNull();
  });

  it.each([
    ['Heat (1995)', 'Heat', 1995],
    ['Amélie [2001]', 'Amélie', 2001],
    ['Run lola run (lola rennt) (2009)', 'Run lola run (lola rennt)', 2009],
    ['(500) Days of Summer (2009)', '(500) Days of Summer', 2009],
    ['Mother [Madre] (2016) BluRay', 'Mother [Madre]', 2016],
    ['[REC] 2 (2009)', '[REC] 2', 2009],
    ['[REC] 2 (2009) [1080p]', '[REC] 2', 2009],
    ['Heat 1995', 'Heat', 1995],
    ['Wonder.Woman.1984.2020.1080p', 'Wonder Woman 1984', 2020],
    // edition words stay: an Extended cut is not a copy of the theatrical one
    ['Blade.Runner.EXTENDED.1080p', 'Blade Runner EXTENDED', null],
    ["Blade Runner Director's Cut", "Blade Runner Director's Cut", null],
  ])('%s is %s, %s', (name, title, year) => {
    expect(titleYearOfFolder(name)).toEqual({ title, year });
  });

  it('keeps a country beside the year for the title key', () => {
    expect(folderTitleKey('The Office (2005) (US) 1080p WEB-DL')).toMatchObject({ year: 2005, country: 'US' });
  });
});

describe('readTaggedFolderName runs in linear time', () => {
  const RUNS = [' ', '.', '_', '-', ' - ', ' - 01', '(', '((', '[', '[a]', '[', ']', '(2000)', '1080p ', 'S01E01', 'e1', '#1', 'www. - ', 'A.', '00 '];
  it('on runs of what names are made of', () => {
    expect(superLinearRuns(readTaggedFolderName, RUNS, ['', '!', ' 1080p', ' - 01'])).toEqual([]);
  }, 240_000);
});
