import { describe, expect, it } from 'vitest';
import { episodeOfFile } from './episode-file.ts';

const ep = (season: number | null, ...episodes: number[]) => ({ season, episodes, air_date: null });

describe('episodeOfFile: forms that carry their season', () => {
  it.each([
    ['S01E02', ep(1, 2)],
    ['s01e02', ep(1, 2)],
    ['S1E2', ep(1, 2)],
    ['S01E02 - Title', ep(1, 2)],
    ['Show - S01E02 - Title', ep(1, 2)],
    ['Show (2010) - S01E02 - Title [1080p]', ep(1, 2)],
    ['Show.Name.S01E02.720p.HDTV.x264-GRP', ep(1, 2)],
    ['Show S01E05 1080p', ep(1, 5)],
    ['Show.s01.e02', ep(1, 2)],
    ['Show S01 E02', ep(1, 2)],
    ['Show S01xE02', ep(1, 2)],
    ['Show - S01 - E02', ep(1, 2)],
    ['Show Season 1 Episode 5', ep(1, 5)],
    ['Show S2024E01', ep(2024, 1)],
    ['Show - S00E01 - Special', ep(0, 1)],
    ['Series Name A S02E03 Part 1', ep(2, 3)],
    ['1x02', ep(1, 2)],
    ['The Office 3x07 Branch Wars', ep(3, 7)],
    ['Show - 1x02 - Title', ep(1, 2)],
    ['Show.10x101', ep(10, 101)],
  ])('%s', (name, want) => {
    expect(episodeOfFile(name, 'Show')).toEqual(want);
    // These need no series folder.
    expect(episodeOfFile(name, null)).toEqual(want);
  });

  it.each([
    ['S01E01-E02', [1, 2]],
    ['S01E01-E03', [1, 2, 3]],
    ['S01E01 - E03', [1, 2, 3]],
    ['S01E01E02', [1, 2]],
    ['S01E01E02E03', [1, 2, 3]],
    ['S01E01E03', [1, 3]],
    ['S01E01-02', [1, 2]],
    ['S01E05-06 - Title', [5, 6]],
    ['S01E01-S01E03', [1, 2, 3]],
    ['Lost.S01E04E05.720p', [4, 5]],
    ['1x01-1x02', [1, 2]],
    ['1x01 - 1x02', [1, 2]],
    ['1x01x02', [1, 2]],
    ['1x01-02', [1, 2]],
    ['1x01-e03', [1, 2, 3]],
  ])('multi-episode %s', (name, episodes) => {
    expect(episodeOfFile(name, 'Show')?.episodes).toEqual(episodes);
  });

  it.each([
    // a resolution or a year after the episode is no range end
    ['Show S01E05-720p', [5]],
    ['Show S01E05-1080p', [5]],
    ['Show S01E05-2024', [5]],
    ['Show 1x05-720p', [5]],
    // nor a number before the first, nor another season
    ['S01E05-E03', [5]],
    ['S01E01-S02E01', [1]],
    // a range past 50 episodes is a misread
    ['S01E01-E99', [1]],
  ])('%s holds only %j', (name, episodes) => {
    expect(episodeOfFile(name, 'Show')?.episodes).toEqual(episodes);
  });

  it.each([
    ['Show - 2024-03-14', '2024-03-14'],
    ['Show - 2024-03-14 - Guest', '2024-03-14'],
    ['The.Daily.Show.2024.03.14.Guest.720p.WEB', '2024-03-14'],
    ['Show 2024 03 14', '2024-03-14'],
    ['2024-03-14', '2024-03-14'],
  ])('daily %s', (name, date) => {
    expect(episodeOfFile(name, 'Show')).toEqual({ season: null, episodes: [], air_date: date });
    expect(episodeOfFile(name, null)?.air_date).toBe(date);
  });

  it.each(['Show - 2024-02-30', 'Show - 2024-13-01', 'Show - 2024-03.14'])('%s is no date', (name) => {
    expect(episodeOfFile(name, 'Show')).toBeNull();
  });
});

describe('episodeOfFile: numbers without a season, inside a series folder', () => {
  it.each([
    ['01 - Pilot', [1]],
    ['01-Pilot', [1]],
    ['01. Pilot', [1]],
    ['01_Pilot', [1]],
    ['01', [1]],
    ['105', [105]],
    ['1001', [1001]],
    ['01 [1080p]', [1]],
    // a title that begins with a number
    ['07 - 12 Monkeys', [7]],
    ['01 - 1984', [1]],
    ['03 - 24 Hours', [3]],
    ['01-02 - Title', [1, 2]],
    ['Episode 5', [5]],
    ['Episode 5 - Title', [5]],
    ['episode 16', [16]],
    ['Episode 5-6', [5, 6]],
    ['E05', [5]],
    ['e05 - Title', [5]],
    ['Ep05', [5]],
    ['Ep. 7 - Title', [7]],
    ['EP_01', [1]],
    ['Show - E05 - Title', [5]],
    // absolute numbers (anime), with or without the series name and the group
    ['Show - 105', [105]],
    ['Show 105', [105]],
    ['Show (2019) - 105', [105]],
    ['Show - 05 - Title', [5]],
    ['Show - 05v2', [5]],
    ['[Group] Show - 105', [105]],
    ['[Group] Show - 105 [1080p]', [105]],
    ['[SubsPlease] Sousou no Frieren - 05 (1080p) [E3F1A2B4]', [5]],
    ['[Group] Other Name - 12 [BD 1080p]', [12]],
    ['show.105', [105]],
  ])('%s', (name, episodes) => {
    expect(episodeOfFile(name, 'Show')).toEqual({ season: null, episodes, air_date: null });
  });

  it('reads them only inside a series folder', () => {
    expect(episodeOfFile('01 - Pilot', null)).toBeNull();
    expect(episodeOfFile('E05', null)).toBeNull();
    expect(episodeOfFile('Show - 105', null)).toBeNull();
  });

  it('strips the series title however it is spelled before reading the number', () => {
    expect(episodeOfFile('24 - 105', '24')?.episodes).toEqual([105]);
    expect(episodeOfFile("Marvel's Agents of S.H.I.E.L.D. - 05", 'Marvels Agents of SHIELD')?.episodes).toEqual([5]);
    expect(episodeOfFile('1923 - 05 - Title', '1923')?.episodes).toEqual([5]);
  });

  it.each([
    ['Pilot', 'Show'],
    ['Show - Pilot', 'Show'],
    ['Show - 3 Days Later', 'Show'],
    ['Show - Pilot - 2', 'Show'],
    ['30 Rock - Pilot', '30 Rock (US)'],
    ['24 - Legacy', '24'],
    ['1984 - Title', 'Show'],
    ['Show - 2019', 'Show'],
    ['Show - 1080p', 'Show'],
    ['01.5 - Recap', 'Show'],
    ['Show [E3F1A2B4]', 'Show'],
    ['Making of', 'Show'],
  ])('%s (series %s) holds no episode number', (name, series) => {
    expect(episodeOfFile(name, series)).toBeNull();
  });
});
