// The other ways a release name can be read. The parser answers one reading, or refuses a name
// that reads two ways (`Show - Subtitle - 05`: is the series "Show" or "Show - Subtitle"?). The
// name alone cannot tell, but the library can, as Sonarr's series list does: `Chihayafuru 3 - 21`
// is episode 21 of season 3 in a library holding `Chihayafuru`, and absolute episode 21 of
// "Chihayafuru 3" in one holding that. So these readings are never taken on their own: the scanner
// takes one only where a library folder, an alias or the metadata provider confirms it
// (scanner/identify.ts), and shows them as candidates where nothing does.
import { parseRelease, readRelease, type ParsedMedia, type ParseResult } from './release-name.ts';
import type { Seg } from './segment.ts';
import { sameTitle } from './title-key.ts';
import { isYear } from './title.ts';
import { isLanguageToken } from './vocabulary.ts';

export interface Readings {
  /** The parser's own answer: a reading it is sure of, or why it refuses the name. */
  primary: ParseResult;
  /**
   * Whole readings other than the primary one, for the library to confirm; most names have none.
   * Where the parser refuses a name whose title it did read, the first is that title with no
   * numbers (a movie without its year, where nothing speaks of episodes): a library folder of that
   * whole title speaks against the others, and it is where a person settling the name starts.
   */
  alternatives: ParsedMedia[];
}

/** A season this large is a count or a year inside the title, not a season. */
const MAX_SEASON = 50;

function episodeOf(seg: Seg, fields: Partial<ParsedMedia>): ParsedMedia {
  return {
    kind: 'episode',
    title: seg.title,
    year: seg.year,
    year_after_episode: seg.yearLate,
    season: null,
    episodes: [],
    air_date: null,
    absolute_episodes: [],
    edition: null,
    country: seg.country,
    ...fields,
  };
}

const TRAILING_NUMBER = /^(.*\S)[\s._-]+(\d{1,4})$/u;

/** The title without its last word when that word is a number (`Chihayafuru 3`), and the number. */
function trailingNumber(title: string): { rest: string; n: number; digits: string } | null {
  const m = TRAILING_NUMBER.exec(title);
  if (!m || !/\p{L}/u.test(m[1]!)) return null;
  return { rest: m[1]!.replace(/[\s._-]+$/u, ''), n: Number(m[2]), digits: m[2]! };
}

/**
 * An absolute number after a title that ends in a number: the season of a series whose seasons are
 * numbered in its name (`Chihayafuru 3 - 21`, `Show Name 2 - 05`) reads as that season's episode.
 */
function seasonInTitle(seg: Seg, title: string): ParsedMedia[] {
  const t = trailingNumber(title);
  if (t === null || t.n < 1 || t.n > MAX_SEASON || t.digits.length > 2) return [];
  return [episodeOf(seg, { title: t.rest, season: t.n, episodes: [...seg.absolute] })];
}

/** The readings of an episode numbered only absolutely: its title may end earlier, or in its season. */
function absoluteReadings(seg: Seg): ParsedMedia[] {
  const out: ParsedMedia[] = [];
  const titles = [seg.title];
  // `Show - Subtitle - 05`: the part before the first dash may be the whole series title.
  const dash = seg.title.indexOf(' - ');
  if (dash > 0) titles.push(seg.title.slice(0, dash).trim());
  for (const title of titles) {
    if (title !== seg.title) out.push(episodeOf(seg, { title, absolute_episodes: [...seg.absolute] }));
    out.push(...seasonInTitle(seg, title));
  }
  return out;
}

/**
 * A title followed by numbers and nothing that says what they are: `office 03 19` (season 3,
 * episode 19), `the Series 101` (the old scene number of season 1, episode 1, or absolute episode
 * 101: only a folder of the library, with the provider, says).
 */
