// Movie and series folder names that carry a release's words, read as Jellyfin reads them: the
// title ends at the first word that describes the release (resolution, source, codec, HDR, audio,
// release flags), at a bracketed tag that does, or at a season or episode marker (`The Show
// S01E01`, `The Show Season 10`); a group's tag before the title and a site's name are not part
// of it. Wrong is worse than unknown: where what is left may still hold an episode's number, the
// name is left as it is.
//
// The words are our own list, not the release-name parser's: a library folder is named by hand
// more often than a download, so a word that may be a title's (`Web`, `German`, `Proper`) only
// counts written as a release writes it, in capitals, and edition words (`Extended`, `Director's
// Cut`) stay in the title, since they tell an edition apart from the plain movie. Each word of the
// name is looked at once.
import { isYear } from '../parse/title.ts';

/** Words that only ever describe a release, in any case. */
const RELEASE_WORDS = new Set(
  `4k 8k uhd ultrahd ultra-hd hdr hdr10 hdr10+ hdr10plus dovi dolbyvision
  bluray blu-ray bdrip brrip bdremux remux bd25 bd50 bdmv web-dl webdl webrip web-rip webdlrip hdtv
  hdtvrip pdtv sdtv dvdrip dvdr dvd5 dvd9 hdrip hddvd hdcam hdts telesync screener r5
  x264 x265 h264 h265 hevc avc av1 xvid divx vp9 10bit 10-bit 8bit hi10p
  dts dts-hd dtshd dts-x dts-ma truehd atmos ac3 eac3 e-ac3 aac ddp dd+ ddp+ flac lpcm
  repack rerip multi multisubs multi-subs dubbed subbed dual-audio vostfr truefrench amzn dsnp hmax atvp`.split(/\s+/),
);

/** Words of a release that are also ordinary words: they count only in capitals (`WEB`, `PROPER`, `MULTi`). */
const CAPITALS_WORDS = new Set(
  `proper internal limited complete web dl ts dv sdr dual nf french german italian spanish english
  japanese korean russian hindi ita eng ger fre spa hun kor jpn`.split(/\s+/),
);

