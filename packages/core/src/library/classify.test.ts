import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@mo/shared';
import { classify, parseNfo, seasonOfFolder, titleYearOfFolder, type Section } from './classify.ts';

const opts = {
  videoExtensions: new Set(DEFAULT_CONFIG.library.video_extensions),
  subtitleExtensions: new Set(DEFAULT_CONFIG.library.subtitle_extensions),
};
const c = (section: Section, path: string) => classify(section, path.split('/'), opts, titleYearOfFolder);

describe('classify: movies', () => {
  it('takes title and year from a Radarr-style folder', () => {
    expect(c('movies', 'The Matrix (1999)/The Matrix (1999) Bluray-1080p.mkv')).toMatchObject({
      type: 'video', ext: '.mkv', title: 'The Matrix', year: 1999, extra: false, season: null, episodes: [],
    });
  });

  it('parses a scene-named folder', () => {
    expect(c('movies', 'Blade.Runner.2049.2017.2160p.UHD.BluRay.x265-GROUP/b2049.mkv')).toMatchObject({ title: 'Blade Runner 2049', year: 2017 });
  });

  it('parses a loose file in the Movies folder', () => {
    expect(c('movies', 'Heat.1995.1080p.BluRay.x264-AMIABLE.mkv')).toMatchObject({ title: 'Heat', year: 1995, type: 'video' });
  });

  it.each([
    'Alien (1979)/Featurettes/Making of.mkv',
    'Alien (1979)/Behind The Scenes/b.mkv',
    'Alien (1979)/Extras/x.mp4',
    'Alien (1979)/Alien (1979)-trailer.mkv',
    'Alien (1979)/alien.1979.sample.mkv',
    'Alien (1979)/Sample/alien.mkv',
  ])('marks %s as an extra', (p) => {
    expect(c('movies', p).extra).toBe(true);
  });

  it('types subtitles, nfo files and others by extension, case-insensitively', () => {
    expect(c('movies', 'Alien (1979)/Alien (1979).en.SRT').type).toBe('subtitle');
    expect(c('movies', 'Alien (1979)/movie.nfo').type).toBe('nfo');
    expect(c('movies', 'Alien (1979)/poster.jpg')).toMatchObject({ type: 'other', ext: '.jpg' });
    expect(c('movies', 'Alien (1979)/README')).toMatchObject({ type: 'other', ext: '' });
  });
});

describe('classify: TV', () => {
  it('takes the series from its folder and the season from the season folder', () => {
    expect(c('tv', 'Doctor Who (2005)/Season 02/Doctor Who (2005) - S02E03 - School Reunion.mkv')).toMatchObject({
      title: 'Doctor Who', year: 2005, season: 2, episodes: [3], type: 'video', extra: false,
    });
  });

  it('reads multi-episode files as every episode they hold', () => {
    expect(c('tv', 'Lost/Season 1/Lost - S01E01-E03.mkv').episodes).toEqual([1, 2, 3]);
    expect(c('tv', 'Lost/Season 1/Lost.S01E04E05.720p.mkv').episodes).toEqual([4, 5]);
    expect(c('tv', 'Lost/Season 1/Lost - S01E06-E07.mkv').episodes).toEqual([6, 7]);
  });

  it('reads Specials as season 0', () => {
    expect(c('tv', 'Sherlock/Specials/Sherlock - S00E01 - The Abominable Bride.mkv')).toMatchObject({ season: 0, episodes: [1] });
    expect(seasonOfFolder('Specials')).toBe(0);
    expect(seasonOfFolder('Season 00')).toBe(0);
    expect(seasonOfFolder('Season 12')).toBe(12);
    expect(seasonOfFolder('S3')).toBe(3);
    expect(seasonOfFolder('Staffel 4')).toBe(4);
    expect(seasonOfFolder('Featurettes')).toBeNull();
  });

  it('falls back to the parser for other episode forms', () => {
    expect(c('tv', 'The Office (US)/Season 3/The Office 3x07 Branch Wars.avi')).toMatchObject({ season: 3, episodes: [7] });
    expect(c('tv', 'The Daily Show/The.Daily.Show.2024.03.14.Guest.720p.WEB.mkv')).toMatchObject({ air_date: '2024-03-14' });
  });

  it('parses a loose episode in the TV folder', () => {
    expect(c('tv', 'Fargo.S02E05.1080p.WEB.h264-GRP.mkv')).toMatchObject({ title: 'Fargo', season: 2, episodes: [5] });
  });

  it('numbers subtitles and nfo files of episodes too', () => {
    expect(c('tv', 'Lost/Season 1/Lost - S01E02.en.srt')).toMatchObject({ type: 'subtitle', season: 1, episodes: [2] });
    expect(c('tv', 'Lost/Season 1/Lost - S01E02.nfo')).toMatchObject({ type: 'nfo', season: 1, episodes: [2] });
  });

  it('marks extras folders of a series', () => {
    expect(c('tv', 'Lost/Extras/Lost - Making of.mkv').extra).toBe(true);
  });
});

describe('titleYearOfFolder', () => {
  it.each([
    ['The Matrix (1999)', 'The Matrix', 1999],
    ['Blade Runner (1982) {edition-Final Cut}', 'Blade Runner', 1982],
    ['Amélie [2001]', 'Amélie', 2001],
    ['Firefly', 'Firefly', null],
  ])('%s', (name, title, year) => {
    expect(titleYearOfFolder(name)).toEqual({ title, year });
  });
});

describe('parseNfo', () => {
  it('reads a Kodi episode', () => {
    const xml = `<?xml version="1.0"?><episodedetails><title>Rose &amp; Thorn</title><season>1</season><episode>4</episode><aired>2031-02-03</aired></episodedetails>`;
    expect(parseNfo(xml)).toEqual({ kind: 'episode', title: 'Rose & Thorn', season: 1, episode: 4, aired: '2031-02-03' });
  });

  it('reads the show ids a provider can use', () => {
    const xml = '<tvshow><title>Lost</title><uniqueid type="tvdb" default="true">73739</uniqueid><uniqueid type="tvmaze">123</uniqueid><uniqueid type="imdb">tt0411008</uniqueid></tvshow>';
    expect(parseNfo(xml)?.ids).toEqual({ tvdb: '73739', tvmaze: '123', imdb: 'tt0411008' });
  });

  it('reads a tvshow and a movie', () => {
    expect(parseNfo('<tvshow>\n  <title>Lost</title>\n  <premiered>2004-09-22</premiered>\n</tvshow>')).toEqual({
      kind: 'tvshow', title: 'Lost', season: null, episode: null, aired: '2004-09-22',
    });
    expect(parseNfo('<movie><title>Heat</title></movie>')?.kind).toBe('movie');
  });

  it('is null for what is not Kodi XML, and ignores malformed numbers and dates', () => {
    expect(parseNfo('https://www.imdb.com/title/tt0113277/')).toBeNull();
    expect(parseNfo('<episodedetails><season>x</season><aired>soon</aired></episodedetails>')).toMatchObject({ season: null, aired: null });
  });
});
