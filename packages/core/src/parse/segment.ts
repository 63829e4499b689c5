// One path segment (a file name without its extension, or a folder name) read on its own: the
// first form of the table that finds its marker decides; the text before the marker is the title.
import { findEdition, takeTags } from './edition.ts';
import { findDate, isoDate, RE_DATE_HINT } from './forms/daily.ts';
import { FORMS, type Marker } from './forms/index.ts';
import { nonVideoReason } from './non-video.ts';
import { prepare } from './prepare.ts';
import { isPlausibleTitle, isYear, movieTitle, seriesTitle, titleBeforeJunk } from './title.ts';
import { isJunkToken, tokenize } from './vocabulary.ts';

export interface Seg {
  /** `season`: a season without episodes; `bare`: a title and nothing that says what it is. */
  kind: 'movie' | 'episode' | 'season' | 'bare';
  /** '' when the text before the marker was no title (a folder may give it). */
  title: string;
  year: number | null;
  /** The year was read after the episode marker (`S07E14.2024`), where it may be the episode's air year. */
  yearLate: boolean;
  country: string | null;
  season: number | null;
  episodes: number[];
  absolute: number[];
  airDate: string | null;
  edition: string | null;
  /** Numbers without a season that a season folder may claim. */
  weak: boolean;
  /** Why this name cannot be taken at all (not a video, numbers that contradict each other); no folder changes that. */
  refusal: string | null;
}

// Every field written out, in one order: one object shape for V8, no spread per segment.
function seg(kind: Seg['kind'], fields: Partial<Seg> = {}): Seg {
  return {
    kind,
    title: fields.title ?? '',
    year: fields.year ?? null,
    yearLate: fields.yearLate ?? false,
    country: fields.country ?? null,
    season: fields.season ?? null,
    episodes: fields.episodes ?? [],
    absolute: fields.absolute ?? [],
    airDate: fields.airDate ?? null,
    edition: fields.edition ?? null,
    weak: fields.weak ?? false,
    refusal: fields.refusal ?? null,
  };
}

export function refused(reason: string): Seg {
  return seg('bare', { refusal: reason });
}

/**
 * A year after an episode marker is read as the series' when it stands among release words, right
 * after the marker or a release word and before another or the end ("S01.E12.German.2014.ANiME",
 * "S03.(2005).720p"), or opening a bracket of release words ("[2017, WEBRip]"); after an episode
 * title word it may be the episode's ("S01E01.Back.to.1985"). Even among release words it may be
 * the air year of a later season, so the segment says it was read late (`yearLate`).
 */
const RE_YEAR = /(?:19|20)\d\d/;

function yearAfter(s: string, from: number): number | null {
  if (!RE_YEAR.test(s.slice(from))) return null;
  const tokens = tokenize(s);
  let first = 0;
  while (first < tokens.length && tokens[first]!.start < from) first++;
  for (let i = first; i < tokens.length && i < first + 12; i++) {
    const t = tokens[i]!;
    if (!/^(?:19|20)\d{2}$/.test(t.lower)) continue;
    const prev = i > first ? tokens[i - 1] : undefined;
    const next = tokens[i + 1];
    // "[2017, США, WEBRip]": trackers open a bracket of release facts with the year.
    const opens = s[t.start - 1] === '[';
    const inRelease =
      (prev === undefined || opens || isJunkToken(prev.lower)) && (next === undefined || isJunkToken(next.lower) || (opens && s[t.end] === ','));
    return inRelease && isYear(Number(t.lower)) ? Number(t.lower) : null;
  }
  return null;
}

const RE_PART_OF = /(?:^|[\s.])\d{1,2} ?of ?\d{1,2}(?=$|[\s.])/i;

const RE_SEASON_INSIDE = /(?:^|[^\p{L}\p{N}])(?:s\d{1,2}|season[\s._]*\d{1,2})(?![\p{L}\p{N}])/iu;

function dashesIn(title: string): number {
  let n = 0;
  for (let i = title.indexOf(' -'); i >= 0; i = title.indexOf(' -', i + 2)) n++;
  return n;
}

// "Show 2016 02 25 S20E142": a date right before the season and episode is the air date, no word of
// the title; the numbers say which episode it is, so the date is dropped rather than kept beside them.
const RE_DATE_AT_END = /(?<!\p{N})((?:19|20)\d{2})([ ._-])(\d{1,2})\2(\d{1,2})$/u;