function bareReadings(seg: Seg): ParsedMedia[] {
  const last = trailingNumber(seg.title);
  if (last === null) return [];
  const before = trailingNumber(last.rest);
  if (before !== null && before.digits.length <= 2 && last.digits.length <= 2) {
    if (before.n < 1 || before.n > MAX_SEASON || last.n < 1) return [];
    return [episodeOf(seg, { title: before.rest, season: before.n, episodes: [last.n] })];
  }
  if (isYear(last.n) && last.digits.length === 4) return [];
  const out: ParsedMedia[] = [];
  if (last.digits.length >= 3) {
    const season = Math.floor(last.n / 100);
    const episode = last.n % 100;
    if (season >= 1 && episode >= 1) out.push(episodeOf(seg, { title: last.rest, season, episodes: [episode] }));
  }
  // One or two digits after a title are a sequel's or a title's as often as an episode's (`Scream 2`,
  // `Apollo 13`): only three or more, an old scene number, are also read as an absolute one.
  if (last.digits.length >= 3) out.push(episodeOf(seg, { title: last.rest, absolute_episodes: [last.n] }));
  return out;
}

/** The old scene number read as an absolute one (`Show.Name.1203`): season 12, episode 3 may be meant. */
function sceneNumberReadings(seg: Seg): ParsedMedia[] {
  const [n] = seg.absolute;
  if (seg.absolute.length !== 1 || n === undefined || n < 101 || n > 9999 || isYear(n)) return [];
  const season = Math.floor(n / 100);
  const episode = n % 100;
  return season <= MAX_SEASON && episode >= 1 ? [episodeOf(seg, { season, episodes: [episode] })] : [];
}

const RE_WORD_BEFORE_YEAR = /([\p{L}]+)[ ._]+[([]?((?:19|20)\d\d)(?![\p{L}\p{N}])/gu;

/**
 * A language word right before a movie's year is a tag in German scene names (`Noah.German.2014`)
 * and a title's last word elsewhere (`The.Good.German.2006`): the parser cuts it, as most names
 * want; a library folder of the longer title says otherwise.
 */
function languageInTitle(input: string, m: ParsedMedia): ParsedMedia[] {
  if (m.kind !== 'movie' || m.year === null) return [];
  const file = input.slice(Math.max(input.lastIndexOf('/'), input.lastIndexOf('\\')) + 1);
  for (const w of file.matchAll(RE_WORD_BEFORE_YEAR)) {
    if (Number(w[2]) !== m.year || !isLanguageToken(w[1]!.toLowerCase())) continue;
    if (!sameTitle(file.slice(0, w.index), m.title)) continue;
    return [{ ...m, title: `${m.title} ${w[1]}` }];
  }
  return [];
}

/** Drops readings that say the same as the primary one or an earlier one. */
function distinct(primary: ParseResult, list: ParsedMedia[]): ParsedMedia[] {
  const id = (m: ParsedMedia) => JSON.stringify([m.kind, m.title, m.year, m.season, m.episodes, m.absolute_episodes, m.air_date]);
  const seen = new Set(primary.ok ? [id(primary.media)] : []);
  return list.filter((m) => {
    const k = id(m);
    if (seen.has(k) || m.title.trim() === '') return false;
    seen.add(k);
    return true;
  });
}

/** Tracker names give a title in several languages (`Оригинал (S2E1) / Title (S2E1) (2023)`): each may be the library's. */
const MAX_TITLES = 4;

function titleReadings(input: string): ParsedMedia[] {
  if (!input.includes(' / ') || input.includes('\0')) return [];
  const parts = input.split(' / ');
  if (parts.length > MAX_TITLES) return [];
  return parts.flatMap((part) => {
    const r = parseRelease(part);
    return r.ok ? [r.media] : [];
  });
}

export function readingsOf(input: string): Readings {
  const { result, seg } = readRelease(input);
  const alternatives = [...titleReadings(input), ...(result.ok ? languageInTitle(input, result.media) : [])];
  if (seg === null || seg.refusal !== null || seg.title === '') return { primary: result, alternatives: result.ok ? distinct(result, alternatives) : [] };
  if (seg.kind === 'episode' && seg.season === null && seg.absolute.length > 0 && seg.airDate === null) {
    alternatives.push(...absoluteReadings(seg), ...sceneNumberReadings(seg));
  } else if (seg.kind === 'bare') {
    alternatives.push(...bareReadings(seg));
  }
  if (result.ok) return { primary: result, alternatives: distinct(result, alternatives) };
  // The title the parser did read, though it refused the name: what a person settling it starts from.
  const whole =
    seg.kind === 'bare' && alternatives.length === 0
      ? { ...episodeOf(seg, {}), kind: 'movie' as const, edition: seg.edition }
      : episodeOf(seg, { absolute_episodes: [...seg.absolute] });
  return { primary: result, alternatives: distinct(result, [whole, ...alternatives]) };
}
