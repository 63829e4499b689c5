import { describe, it } from 'vitest';
import { episode, expectParsed, expectRefused } from '../test-fixtures/expect-parse.ts';

describe('form SxxEyy', () => {
  it.each([
    ['Northern.Lights.S02E07.1080p.WEB.h264-GRP', episode('Northern Lights', 2, [7])],
    ['northern.lights.s2e7.720p.mkv', episode('northern lights', 2, [7])],
    ['Northern Lights S02 E07 Title.mkv', episode('Northern Lights', 2, [7])],
    ['Northern.Lights.S02.E07.720p', episode('Northern Lights', 2, [7])],
    ['Northern Lights - S02Ep07 - The Fog.mkv', episode('Northern Lights', 2, [7])],
    ['Northern Lights [S02] [E07]', episode('Northern Lights', 2, [7])],
    ['Northern Lights - S02xE07.mp4', episode('Northern Lights', 2, [7])],
    ['Northern.Lights.S012E07.HDTV', episode('Northern Lights', 12, [7])],
    ['Long.Runner.S01E01234.German.WEB', episode('Long Runner', 1, [1234])],
    ['Cartoon.Classics.S1951E04.1080p.BluRay', episode('Cartoon Classics', 1951, [4], { year: 1951 })],
    ['Los Vecinos - T03E11 - Titulo.mkv', episode('Los Vecinos', 3, [11])],
    ['Northern Lights Sn2 Ep7 HDTV', episode('Northern Lights', 2, [7])],
    ['Northern.LightsS02E07.1080p.WEB', episode('Northern Lights', 2, [7])],
    ['Northern Lights SO2E07.avi', episode('Northern Lights', 2, [7])],
    ['northern.lights.so3e11.720p', episode('northern lights', 3, [11])],
  ])('%s', (name, want) => {
    expectParsed(name, want);
  });

  it.each([
    ['Northern.Lights.S02E07E08.720p', [7, 8]],
    ['Northern.Lights.S02E07-E09.720p', [7, 8, 9]],
    ['Northern.Lights.S02E07-09.720p', [7, 8, 9]],
    ['Northern.Lights.S02E07.S02E08.720p', [7, 8]],
    ['Northern Lights - S02E07 - S02E08 - S02E09 - Titles', [7, 8, 9]],
    ['Northern Lights - S02E07and08 - Titles', [7, 8]],
    ['Northern Lights - S02E07&8&9', [7, 8, 9]],
    ['Northern Lights - S02E07to09', [7, 8, 9]],
    ['Northern.Lights.S02E07+E08.mkv', [7, 8]],
    ['Northern.Lights.S02E10.11.HDTV.XviD', [10, 11]],
    ['Northern Lights S02E09E07 WEB-DL', [7, 9]],
    ['Northern Lights - S02E01-02-03 - Titles', [1, 2, 3]],
    // A doubled marker lists episodes (guessit, and the multi-episode names this project writes);
    // only a dash or "to" spans the episodes between.
    ['Northern.Lights.S02E01E03.1080p', [1, 3]],
    ['Northern Lights (2019) - S02 - E01 à E04 - [WEB-DL]', [1, 2, 3, 4]],
  ])('multi-episode %s', (name, episodes) => {
    expectParsed(name, { season: 2, episodes });
  });

  it('does not read release words, episode titles or a spaced "Ep" count as more episodes', () => {
    expectParsed('Northern.Lights.S02E07-720p.mkv', episode('Northern Lights', 2, [7]));
    expectParsed('Northern.Lights.S02E07.E.T.Phones.Home.mkv', episode('Northern Lights', 2, [7]));
    expectParsed('Northern Lights S02E07 - Ep.91.mkv', episode('Northern Lights', 2, [7]));
    expectParsed('Northern Lights - S02E07-11! Countdown!', episode('Northern Lights', 2, [7]));
  });

  it('keeps absolute numbers said beside it (anime)', () => {
    expectParsed('Kaze no Tabi - S02E03 - 027 - Title', episode('Kaze no Tabi', 2, [3], { absolute_episodes: [27] }));
    expectParsed('Kaze.no.Tabi.s02e03-04.027-028', episode('Kaze no Tabi', 2, [3, 4], { absolute_episodes: [27, 28] }));
    expectParsed('Kaze no Tabi - 027 - S02E03 - Title', episode('Kaze no Tabi', 2, [3], { absolute_episodes: [27] }));
    expectParsed('310.Kaze no Tabi.s03e02', episode('Kaze no Tabi', 3, [2], { absolute_episodes: [310] }));
    expectParsed('Kaze no Tabi 88 (S4-12) [1080p]', episode('Kaze no Tabi', 4, [12], { absolute_episodes: [88] }));
  });

  it('keeps a title that starts with a number', () => {
    expectParsed('300.Code.S01E01.720p.WEB', episode('300 Code', 1, [1]));
  });

  it('refuses S and four digits that form a year: season 20 episode 14, or the season a show numbers by its year', () => {
    expectRefused('Northern.Lights.S2014.720p.HDTV', /year/);
    expectParsed('Northern.Lights.S1203.720p.HDTV', episode('Northern Lights', 12, [3]));
  });

  it('refuses episodes of two seasons', () => {
    expectRefused('Northern.Lights.S02E07-S03E01.720p', /two seasons/);
  });

  it('refuses a range that runs backwards or past a hundred episodes', () => {
    expectRefused('Northern.Lights.S02E09-E07.720p', /ends before it starts/);
    expectRefused('Northern.Lights.S02E09-07.720p', /ends before it starts/);
    expectRefused('Northern Lights - S02E09 - S02E07 - Titles', /ends before it starts/);
    expectRefused('Northern.Lights.S02E01-E250.720p', /more than 100 episodes/);
  });

  it('reads a year after the dash as no end of a range', () => {
    expectParsed('Northern.Lights.S02E07-2019.720p', episode('Northern Lights', 2, [7]));
  });

  it('drops a date said right before the marker from the title', () => {
    expectParsed('Court Hours 2019 03 14 S08E112', episode('Court Hours', 8, [112], { year: null, air_date: null }));
    expectParsed('Court.Hours.2019.03.14.S08E112.720p.HDTV', episode('Court Hours', 8, [112], { air_date: null }));
    expectParsed('Court_Hours_2019-03-14_S08E112', episode('Court Hours', 8, [112]));
    expectParsed('Court Hours - 2019-03-14 - S08E112 - Title', episode('Court Hours', 8, [112]));
    expectParsed('Court Hours 2019 S08E112', episode('Court Hours', 8, [112], { year: 2019 }));
  });

  it('refuses a date before the marker that is no calendar day', () => {
    expectRefused('Court Hours 2019 02 30 S08E112', /no calendar day/);
  });

  it('takes an air date said after the marker', () => {
    expectParsed('Northern.Lights.S02E07.(16.March.2021).HDTV', episode('Northern Lights', 2, [7], { air_date: '2021-03-16' }));
  });
});