/** Where a date at the end of `raw` starts, and whether it is a calendar day (read as the air-date form reads it). */
function dateAtEnd(raw: string): { index: number; day: boolean } | null {
  let end = raw.length;
  while (end > 0 && ' ._-'.includes(raw[end - 1]!)) end--;
  const last = raw.charCodeAt(end - 1);
  if (end < 10 || last < 48 || last > 57) return null;
  const d = RE_DATE_AT_END.exec(raw.slice(0, end));
  if (!d) return null;
  const [y, a, b] = [Number(d[1]), Number(d[3]), Number(d[4])];
  return { index: d.index, day: (a <= 12 ? isoDate(y, a, b) : isoDate(y, b, a)) !== null };
}

function fromMarker(s: string, m: Marker, tagEdition: string | null): Seg {
  if (m.conflict !== null) return refused(m.conflict);
  const raw = s.slice(m.titleStart, m.start);
  if (m.kind === 'movie') {
    const { title, tail } = movieTitle(raw, s[m.start] === '(' || s[m.start] === '[');
    // "(Comedy) Netflix Originals - Dave Chappelle - The Age of Spin": which part is the movie?
    if (dashesIn(title) >= 2) return refused('a title of several parts; which one is the movie is not clear');
    // "Title.5of9.Episode.Title.1990": the part of a mini-series, not a movie of that title.
    if (RE_PART_OF.test(title)) return refused('a part "N of M" inside the title: an episode of a series more likely than a movie');
    return seg('movie', {
      title: isPlausibleTitle(title) ? title : '',
      year: m.year,
      edition: tagEdition ?? findEdition(s.slice(m.end)) ?? findEdition(tail),
    });
  }
  const numbered = m.season !== null && m.episodes.length > 0;
  const date = numbered ? dateAtEnd(raw) : null;
  if (date && !date.day) return refused('a date before the episode that is no calendar day');
  const t = seriesTitle(date ? raw.slice(0, date.index) : raw);
  // "The Bridge (Bron Broen)", "Nekomonogatari (Black)": an alternative title, or part of the title?
  if (t.title.endsWith(')') && /\([^()]*\p{L}[^()]*\)$/u.test(t.title)) return refused('a series title with a bracketed addition that may be another title');
  // "Show S01 EP #1": a season in the title, and a season-less number after it that may not be the episode.
  if (m.weak && RE_SEASON_INSIDE.test(raw)) return refused('a season in the title before a number without one');
  const late = m.year === null && t.year === null ? yearAfter(s, m.end) : null;
  return seg(m.kind, {
    title: isPlausibleTitle(t.title) ? t.title : '',
    year: m.year ?? t.year ?? late,
    yearLate: late !== null,
    country: t.country,
    season: m.season,
    episodes: m.episodes,
    absolute: m.absolute,
    airDate: m.airDate ?? (numbered && RE_DATE_HINT.test(s.slice(m.end)) ? (findDate(s.slice(m.end))?.airDate ?? null) : null),
    weak: m.weak,
  });
}

/**
 * Music, software, games and books are named with years and numbers that read as movies, daily
 * shows or absolute episodes; a season and its episodes they do not have, so those names are not
 * checked (a tenth of the reading's time).
 */
function mayBeNoVideo(m: Marker): boolean {
  return !(m.kind === 'episode' && m.season !== null && m.episodes.length > 0);
}

/** Reads one segment; null when nothing at all is left of it. */
export function parseSegment(raw: string): Seg | null {
  const tagged = takeTags(raw);
  const { s, group, checksum } = prepare(tagged.s);
  if (s === '') return null;
  const ctx = { group, checksum };
  for (const form of FORMS) {
    if (!form.hint.test(s)) continue;
    const m = form.find(s, ctx);
    if (!m) continue;
    // A fansub's checksum of the file is video evidence too: such names carry `FLAC` and the like.
    const notVideo = mayBeNoVideo(m) && !checksum ? nonVideoReason(raw) : null;
    return notVideo === null ? fromMarker(s, m, tagged.edition) : refused(`the name of ${notVideo}, not a video`);
  }
  const notVideo = checksum ? null : nonVideoReason(raw);
  if (notVideo !== null) return refused(`the name of ${notVideo}, not a video`);
  const before = titleBeforeJunk(s);
  const t = seriesTitle(before);
  if (!isPlausibleTitle(t.title)) return null;
  return seg('bare', { title: t.title, year: t.year, country: t.country, edition: tagged.edition ?? findEdition(s.slice(before.length)) });
}
