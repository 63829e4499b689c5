// Matching a title against the library's movie and series folders. Two spellings of one show share
// a key; the year and country code that tell remakes apart are split off and kept beside it, so
// that The Office (US) and The Office (UK) share a key but never a match.
import { SERIES_COUNTRIES } from '../parse/countries.ts';
import { normalizeTitle } from '../parse/index.ts';
import { titleYearOfFolder } from './classify.ts';
import { boundedName } from './name-bound.ts';

export interface TitleKey {
  /** The normalised base title. */
  key: string;
  year: number | null;
  /** Upper case (`US`), or null. */
  country: string | null;
}

/** What the folders that fit a name come to: one show (on any number of drives) or several. */
export type FolderFit<T> = { kind: 'found'; folders: T[] } | { kind: 'ambiguous'; folders: T[] };

const MIN_YEAR = 1900;
const MAX_YEAR = new Date().getUTCFullYear() + 1;

/** Ids Sonarr, Radarr, Plex and Jellyfin add to folder names: `[tvdbid-78804]`, `{imdb-tt0386676}`. */
const ID_TAG = /^(.*?)\s*[[{](?:tvdb|tmdb|imdb|tvmaze|anidb)(?:id)?[-=][^\]}]*[\]}]$/i;
const TRAILING_YEAR = /^(.*?\S)\s*(?:\((\d{4})\)|\[(\d{4})\]|(?<=[\s._-])(\d{4}))$/;
// A bare code only in capitals: "This Is Us" is a title, "The Office US" a series of the US; and
// not in a title all in capitals, where it is as likely a word ("THIS IS US"; see `capitalsCountryReading`).
const TRAILING_COUNTRY = /^(.*?\S)\s*(?:[([]([A-Za-z]{2})[)\]]|(?<=[\s._-])([A-Z]{2}))$/;
const COUNTRY_TAG = /[([]\s*([A-Za-z]{2})\s*[)\]]/g;
/** The sort-order spelling of a title some libraries use: `Office, The`. */
const TRAILING_ARTICLE = /,\s*(?:the|an?)\s*$/i;

/** A run of single letters, as `S.H.I.E.L.D.` normalises: the same word as `SHIELD`. */
const SPELLED_OUT = /(?<![\p{L}\p{N}])\p{L}(?: \p{L}(?![\p{L}\p{N}]))+/gu;

const trimEnd = (s: string) => s.replace(/[\s._-]+$/, '');
const hasTitleLeft = (rest: string) => normalizeTitle(rest) !== '';

/**
 * The key of a title, with the trailing year, country code and id tags its name carries split off.
 * A year or country given (as a parser or a folder's `(2005)` reads it) wins; a trailing year that
 * differs from it is part of the title (`Wonder Woman 1984 (2020)`, `Space: 1999 (1975)`). The key
 * is `normalizeTitle`'s, with spelled-out letters joined (`S.H.I.E.L.D.` and `SHIELD`) and the
 * sort-order article (`Office, The`) dropped like a leading one.
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
    if (ym && n >= MIN_YEAR && n <= MAX_YEAR && (y === null || y === n) && hasTitleLeft(ym[1]!)) {
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
  const key = normalizeTitle(t.replace(TRAILING_ARTICLE, '')).replace(SPELLED_OUT, (run) => run.replace(/ /g, ''));
  return { key, year: y, country: c };
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

/**
 * The key of a movie or series folder as Sonarr, Radarr, Plex and Jellyfin name them
 * (`Doctor Who (2005) [tvdbid-78804]`, `The Office (US)`). A country tag that the folder reader
 * left outside the title (`The Office (2005) (US)`) still counts.
 */
export function folderTitleKey(name: string): TitleKey {
  const { title, year } = titleYearOfFolder(name);
  const k = titleKey(title, year);
  if (k.country !== null) return k;
  const codes = new Set<string>();
  for (const m of boundedName(name).matchAll(COUNTRY_TAG)) {
    const code = m[1]!.toUpperCase();
    if (SERIES_COUNTRIES.has(code) && !title.includes(m[0])) codes.add(code);
  }
  return codes.size === 1 ? { ...k, country: [...codes][0]! } : k;
}

/** One string per show: the key with its year and country. */
export function identityOf(k: TitleKey): string {
  return `${k.key}\0${k.year ?? ''}\0${k.country ?? ''}`;
}

/** The two name different shows: both have a year and the years differ, or likewise the countries. */
export function contradicts(a: TitleKey, b: TitleKey): boolean {
  return (a.year !== null && b.year !== null && a.year !== b.year) || (a.country !== null && b.country !== null && a.country !== b.country);
}

/**
 * The folders a name may go into. A folder fits when its key is the name's and its year and
 * country do not contradict the name's; of those, the ones that confirm most of what the name
 * says win (`Doctor Who (2005)` over `Doctor Who` for Doctor.Who.2005). Folders of one name on
 * several drives or library folders are one show; two different names left over (`Doctor Who
 * (1963)` and `Doctor Who (2005)` for Doctor.Who) are ambiguous: a guess would misfile the file.
 */
export function fittingFolders<T>(wanted: TitleKey, folders: readonly T[], keyOf: (f: T) => TitleKey): FolderFit<T> {
  const confirmed = (k: TitleKey) =>
    (wanted.year !== null && k.year === wanted.year ? 1 : 0) + (wanted.country !== null && k.country === wanted.country ? 1 : 0);
  const fits = folders.filter((f) => {
    const k = keyOf(f);
    return k.key === wanted.key && !contradicts(k, wanted);
  });
  const best = Math.max(0, ...fits.map((f) => confirmed(keyOf(f))));
  const chosen = fits.filter((f) => confirmed(keyOf(f)) === best);
  const shows = new Set(chosen.map((f) => identityOf(keyOf(f))));
  return shows.size > 1 ? { kind: 'ambiguous', folders: chosen } : { kind: 'found', folders: chosen };
}

/**
 * Buckets things with the same key. A bucket whose members name two or more years, or two or more
 * countries, is split by year and country (Doctor Who 1963 and 2005, The Office US and UK are
 * different shows), and then the things that name neither stay apart from all of them, since they
 * cannot be told which they are. Otherwise the bucket is one show.
 */
export function sameTitleGroups<T>(things: readonly T[], keyOf: (t: T) => TitleKey): T[][] {
  const buckets = new Map<string, { thing: T; key: TitleKey }[]>();
  for (const thing of things) {
    const key = keyOf(thing);
    const bucket = buckets.get(key.key);
    if (bucket) bucket.push({ thing, key });
    else buckets.set(key.key, [{ thing, key }]);
  }
  const out: T[][] = [];
  for (const bucket of buckets.values()) {
    const years = new Set(bucket.map((b) => b.key.year).filter((y) => y !== null));
    const countries = new Set(bucket.map((b) => b.key.country).filter((c) => c !== null));
    if (years.size <= 1 && countries.size <= 1) {
      out.push(bucket.map((b) => b.thing));
      continue;
    }
    const byShow = new Map<string, T[]>();
    for (const { thing, key } of bucket) {
      const id = identityOf(key);
      const group = byShow.get(id);
      if (group) group.push(thing);
      else byShow.set(id, [thing]);
    }
    out.push(...byShow.values());
  }
  return out;
}
