// The one title key: two spellings of one title share it, and the year and country code that tell
// remakes apart are split off and kept beside it, so that The Office (US) and The Office (UK) share
// a key but never an identity. The parser, the library's folder matching, the identifier, the
// reports and the provider cache all compare titles through it.
import { SERIES_COUNTRIES } from './countries.ts';
import { boundedName } from './name-bound.ts';
import { isYear } from './title.ts';

export interface TitleKey {
  /** The normalised base title. */
  key: string;
  year: number | null;
  /** Upper case (`US`), or null. */
  country: string | null;
}

const FOLD: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  ø: 'o',
  Ø: 'o',
  đ: 'd',
  Đ: 'd',
  ł: 'l',
  Ł: 'l',
  þ: 'th',
  ð: 'd',
  ı: 'i',
};

/** Ids Sonarr, Radarr, Plex and Jellyfin add to folder names: `[tvdbid-78804]`, `{imdb-tt0386676}`. */
const ID_TAG = /^(.*?)\s*[[{](?:tvdb|tmdb|imdb|tvmaze|anidb)(?:id)?[-=][^\]}]*[\]}]$/i;
const TRAILING_YEAR = /^(.*?\S)\s*(?:\((\d{4})\)|\[(\d{4})\]|(?<=[\s._-])(\d{4}))$/;
// A bare code only in capitals: "This Is Us" is a title, "The Office US" a series of the US; and
// not in a title all in capitals, where it is as likely a word ("THIS IS US"; see `capitalsCountryReading`).
const TRAILING_COUNTRY = /^(.*?\S)\s*(?:[([]([A-Za-z]{2})[)\]]|(?<=[\s._-])([A-Z]{2}))$/;
/** The sort-order spelling of a title some libraries use: `Office, The`. */
const TRAILING_ARTICLE = /,\s*(?:the|an?)\s*$/i;

/** A run of single letters, as `S.H.I.E.L.D.` normalises: the same word as `SHIELD`. */
const SPELLED_OUT = /(?<![\p{L}\p{N}])\p{L}(?: \p{L}(?![\p{L}\p{N}]))+/gu;

/**
 * Lowercase, accents stripped, `&` → `and`, punctuation removed (letters of every script kept), a
 * leading "the" / "a" / "an" dropped, whitespace collapsed.
 */
function normalize(title: string): string {
  let s = title.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  s = s.replace(/[ßæÆœŒøØđĐłŁþðı]/g, (c) => FOLD[c] ?? c).toLowerCase();
  s = s
    .replace(/&/g, ' and ')
    .replace(/['’`´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  if (s.startsWith('the ')) s = s.slice(4);
  else if (s.startsWith('a ')) s = s.slice(2);
  else if (s.startsWith('an ')) s = s.slice(3);
  return s;
}

const trimEnd = (s: string) => s.replace(/[\s._-]+$/, '');
const hasTitleLeft = (rest: string) => normalize(rest) !== '';

/**
 * The key of a title, with the trailing year, country code and id tags its name carries split off.
 * A year or country given (as a parser or a folder's `(2005)` reads it) wins; a trailing year that
 * differs from it is part of the title (`Wonder Woman 1984 (2020)`, `Space: 1999 (1975)`). The key
 * is the title lowercased, accents stripped, `&` → `and`, punctuation removed (letters of every
 * script kept), whitespace collapsed, spelled-out letters joined (`S.H.I.E.L.D.` and `SHIELD`) and
 * a leading or sort-order article (`The Office`, `Office, The`) dropped.
 *
 * Only the English leading articles go, so that `Office` finds `The Office`. Der/Die/Das/Le/La/Les/
 * El/Il stay: releases and folders of a foreign title both keep its article, so dropping it would
 * find nothing more, while those words begin other titles as ordinary words (`Die Hard`,
 * `La La Land`, `Le Mans`) and would join titles that differ ("Die Hart" and "Hart").
 */
export function titleKey(title: string, year: number | null = null, country: string | null = null): TitleKey {
  let t = boundedName(title).trim();
  let y = year;
  let c = country?.toUpperCase() ?? null;
  for (;;) {
    const id = ID_TAG.exec(t);
    if (id && hasTitleLeft(id[1]!)) {
      t = trimEnd(id[1]!);
      continue;
    }
    const ym = TRAILING_YEAR.exec(t);
    const n = ym ? Number(ym[2] ?? ym[3] ?? ym[4]) : NaN;
    if (ym && isYear(n) && (y === null || y === n) && hasTitleLeft(ym[1]!)) {
      t = trimEnd(ym[1]!);
      y = n;
      continue;
    }
    const cm = TRAILING_COUNTRY.exec(t);
    const code = cm ? (cm[2] ?? cm[3]!).toUpperCase() : '';
    if (cm && SERIES_COUNTRIES.has(code) && (c === null || c === code) && hasTitleLeft(cm[1]!) && (cm[2] !== undefined || /\p{Ll}/u.test(cm[1]!))) {
      t = trimEnd(cm[1]!);
      c = code;
      continue;
    }
    break;
  }
  const key = normalize(t.replace(TRAILING_ARTICLE, '')).replace(SPELLED_OUT, (run) => run.replace(/ /g, ''));
  return { key, year: y, country: c };
}

/** One string per show: the key with its year and country. */
export function identityOf(k: TitleKey): string {
  return `${k.key}\0${k.year ?? ''}\0${k.country ?? ''}`;
}

/** Whether two titles name one show: the same key, year and country. */
export function sameTitle(a: string, b: string): boolean {
  return identityOf(titleKey(a)) === identityOf(titleKey(b));
}

/**
 * The other reading of a title all in capitals that ends in a bare country code: `THE OFFICE US` may
 * be The Office of the US, `THIS IS US` is a title. Null for any other title.
 */
export function capitalsCountryReading(title: string): { title: string; country: string } | null {
  const cm = TRAILING_COUNTRY.exec(title.trim());
  if (!cm || cm[3] === undefined || !SERIES_COUNTRIES.has(cm[3]) || /\p{Ll}/u.test(cm[1]!) || !hasTitleLeft(cm[1]!)) return null;
  return { title: trimEnd(cm[1]!), country: cm[3] };
}