const RESOLUTION = /^(?:\d{3,4}[pi]|\d{3,4}x\d{3,4})$/;
/** `DD5` of `DD5.1`, `AAC2` of `AAC2.0`: a dot splits the channel count off. */
const AUDIO_CHANNELS = /^(?:dd|ddp|aac|eac3|ac3|dts|truehd|flac|opus|lpcm)\d$/;
/** `S01`, `S01E01`, `S01E01-E02`, `S01E01E02`, `S01-S03`; `E01`, `E01-E16`, `E01~E16`; `1x01`; `EP1`, `#01`, `#1-4`. */
const SERIES_MARKER =
  /^(?:s\d{1,4}(?:e\d{1,4}(?:(?:[-~]e?|e)\d{1,4})*|-s?\d{1,4})?|e\d{2,4}(?:[-~]e?\d{2,4})?|\d{1,2}x\d{2,3}|ep\d{1,4}|#\d{1,4}(?:v\d)?(?:-\d{1,4})?)$/;
const SEASON_WORDS = new Set(['season', 'saison', 'staffel', 'temporada', 'stagione']);
/** `2nd Season`: the ordinal is the season's. */
const ORDINAL = /^\d{1,2}(?:st|nd|rd|th)$/;
/** A file's checksum in brackets (`[8A45634B]`): only ever a release's. */
const CHECKSUM = /^[0-9a-f]{8}$/i;
const NUMBER = /^\d{1,4}$/;
/** An anime episode's number after ` - `: `13`, `07v2`, `01-02`, `12 END`. */
const EPISODE_NUMBER = /^\d{1,4}(?:v\d)?(?:[-+]\d{1,4}(?:v\d)?)?(?: end)?$/i;
const EPISODE_WORD = /^\s*\(?[^\s.()]+\)?(?: end\b)?/i;
/** A number as only an episode is written: zero first (`04`, `015`) or with a version (`312v2`). */
const EPISODE_LIKE = /^(?:0\d{1,3}|\d{2,4}v\d)$/;
const LANGUAGES = new Set('french german italian spanish english japanese korean russian hindi'.split(' '));
const BRACKET_YEAR = /^(?:18|19|20)\d\d$/;
const PAREN_YEAR = /^\((?:18|19|20)\d\d\)/;
const LOWER = /\p{Ll}/u;
/** After a group's tag: a space, a separator, or the title's first letter or digit (not `[REC]³`). */
const AFTER_GROUP_TAG = /^[\s._-]|^[\p{L}\p{Nd}]/u;
/** A site's name before the title (`www.example.org - Title`, `example.com - Title`). */
const SITE = /^(?:www[.\s].+|[\w-]+\.(?:com|org|net|to|co|info|tv|ws|cc|io|me|vip|show|party|lat|sbs|art|xyz|club|in))$/i;
/** What a title cannot hold: brackets left open, or a group's tag before it. */
const BROKEN = /^[[【]|[\]【】]/;
/** An article alone is the start of a title a release word cut short (`The 4K Project`), never one. */
const LONE_ARTICLE = /^(?:the|an?|les?|la|der|die|das|el)$/i;

function isSeparator(code: number): boolean {
  // space, tab, ., _, (, ), [
  return code === 32 || code === 9 || code === 46 || code === 95 || code === 40 || code === 41 || code === 91;
}

/** What is left at a title's edges once the words beside it are cut: separators, and an opened bracket after it. */
function trimEdges(s: string): string {
  const edge = (c: string) => c === ' ' || c === '\t' || c === '.' || c === '_' || c === '-' || c === '–' || c === '~' || c === ',';
  let start = 0;
  let end = s.length;
  while (start < end && edge(s[start]!)) start++;
  while (end > start && (edge(s[end - 1]!) || s[end - 1] === '(')) end--;
  return s.slice(start, end);
}

/** `WEB`, `PROPER`, `MULTi`, `iNTERNAL`: neither lower case nor a capital and lower case. */
function inCapitals(word: string): boolean {
  const lower = word.toLowerCase();
  return word !== lower && word !== word[0]! + lower.slice(1);
}

/** The word, or a release's group glued to it (`BDrip-HDC`, `x264-GRP`, `S01E12-Judas`), matches. */
function withGroup(lower: string, test: (w: string) => boolean): boolean {
  if (test(lower)) return true;
  const dash = lower.indexOf('-');
  return dash > 0 && test(lower.slice(0, dash));
}

const isReleaseWord = (w: string) => RELEASE_WORDS.has(w) || RESOLUTION.test(w) || AUDIO_CHANNELS.test(w);
const isSeriesMarker = (w: string) => SERIES_MARKER.test(w);

interface Word {
  text: string;
  start: number;
  /** A whole `[…]` group, or a year in parentheses: its text is what the brackets hold. */
  bracketed: boolean;
}

/**
 * The name's words, split at spaces, dots, underscores and parentheses; a `[…]` group and a
 * `(Year)` are one word each.
 */
function wordsOf(s: string): Word[] {
  const out: Word[] = [];
  let close = -2; // the first `]` not yet passed; -2: not looked for yet, -1: none left
  let i = 0;
  while (i < s.length) {
    const code = s.charCodeAt(i);
    if (code === 91) {
      if (close !== -1 && close < i) close = s.indexOf(']', i);
      if (close > i) {
        out.push({ text: s.slice(i + 1, close).trim(), start: i, bracketed: true });
        i = close + 1;
        continue;
      }
    }
    if (code === 40 && PAREN_YEAR.test(s.slice(i, i + 6))) {
      out.push({ text: s.slice(i + 1, i + 5), start: i, bracketed: true });
      i += 6;
      continue;
    }
    if (isSeparator(code)) {
      i++;
      continue;
    }
    const start = i;
    while (i < s.length && !isSeparator(s.charCodeAt(i))) i++;
    out.push({ text: s.slice(start, i), start, bracketed: false });
  }
  return out;
}

/** What a word says about the release, if anything: `release` (a release word or tag) or `series` (a season or episode). */
type Marker = 'release' | 'series' | null;

function markerOf(words: readonly Word[], i: number, capitalsCount: boolean): Marker {
  const w = words[i]!;
  if (w.bracketed) {
    // A bracketed tag is the release's when it says so (`[1080p]`, `[Multi-Subs]`, `[8A45634B]`);
    // others may be part of the title (`Mother [Madre] (2016)`).
    if (CHECKSUM.test(w.text)) return 'release';
    const inner = wordsOf(w.text);
    for (let j = 0; j < inner.length; j++) if (markerOf(inner, j, capitalsCount) !== null) return 'release';
    return null;
  }
  const lower = w.text.toLowerCase();
  if (withGroup(lower, isReleaseWord) || (capitalsCount && CAPITALS_WORDS.has(lower) && inCapitals(w.text))) return 'release';
  if (withGroup(lower, isSeriesMarker)) return 'series';
  const next = words[i + 1];
  return SEASON_WORDS.has(lower) && next !== undefined && !next.bracketed && NUMBER.test(next.text) ? 'series' : null;
}

/**
 * Where the title ends given the marker at `cut`: the words before a season that are the season's
 * (`2nd Season 2`, `The Complete Season 3`), and a language before `DL` (`German.DL`, two languages).
 */
function withWordsOfMarker(words: readonly Word[], from: number, cut: number, marker: Marker): number {
  const is = (i: number, test: (lower: string) => boolean) => i > from && !words[i]!.bracketed && test(words[i]!.text.toLowerCase());
  if (marker === 'release') return words[cut]!.text.toLowerCase() === 'dl' && is(cut - 1, (w) => LANGUAGES.has(w)) ? cut - 1 : cut;
  if (is(cut - 1, (w) => ORDINAL.test(w))) return cut - 1;
  if (!is(cut - 1, (w) => w === 'complete')) return cut;
  return is(cut - 2, (w) => w === 'the') ? cut - 2 : cut - 1;
}

/** Dots and underscores between a release name's words become spaces; a run of capital letters stays an acronym (`S.H.O.W`). */
function releaseSpacing(title: string): string {
  if (/\s/.test(title)) return title;
  const words: string[] = [];
  let acronym: string[] = [];
  const flush = () => {
    if (acronym.length > 0) words.push(acronym.join('.'));
    acronym = [];
  };
  for (const part of title.split(/[._]/)) {
    if (part === '') continue;
    if (part.length === 1 && part !== part.toLowerCase()) {
      acronym.push(part);
      continue;
    }
    flush();
    words.push(part);
  }
  flush();
  return words.join(' ');
}

/** `Heat 1995`: the title before a bare year right before the release's words, if it leaves one. */
function bareYear(title: string): TaggedFolderName | null {
  const n = title.length;
  if (n < 6 || !/^\d{4}$/.test(title.slice(n - 4)) || !/[\s._-]/.test(title[n - 5]!)) return null;
  const year = Number(title.slice(n - 4));
  const rest = trimEdges(title.slice(0, n - 5));
  return isYear(year) && rest !== '' ? { title: rest, year } : null;
}

/**
 * The series before an anime episode's number (`Made in Abyss - 13`, `Bleach - 02-03`,
 * `Black Lagoon - 02v2 - Mangrove Heaven`): the title ends at the first ` - ` before one.
 */
function beforeEpisodeNumber(title: string): string {
  for (let dash = title.indexOf(' - '); dash > 0; dash = title.indexOf(' - ', dash + 3)) {
    // The word after it, out of parentheses: `- 08 (Kekkai Sensen)`, `- 01.DVD`, `- (01-04)`, `- 12 END`.
    // A window, not the rest of the title: a title of many dashes is read once, not once per dash.
    const word =
      EPISODE_WORD.exec(title.slice(dash + 3, dash + 3 + 24))?.[0]
        .replace(/[()]/g, '')
        .trim() ?? '';
    if (EPISODE_NUMBER.test(word) && !(word.length === 4 && isYear(Number(word)))) return trimEdges(title.slice(0, dash));
  }
  return title;
}

/** The title without a parenthesis the cut left open (`Bleach - 02 (CX 1280x720 x264)` → `Bleach - 02`). */
function closedParentheses(title: string): string {
  let open = -1;
  let depth = 0;
  for (let i = 0; i < title.length; i++) {
    if (title[i] === '(') {
      if (depth === 0) open = i;
      depth++;
    } else if (title[i] === ')' && depth > 0) depth--;
  }
  return depth > 0 ? trimEdges(title.slice(0, open)) : title;
}

/** Where the title starts after a site's name (`www.example.org - Title`), or 0. */
function afterSite(name: string): number {
  const dash = name.indexOf(' - ');
  return dash > 0 && SITE.test(name.slice(0, dash).trim()) ? dash + 3 : 0;
}

export interface TaggedFolderName {
  title: string;
  year: number | null;
}

/**
 * The title and year of a movie or series folder named with its release's words
 * (`Crouching.Tiger.Hidden.Dragon.4K.UltraHD.HDR.BDrip-HDC`, `[Baz-Bar]Foo - [1080p]`,
 * `The Show S01E01`, `Heat (1995) [1080p]`), or null when the name holds none of them, or when
 * what they leave is not surely a title: such a name is read as the library names it. A year in
 * brackets (`Title (Year)`, `Title [Year]`) is the year wherever it stands after the title; a bare
 * year only right before the release's words (`Heat 1995 1080p`), and not when it would leave no
 * title (`1917 1080p` is 1917).
 */
export function readTaggedFolderName(name: string): TaggedFolderName | null {
  const site = afterSite(name);
  const s = name.slice(site);
  const words = wordsOf(s);
  // In a name all in capitals every word is: there they say nothing.
  const capitalsCount = LOWER.test(s);
  // A group's tag first (`[HorribleSubs] Made in Abyss`), unless it is the title (`[REC]`, `[REC]³`).
  const tagEnd = words[0]?.bracketed === true && words.length > 1 ? s.indexOf(']', words[0].start) + 1 : 0;
  const group = tagEnd > 0 && AFTER_GROUP_TAG.test(s.slice(tagEnd, tagEnd + 1));
  const from = group ? 1 : 0;
  let cut = -1;
  let marker: Marker = null;
  let year: number | null = null;
  let checksum = false;
  // The title's first word is never cut (`HDTV Show`, `Season 2`, `(2009)`).
  for (let i = from + 1; i < words.length; i++) {
    const w = words[i]!;
    if (w.bracketed && BRACKET_YEAR.test(w.text)) {
      year ??= Number(w.text);
      if (cut === -1) cut = i;
      continue;
    }
    checksum ||= w.bracketed && CHECKSUM.test(w.text);
    if (marker !== null) continue;
    marker = markerOf(words, i, capitalsCount);
    if (marker === null) continue;
    if (cut === -1) cut = withWordsOfMarker(words, from, i, marker);
  }
  // A group's tag alone says nothing, unless it names the release: `[REC] 2 (2009)` may be the title.
  if (cut === -1 || (group && marker === null && markerOf(words, 0, capitalsCount) === null)) return null;
  let title = trimEdges(s.slice(group ? tagEnd : 0, words[cut]!.start));
  title = releaseSpacing(closedParentheses(title));
  const bare = year === null ? bareYear(title) : null;
  if (bare) ({ title, year } = bare);
  title = beforeEpisodeNumber(title);
  // An episode's number with no ` - ` before it (`Show 04 vostfr`, `[Group] Bleach 312`) cannot be
  // told from a title's (`Apollo 13`): the name is left as it is.
  const numbers = title.split(/[\s.]+/);
  const last = numbers[numbers.length - 1]!;
  if (year === null && (numbers.some((w) => EPISODE_LIKE.test(w)) || ((group || checksum) && /^\d{2,4}$/.test(last)))) return null;
  if (title === '' || BROKEN.test(title) || LONE_ARTICLE.test(title) || (group && NUMBER.test(title))) return null;
  return { title, year };
}
