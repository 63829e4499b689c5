import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@mo/shared';
import { classify, titleYearOfFolder, type Section } from './classify.ts';
import { seasonOfFolder } from '../parse/season-folder.ts';

const opts = {
  videoExtensions: new Set(DEFAULT_CONFIG.library.video_extensions),
  subtitleExtensions: new Set(DEFAULT_CONFIG.library.subtitle_extensions),
};
const c = (section: Section, path: string) => classify(section, path.split('/'), opts, titleYearOfFolder);

describe('classify: movies', () => {
  it('takes title and year from a Radarr-style folder', () => {
    expect(c('movies', 'The Matrix (1999)/The Matrix (1999) Bluray-1080p.mkv')).toMatchObject({
      type: 'video',
      ext: '.mkv',
      title: 'The Matrix',
      year: 1999,
      extra: false,
      season: null,
      episodes: [],
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

  it.each([
    ['Movie (2010) [imdbid-tt0106145]/Movie (2010) [imdbid-tt0106145].mkv', 'Movie', 2010],
    ['Movie (2010) {tmdb-12345}/Movie (2010).mkv', 'Movie', 2010],
    ["Blade Runner (1982) {edition-Director's Cut}/Blade Runner (1982).mkv", 'Blade Runner', 1982],
    ['Movie (2010) [1080p]/Movie.2010.1080p.mkv', 'Movie', 2010],
    ['Movie (2010) - 4K/Movie (2010) - 4K.mkv', 'Movie', 2010],
    ['Best Movie (1994) [tmdbid-680] [imdbid-tt1234]/Best Movie (1994) - 1080p.mkv', 'Best Movie', 1994],
  ])('reads a movie folder with tags: %s', (p, title, year) => {
    expect(c('movies', p)).toMatchObject({ title, year, type: 'video', extra: false });
  });

  it.each([
    ['Movie (2010) - cd1.mkv', 'Movie', 2010],
    ['Movie (2010) - cd2.mkv', 'Movie', 2010],
    ['Movie (2010) part2.avi', 'Movie', 2010],
    ['Movie (2010)-b.mkv', 'Movie', 2010],
    ['Movie (2010) [imdbid-tt0106145] - disc2.mkv', 'Movie', 2010],
  ])('names a loose part for its movie: %s', (p, title, year) => {
    expect(c('movies', p)).toMatchObject({ title, year, extra: false });
  });

  it.each([
    'Movie (2010)/Trailers/Official.mkv',
    'Movie (2010)/Clips/A Scene.mkv',
    'Movie (2010)/Other/Gag Reel.mkv',
    'Movie (2010)/Interviews/Director.mkv',
    'Movie (2010)/trailer.mp4',
    'Movie (2010)/sample.mkv',
    'Movie (2010)/Movie (2010)-behindthescenes.mkv',
    'Movie (2010)/Alternate Ending-deleted.mkv',
    'Movie (2010)/Gag-short.mkv',
    'Movie (2010)/Interview-interview.mkv',
    'Movie (2010) - trailer.mkv',
    'Movie (2010)-trailer.mkv',
  ])('marks %s as an extra', (p) => {
    expect(c('movies', p).extra).toBe(true);
  });

  it.each([
    'The Other Guys (2010)/The Other Guys (2010).mkv',
    'Trailer Park Boys The Movie (2006)/Trailer Park Boys The Movie (2006).mkv',
    'Deleted Scenes (2019)/Deleted Scenes (2019).mkv',
    'Short Circuit (1986)/Short Circuit (1986).mkv',
    'Free Sample/Free Sample.mkv',
    'Shorts (2009)/Shorts (2009).mkv',
    'Movie (2010)/Movie (2010) - cd2.mkv',
  ])('counts %s, whose name merely holds an extras word', (p) => {
    expect(c('movies', p).extra).toBe(false);
  });
});

describe('classify: TV', () => {
  it('takes the series from its folder and the season from the season folder', () => {
    expect(c('tv', 'Doctor Who (2005)/Season 02/Doctor Who (2005) - S02E03 - School Reunion.mkv')).toMatchObject({
      title: 'Doctor Who',
      year: 2005,
      season: 2,
      episodes: [3],
      type: 'video',
      extra: false,
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

  it('reads 1x02 and dated episode names', () => {
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

describe('classify: library names of TV', () => {
  it.each([
    ['Lost (2004) [tvdbid-73739]/Season 01/Lost - S01E02.mkv', 'Lost', 2004],
    ['Lost {tvdb-73739}/Season 01/Lost - S01E02.mkv', 'Lost', null],
    ['Lost [imdbid-tt0411008]/Season 01/Lost - S01E02.mkv', 'Lost', null],
    ['Lost (2004) {imdb-tt0411008}/Season 01/Lost - S01E02.mkv', 'Lost', 2004],
  ])('takes the series from a folder with an id tag: %s', (p, title, year) => {
    expect(c('tv', p)).toMatchObject({ title, year, season: 1, episodes: [2] });
  });

  it.each([
    ['Season 1', 1],
    ['Season 01 (2008)', 1],
    ['S02', 2],
    ['Specials', 0],
    ['3', 3],
    ['Staffel 4', 4],
    ['Saison 5', 5],
    ['Temporada 6', 6],
    ['Stagione 7', 7],
    ['Sezon 8', 8],
    ['Säsong 9', 9],
    ['Sæson 10', 10],
    ['Sesong 11', 11],
    ['Seizoen 12', 12],
    ['Kausi 13', 13],
    ['Évad 14', 14],
    ['Série 15', 15],
    ['сезон 16', 16],
    ['シーズン17', 17],
    ['시즌 18', 18],
    ['第19季', 19],
  ])('reads the season of the folder %s for a file that names none', (folder, season) => {
    expect(c('tv', `Show/${folder}/01 - Pilot.mkv`)).toMatchObject({ season, episodes: [1] });
  });

  it.each([
    ['01 - Pilot.mkv', [1]],
    ['Episode 5.mkv', [5]],
    ['E05.mkv', [5]],
    ['S01E02.mkv', [2]],
    ['1x02.mkv', [2]],
    ['S01E02 - Title.mkv', [2]],
    ['Show - S01E02 - Title.mkv', [2]],
    ['07 - 12 Monkeys.mkv', [7]],
    ['01 - 1984.mkv', [1]],
    ['S01E01-E02.mkv', [1, 2]],
    ['S01E01E02.mkv', [1, 2]],
    ['S01E01-02.mkv', [1, 2]],
    ['01-02 - Title.mkv', [1, 2]],
    ['1x01-1x02.mkv', [1, 2]],
  ])('reads %s in a season folder', (name, episodes) => {
    expect(c('tv', `Show/Season 01/${name}`)).toMatchObject({ title: 'Show', season: 1, episodes, extra: false });
  });

  it("takes the name's own season over the folder's", () => {
    expect(c('tv', 'Show/Season 2/Show - S03E04.mkv')).toMatchObject({ season: 3, episodes: [4] });
  });

  it.each([
    ['[Group] Show - 105.mkv', [105]],
    ['[Group] Show - 105 [1080p].mkv', [105]],
    ['Show - 105.mkv', [105]],
    ['105.mkv', [105]],
    ['E05.mkv', [5]],
    ['01 - Pilot.mkv', [1]],
  ])('files %s straight in the series folder under season 1, as Jellyfin and Kodi do', (name, episodes) => {
    expect(c('tv', `Show/${name}`)).toMatchObject({ title: 'Show', season: 1, episodes });
  });

  it('reads a daily show by its air date', () => {
    expect(c('tv', 'The Daily Show/The Daily Show - 2024-03-14.mkv')).toMatchObject({ season: null, episodes: [], air_date: '2024-03-14' });
    expect(c('tv', 'The Daily Show/Season 2024/The Daily Show - 2024-03-14 - Guest.mkv')).toMatchObject({
      season: 2024,
      air_date: '2024-03-14',
    });
  });

  it.each([
    'Show/Extras/01 - Making of.mkv',
    'Show/Season 1/Featurettes/E01 Behind.mkv',
    'Show/Season 1/Deleted Scenes/S01E01 Cut.mkv',
    'Show/Season 1/Show - S01E01-deleted.mkv',
    'Show/Season 1/Show - S01E01-trailer.mkv',
    'Show/trailer.mkv',
    'Show/Trailers/Season 1 Trailer.mkv',
  ])('counts %s as an extra, with no episode', (p) => {
    expect(c('tv', p)).toMatchObject({ extra: true, episodes: [] });
  });

  it.each([
    ['Trailer Park Boys/Season 1/Trailer Park Boys - S01E01.mkv', 'Trailer Park Boys'],
    ['Scenes from a Marriage (1973)/Season 1/Scenes from a Marriage - S01E02.mkv', 'Scenes from a Marriage'],
    ['The Other Two/Season 1/The Other Two - S01E03 - Short Film.mkv', 'The Other Two'],
    ['Extras (2005)/Season 1/Extras - S01E01.mkv', 'Extras'],
    ['Extras/Extras - S01E02.mkv', 'Extras'],
  ])('counts %s, whose title merely holds an extras word', (p, title) => {
    expect(c('tv', p)).toMatchObject({ title, extra: false });
    expect(c('tv', p).episodes).toHaveLength(1);
  });

  it('takes the numbers of a release name dropped into a series folder, and of a loose one', () => {
    expect(c('tv', 'Show/Show.Name.S01E02.720p.HDTV.x264-GRP.mkv')).toMatchObject({ title: 'Show', season: 1, episodes: [2] });
    expect(c('tv', 'Show.Name.S01E02.720p.HDTV.x264-GRP.mkv')).toMatchObject({ title: 'Show Name', season: 1, episodes: [2] });
  });
});

describe('titleYearOfFolder', () => {
  it.each([
    ['The Matrix (1999)', 'The Matrix', 1999],
    ['Blade Runner (1982) {edition-Final Cut}', 'Blade Runner', 1982],
    ['Amélie [2001]', 'Amélie', 2001],
    ['Firefly', 'Firefly', null],
    ['Firefly [tvdbid-78874]', 'Firefly', null],
    ['Doctor Who (2005) [tvdbid-78804]', 'Doctor Who', 2005],
    ['Show {tvdb-12345}', 'Show', null],
    ['Movie (2010) [imdbid-tt0106145]', 'Movie', 2010],
    ['Movie [imdbid-tt0106145] (2010)', 'Movie', 2010],
    ['Movie (2010) {tmdb-123}', 'Movie', 2010],
    ["Movie {edition-Director's Cut} (2010)", 'Movie', 2010],
    ['Movie (2010) [1080p]', 'Movie', 2010],
    ['Movie (2010) - 4K', 'Movie', 2010],
    ['(500) Days of Summer (2009)', '(500) Days of Summer', 2009],
    ['The Office (US)', 'The Office (US)', null],
  ])('%s', (name, title, year) => {
    expect(titleYearOfFolder(name)).toEqual({ title, year });
  });
});
