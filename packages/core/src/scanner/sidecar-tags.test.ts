import { describe, expect, it } from 'vitest';
import { sidecarTags, tagSuffix } from './sidecar-tags.ts';

describe('sidecarTags', () => {
  it.each([
    ['.en', 'en', false, false],
    ['.en.forced', 'en', true, false],
    ['.eng.sdh', 'en', false, true],
    ['.en.cc', 'en', false, true],
    ['.en.hi', 'en', false, true],
    ['.forced.fr', 'fr', true, false],
    ['.pt-br', 'pt-br', false, false],
    ['.spa.foreign', 'es', true, false],
    ['2_English', 'en', false, false],
    ['3_English (SDH)', 'en', false, true],
    ['English.forced', 'en', true, false],
    ['Movie.2010.1080p.GER', 'de', false, false],
    ['.default.en', 'en', false, false],
    ['', null, false, false],
    ['Movie.2010.1080p', null, false, false],
    ['.forced', null, true, false],
  ])('%j → %s forced=%s sdh=%s', (stem, language, forced, sdh) => {
    expect(sidecarTags(stem)).toEqual({ language, forced, sdh });
  });

  it('only reads tags at the end, so a title word is not taken for a language', () => {
    expect(sidecarTags('English.Teacher.2010')).toEqual({ language: null, forced: false, sdh: false });
  });

  it('keeps the nearest language when two are given', () => {
    expect(sidecarTags('.fr.en').language).toBe('en');
  });
});

describe('tagSuffix', () => {
  it('writes language, forced, sdh in the order media servers read them', () => {
    expect(tagSuffix({ language: 'en', forced: true, sdh: true })).toBe('.en.forced.sdh');
    expect(tagSuffix({ language: null, forced: true, sdh: false })).toBe('.forced');
    expect(tagSuffix({ language: null, forced: false, sdh: false })).toBe('');
  });
});
