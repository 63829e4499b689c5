import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@mo/shared';
import { checkTemplate, renderTemplate, SIDECAR_SUFFIX_BYTES, TemplateError, type TemplateMedia } from './template.ts';
import { MAX_NAME_BYTES } from './safe-name.ts';

const { movie_template: MOVIE, episode_template: EPISODE } = DEFAULT_CONFIG.library;

const movie = (over: Partial<TemplateMedia> = {}): TemplateMedia => ({
  kind: 'movie',
  title: 'The Matrix',
  year: 1999,
  season: null,
  episodes: [],
  air_date: null,
  edition: null,
  country: null,
  ...over,
});
const episode = (over: Partial<TemplateMedia> = {}): TemplateMedia => ({
  kind: 'episode',
  title: 'Show Name',
  year: null,
  season: 1,
  episodes: [2],
  air_date: null,
  edition: null,
  country: null,
  ...over,
});
const path = (r: { folders: string[]; name: string }) => [...r.folders, r.name].join('/');

describe('renderTemplate with the default templates', () => {
  it('names a movie', () => {
    expect(renderTemplate(MOVIE, movie(), '.mkv')).toEqual({
      folders: ['The Matrix (1999)'],
      stem: 'The Matrix (1999)',
      name: 'The Matrix (1999).mkv',
    });
  });

  it('names an episode with zero-padded season and episode', () => {
    expect(path(renderTemplate(EPISODE, episode(), '.mkv'))).toBe('Show Name/Season 01/Show Name - S01E02.mkv');
    expect(path(renderTemplate(EPISODE, episode({ season: 12, episodes: [123] }), '.mp4'))).toBe('Show Name/Season 12/Show Name - S12E123.mp4');
  });

  it('gives a multi-episode file a range, repeating the E', () => {
    expect(path(renderTemplate(EPISODE, episode({ episodes: [1, 2] }), '.mkv'))).toBe('Show Name/Season 01/Show Name - S01E01-E02.mkv');
    expect(renderTemplate(EPISODE, episode({ episodes: [1, 2, 3] }), '.mkv').name).toBe('Show Name - S01E01-E03.mkv');
  });

  it('lists episodes that are not a run instead of claiming a range', () => {
    expect(renderTemplate(EPISODE, episode({ episodes: [1, 3] }), '.mkv').name).toBe('Show Name - S01E01E03.mkv');
  });

  it('gives a daily show its air date, in a season folder of its year', () => {
    const daily = episode({ title: 'The Daily Show', season: null, episodes: [], air_date: '2024-03-14' });
    expect(path(renderTemplate(EPISODE, daily, '.mkv'))).toBe('The Daily Show/Season 2024/The Daily Show - 2024-03-14.mkv');
  });

  it('drops what a missing year leaves behind', () => {
    expect(path(renderTemplate(MOVIE, movie({ year: null }), '.mkv'))).toBe('The Matrix/The Matrix.mkv');
    expect(renderTemplate('{series} ({year})/{series} [{year}] - {edition}{ext}', episode(), '.mkv')).toMatchObject({
      folders: ['Show Name'],
      name: 'Show Name.mkv',
    });
  });

  it('names a remade series with its country or year in {series}, as Sonarr does, and leaves {title} bare', () => {
    const office = episode({ title: 'The Office', country: 'US', season: 9, episodes: [1] });
    expect(path(renderTemplate(EPISODE, office, '.mkv'))).toBe('The Office (US)/Season 09/The Office (US) - S09E01.mkv');
    expect(renderTemplate('{title}/{title} - {series} - S{season:00}E{episode:00}{ext}', office, '.mkv')).toMatchObject({
      folders: ['The Office'],
      name: 'The Office - The Office (US) - S09E01.mkv',
    });
    expect(path(renderTemplate(EPISODE, episode({ title: 'Doctor Who', year: 2005 }), '.mkv'))).toBe(
      'Doctor Who (2005)/Season 01/Doctor Who (2005) - S01E02.mkv',
    );
    expect(renderTemplate('{title}{ext}', episode({ title: 'Doctor Who', year: 2005 }), '.mkv').name).toBe('Doctor Who.mkv');
  });

  it('makes every segment safe, and a title with a slash stays one folder', () => {
    expect(path(renderTemplate(MOVIE, movie({ title: 'AC/DC: Live', year: 1992 }), '.mkv'))).toBe('AC-DC - Live (1992)/AC-DC - Live (1992).mkv');
    expect(path(renderTemplate(EPISODE, episode({ title: 'What If...?' }), '.mkv'))).toBe('What If/Season 01/What If... - S01E02.mkv');
  });

  it('keeps a long name within the limit with room for sidecar tags', () => {
    const r = renderTemplate(MOVIE, movie({ title: 'x'.repeat(300) }), '.mkv');
    expect(Buffer.byteLength(r.folders[0]!)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(Buffer.byteLength(r.name) + SIDECAR_SUFFIX_BYTES).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(r.name.endsWith('.mkv')).toBe(true);
  });
});

describe('renderTemplate with other templates', () => {
  it('pads to as many digits as the zeros say, and not at all without them', () => {
    expect(renderTemplate('{series}/{series} {season}x{episode:000}{ext}', episode(), '.mkv').name).toBe('Show Name 1x002.mkv');
  });

  it('ranges without a letter prefix when none precedes the token', () => {
    expect(renderTemplate('{series}/{series} - Episode {episode}{ext}', episode({ episodes: [4, 5] }), '.mkv').name).toBe('Show Name - Episode 4-5.mkv');
  });

  it('puts the air date where a template asks for it by name', () => {
    const daily = episode({ season: null, episodes: [], air_date: '2024-03-14' });
    expect(renderTemplate('{series}/{air_date} {series} S{season}E{episode}{ext}', daily, '.mkv').name).toBe('2024-03-14 Show Name 2024-03-14.mkv');
  });

  it('fills the edition and the series year', () => {
    expect(renderTemplate('{title} ({year}) {edition}{ext}', movie({ edition: "Director's Cut" }), '.mkv').name).toBe("The Matrix (1999) Director's Cut.mkv");
    expect(renderTemplate('{series} ({year})/S{season:00}E{episode:00}{ext}', episode({ year: 2005 }), '.mkv').folders).toEqual(['Show Name (2005)']);
    expect(renderTemplate('{series} ({year:0000})/S{season:00}E{episode:00}{ext}', episode({ year: 2005 }), '.mkv').folders).toEqual(['Show Name (2005)']);
  });

  it('puts the file straight in the library folder when the template has no folder', () => {
    expect(renderTemplate('{title} ({year}){ext}', movie(), '.mkv')).toMatchObject({ folders: [], name: 'The Matrix (1999).mkv' });
  });
});

describe('checkTemplate', () => {
  it('accepts the defaults', () => {
    expect(() => checkTemplate(MOVIE, 'movie', 'library.movie_template')).not.toThrow();
    expect(() => checkTemplate(EPISODE, 'episode', 'library.episode_template')).not.toThrow();
  });

  it.each([
    ['{title} ({year}){extension}', 'movie', 'unknown token {extension}'],
    ['{title} ({year})', 'movie', 'must end with {ext}'],
    ['{title}{ext}/{title}{ext}', 'movie', 'must end with {ext}'],
    ['/{title}{ext}', 'movie', 'relative path'],
    ['{title}//{title}{ext}', 'movie', 'relative path'],
    ['../{title}{ext}', 'movie', '".."'],
    ['{year}/{year}{ext}', 'movie', 'must contain {title}'],
    ['{season}/{episode}{ext}', 'episode', 'must contain {series} or {title}'],
    ['{series}/Season {season}{ext}', 'episode', 'must contain {episode}'],
    ['{Title} ({year}){ext}', 'movie', 'brace'],
    ['{title:2}{ext}', 'movie', 'brace'],
    ['{title} {{year}}{ext}', 'movie', 'brace'],
    ['{title} { year }{ext}', 'movie', 'brace'],
    ['{title} {year{ext}', 'movie', 'brace'],
    ['{title}}{ext}', 'movie', 'brace'],
  ] as const)('refuses %j, naming the key', (template, kind, message) => {
    expect(() => checkTemplate(template, kind, 'library.x')).toThrow(TemplateError);
    expect(() => checkTemplate(template, kind, 'library.x')).toThrow(`library.x: `);
    expect(() => checkTemplate(template, kind, 'library.x')).toThrow(message);
  });
});
