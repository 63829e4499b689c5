import { describe, expect, it } from 'vitest';
import { isLanguageCode, isMultiLanguageWord, normalizeLanguage, releaseLanguage } from './languages.ts';

describe('normalizeLanguage', () => {
  it.each([
    ['en', 'en'],
    ['EN', 'en'],
    ['ENG', 'en'],
    ['english', 'en'],
    ['Deutsch', 'de'],
    ['ger', 'de'],
    ['deu', 'de'],
    ['fre', 'fr'],
    ['fra', 'fr'],
    ['Français', 'fr'],
    ['FRANCAIS', 'fr'],
    ['Español', 'es'],
    ['castellano', 'es'],
    ['Русский', 'ru'],
    ['日本語', 'ja'],
    ['한국어', 'ko'],
    ['Ελληνικά', 'el'],
    ['hi', 'hi'],
    ['hin', 'hi'],
    ['Hindi', 'hi'],
    ['farsi', 'fa'],
    ['flemish', 'nl'],
    ['nb', 'nb'],
    // An ISO 639-1 code the table has no names for is still a language.
    ['yo', 'yo'],
    ['und', 'und'],
    ['Brazilian', 'pt-br'],
    ['Latino', 'es-419'],
  ])('%s → %s', (tag, code) => {
    expect(normalizeLanguage(tag)).toBe(code);
  });

  it('keeps a region or script, with either separator, after a two- or three-letter code', () => {
    expect(['pt-BR', 'pt_BR', 'por-BR', 'es-419', 'zh_Hans', 'zh-Hant', 'sr-Latn', 'en-US'].map(normalizeLanguage)).toEqual([
      'pt-br',
      'pt-br',
      'pt-br',
      'es-419',
      'zh-hans',
      'zh-hant',
      'sr-latn',
      'en-us',
    ]);
  });

  it('refuses other words, regions after a name, unknown scripts and an undetermined region', () => {
    expect(['1080p', 'x264', 'part', 'xx', 'en-toolong', '', 'english-us', 'eng_subs', 'und-us', 'pt-', 'us'].map(normalizeLanguage)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('does not take Object.prototype members for languages', () => {
    for (const t of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'CONSTRUCTOR', 'constructor-us']) {
      expect(normalizeLanguage(t)).toBeNull();
    }
  });
});

describe('isLanguageCode', () => {
  it('is true for ISO 639-1 codes in any case, and nothing else', () => {
    expect(['it', 'DE', 'En', 'hi', 'yo'].map(isLanguageCode)).toEqual([true, true, true, true, true]);
    expect(['xx', 'eng', 'english', 'pt-br', '', 'constructor'].map(isLanguageCode)).toEqual([false, false, false, false, false, false]);
  });
});

describe('releaseLanguage', () => {
  it.each([
    ['GERMAN', 'de'],
    ['French', 'fr'],
    ['Deutsch', 'de'],
    ['ITALIAN', 'it'],
    ['Español', 'es'],
    ['ESPANOL', 'es'],
    ['Castellano', 'es'],
    ['Latino', 'es-419'],
    ['Russian', 'ru'],
    ['Japanese', 'ja'],
    ['Hindi', 'hi'],
    ['Tamil', 'ta'],
    ['Brazilian', 'pt-br'],
    ['Mandarin', 'zh'],
    ['ENG', 'en'],
    ['GER', 'de'],
    ['ITA', 'it'],
    ['FRE', 'fr'],
    ['FRA', 'fr'],
    ['SPA', 'es'],
    ['RUS', 'ru'],
    ['JPN', 'ja'],
    ['KOR', 'ko'],
    ['CHI', 'zh'],
    ['HUN', 'hu'],
    ['SWE', 'sv'],
    ['VOSTFR', 'fr'],
    ['TRUEFRENCH', 'fr'],
    ['VFF', 'fr'],
    ['VFQ', 'fr'],
    ['VF', 'fr'],
    ['VF2', 'fr'],
    ['SUBFRENCH', 'fr'],
    ['FLEMISH', 'nl'],
    ['Dublado', 'pt-br'],
    ['SWESUB', 'sv'],
    ['SUBITA', 'it'],
  ])('%s → %s', (word, code) => {
    expect(releaseLanguage(word)).toBe(code);
  });

  it('does not map two-letter codes, which title words spell', () => {
    expect(['IT', 'DE', 'EN', 'fr', 'hi', 'NO'].map(releaseLanguage)).toEqual([null, null, null, null, null, null]);
  });

  it('does not map three-letter codes that are title words, though their names still count', () => {
    expect(['DAN', 'VIE', 'ICE', 'RUM', 'POR', 'May', 'Ben', 'Cat', 'Fin', 'NOR', 'und'].map(releaseLanguage)).toEqual(Array(11).fill(null));
    expect(['Danish', 'Vietnamese', 'Portuguese', 'Finnish', 'Norwegian'].map(releaseLanguage)).toEqual(['da', 'vi', 'pt', 'fi', 'no']);
  });

  it('gives null for words of several languages and for other words', () => {
    expect(['NORDIC', 'MULTi', 'DUAL', '1080p', 'x264', 'PROPER', '', 'constructor', '__proto__'].map(releaseLanguage)).toEqual(Array(9).fill(null));
  });
});

describe('isMultiLanguageWord', () => {
  it('recognises the words for several languages, in any case', () => {
    expect(['NORDIC', 'MULTi', 'multi', 'DUAL', 'MULTISUBS'].map(isMultiLanguageWord)).toEqual([true, true, true, true, true]);
    expect(['GERMAN', 'VOSTFR', 'constructor'].map(isMultiLanguageWord)).toEqual([false, false, false]);
  });
});
