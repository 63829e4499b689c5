import { describe, expect, it } from 'vitest';
import { readSubtitleTags, tagSuffix, type SubtitleTags } from './subtitle-tags.ts';

const tags = (stem: string) => readSubtitleTags(stem).tags;

describe('readSubtitleTags: tags', () => {
  it.each([
    ['.en', 'en', false, false],
    ['.en.forced', 'en', true, false],
    ['.eng.sdh', 'en', false, true],
    ['.eng.SDH', 'en', false, true],
    ['.en.cc', 'en', false, true],
    ['.forced.fr', 'fr', true, false],
    ['.pt-br', 'pt-br', false, false],
    ['.zh_Hans', 'zh-hans', false, false],
    ['.spa.foreign', 'es', true, false],
    ['.Français', 'fr', false, false],
    ['2_English', 'en', false, false],
    ['3_English (SDH)', 'en', false, true],
    ['3_eng_forced', 'en', true, false],
    ['2-english', 'en', false, false],
    ['3-sdh', null, false, true],
    ['12_Français', 'fr', false, false],
    ['2_pt-BR', 'pt-br', false, false],
    ['English (SDH)', 'en', false, true],
    [' English', 'en', false, false],
    ['English.forced', 'en', true, false],
    ['Movie.2010.1080p.GER', 'de', false, false],
    ['.default.en', 'en', false, false],
    ['.en.default', 'en', false, false],
    ['', null, false, false],
    ['Movie.2010.1080p', null, false, false],
    ['.forced', null, true, false],
    ['.cc', null, false, true],
    ['.en.forced.sdh', 'en', true, true],
  ])('%j → %s forced=%s sdh=%s', (stem, language, forced, sdh) => {
    expect(tags(stem)).toEqual({ language, forced, sdh });
  });

  it('reads hi as Hindi alone and as hearing impaired beside another language, as Jellyfin does', () => {
    expect(tags('.hi')).toEqual({ language: 'hi', forced: false, sdh: false });
    expect(tags('.HI')).toEqual({ language: 'hi', forced: false, sdh: false });
    expect(tags('.hi.forced')).toEqual({ language: 'hi', forced: true, sdh: false });
    expect(tags('.hi.sdh')).toEqual({ language: 'hi', forced: false, sdh: true });
    expect(tags('.en.hi')).toEqual({ language: 'en', forced: false, sdh: true });
    expect(tags('.hi.en')).toEqual({ language: 'en', forced: false, sdh: true });
    expect(tags('.eng.forced.hi')).toEqual({ language: 'en', forced: true, sdh: true });
    expect(tags('3_en_hi')).toEqual({ language: 'en', forced: false, sdh: true });
    expect(tags('en-hi')).toEqual({ language: 'en', forced: false, sdh: true });
    // Only the two-letter code is in doubt: `hin` is Hindi, and a second language ends the tags.
    expect(tags('.en.hin')).toEqual({ language: 'hi', forced: false, sdh: false });
  });

  it('keeps the nearest language when two are given', () => {
    expect(tags('.fr.en').language).toBe('en');
  });

  it('reads only tags at the end, so a title word is not taken for one', () => {
    expect(tags('English.Teacher.2010')).toEqual({ language: null, forced: false, sdh: false });
    expect(tags('Let It Be')).toEqual({ language: null, forced: false, sdh: false });
    expect(tags('Forced Entry.2010')).toEqual({ language: null, forced: false, sdh: false });
  });

  it('does not take Object.prototype members for tags', () => {
    for (const stem of ['.constructor', '.__proto__', '.toString', '2_constructor', '.en.hasOwnProperty']) {
      expect(tags(stem).language).toBeNull();
    }
  });
});

describe('readSubtitleTags: the name before the tags', () => {
  it.each([
    ['Movie (2010).en.forced', 'Movie (2010)'],
    ['Movie (2010)', 'Movie (2010)'],
    ['Movie.It.en', 'Movie.It'],
    ['Show - S01E02.fre.forced', 'Show - S01E02'],
    ['Heat (1995) - commentary', 'Heat (1995) - commentary'],
    ['.en', ''],
    ['2_English', ''],
    ['English (SDH)', ''],
    ['en.hi', ''],
    // A number on its own before the tags is part of the name: the movie `1917`.
    ['1917.en', '1917'],
    ['2.English', '2'],
  ])('%j → %j', (stem, base) => {
    expect(readSubtitleTags(stem).base).toBe(base);
  });
});

describe('tagSuffix', () => {
  it('writes language, forced, sdh in the order media servers read them', () => {
    expect(tagSuffix({ language: 'en', forced: true, sdh: true })).toBe('.en.forced.sdh');
    expect(tagSuffix({ language: null, forced: true, sdh: false })).toBe('.forced');
    expect(tagSuffix({ language: null, forced: false, sdh: false })).toBe('');
  });

  it('writes what reads back the same, Hindi and hearing impaired included', () => {
    for (const language of [null, 'en', 'hi', 'pt-br', 'zh-hans', 'es-419']) {
      for (const forced of [false, true]) {
        for (const sdh of [false, true]) {
          const t: SubtitleTags = { language, forced, sdh };
          expect(tags(`Movie (2010)${tagSuffix(t)}`)).toEqual(t);
        }
      }
    }
  });
});
