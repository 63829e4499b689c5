import { describe, expect, it } from 'vitest';
import { seasonOfFolder, seasonFolderAlone } from './season-folder.ts';

describe('seasonOfFolder', () => {
  it.each([
    // English, as Jellyfin, Plex and Kodi name them
    ['Season 1', 1],
    ['Season 01', 1],
    ['Season 12', 12],
    ['Season1', 1],
    ['Season.02', 2],
    ['season_3', 3],
    ['SEASON 4', 4],
    ['Season 00', 0],
    ['Season 100', 100],
    ['Season 2009', 2009],
    ['Series 2', 2],
    ['S01', 1],
    ['s1', 1],
    ['Specials', 0],
    ['specials', 0],
    ['Special', 0],
    // the year the season aired, or its title, after the number
    ['Season 1 (2008)', 1],
    ['Season 7 [2016]', 7],
    ['Season 01 - Riders of Berk', 1],
    ['S02 (2010)', 2],
    // a bare number
    ['1', 1],
    ['01', 1],
    ['2', 2],
    // the series name before it (Sonarr's series-prefixed season folders)
    ['Solar Opposites - Season 1', 1],
    ['Star Trek Discovery (2017) - Season 3', 3],
    ['The Office Season 2', 2],
    ['The Series Finale - Season 1', 1],
    ['Friends - Staffel 5', 5],
    ['Seinfeld - S02', 2],
    ['The Reason S02', 2],
    // other languages (Jellyfin's list and their kin), any case
    ['Staffel 2', 2],
    ['STAFFEL 2', 2],
    ['3.Staffel', 3],
    ['3. Staffel', 3],
    ['Staffel 7 (2016)', 7],
    ['Saison 3', 3],
    ['Temporada 4', 4],
    ['Stagione 5', 5],
    ['Sezon 6', 6],
    ['1. Sezon', 1],
    ['Sezona 2', 2],
    ['sezóna 2', 2],
    ['Sezonul 3', 3],
    ['Säsong 7', 7],
    ['SÄSONG 7', 7],
    ['Sæson 8', 8],
    ['SÆSON 8', 8],
    ['Sesong 9', 9],
    ['Seasong 9', 9],
    ['Seizoen 10', 10],
    ['Kausi 11', 11],
    ['Tuotantokausi 2', 2],
    ['Évad 12', 12],
    ['1. évad', 1],
    ['Série 2', 2],
    ['Serie 3', 3],
    ['сезон 4', 4],
    ['Сезон 5', 5],
    ['СЕЗОН 5', 5],
    ['シーズン 6', 6],
    ['シーズン6', 6],
    ['시즌 7', 7],
    ['시즌7', 7],
    ['第1季', 1],
    ['第 2 季', 2],
    ['第二季', 2],
    ['第十季', 10],
    ['第十二季', 12],
    ['第二十一季', 21],
    ['第3期', 3],
  ])('%s is season %i', (name, season) => {
    expect(seasonOfFolder(name)).toBe(season);
  });

  it.each([
    'Extras',
    'Featurettes',
    'Behind The Scenes',
    'Subs',
    'Season (8)',
    'Season',
    'Seasons 1-3',
    's06e05',
    'S01E02',
    'Disc 1',
    'CD1',
    'Reasoning',
    'The.Wonder.Years.S04.PDTV.x264-JCH',
    '12345',
    '第季',
    '第一二季',
    'Season 1 Extras',
  ])('%s is no season folder', (name) => {
    expect(seasonOfFolder(name)).toBeNull();
  });
});

describe('seasonFolderAlone (download paths)', () => {
  it.each([
    ['Season 1', 1],
    ['Season 02 (2008)', 2],
    ['S03', 3],
    ['Specials', 0],
    ['Staffel 2', 2],
    ['3. Staffel', 3],
    ['第2季', 2],
  ])('%s is season %i', (name, season) => {
    expect(seasonFolderAlone(name)).toBe(season);
  });

  it.each(['2019', '01', 'Show Name S01', 'Solar Opposites - Season 1', 'Show.Name.S01.720p', 'Season Finale'])(
    '%s is not a season folder on its own',
    (name) => {
      expect(seasonFolderAlone(name)).toBeNull();
    },
  );
});
