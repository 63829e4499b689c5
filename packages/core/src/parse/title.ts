// Turning the text before a marker into a title: release words and bracketed tags taken off the
// end, a trailing series year or country code split off, dots made spaces where they separate
// words. And the check that what is left could be a title at all.
import { SERIES_COUNTRIES } from './countries.ts';
import { firstJunk, isJunkToken, isLanguageToken, isReleaseToken, isStrongJunkToken, onlyJunk } from './vocabulary.ts';

export const MIN_YEAR = 1900;
export const MAX_YEAR = new Date().getUTCFullYear() + 1;

export function isYear(n: number): boolean {
  return n >= MIN_YEAR && n <= MAX_YEAR;
}

export interface Title {
  title: string;
  year: number | null;
  country: string | null;
}

/** A release word after one of these belongs to the title: "Bigger, Longer and Uncut", "The Good German". */
const JOINERS = new Set(['and', '&', 'the', 'of', 'a', 'an', 'or', 'und', 'et', 'y', 'e', 'de', 'du', 'la', 'le', 'der', 'die', 'das', 'in', 'on', 'for']);
const ARTICLES = new Set(['the', 'a', 'an', 'le', 'la', 'les', 'l', 'der', 'die', 'das', 'el', 'il', 'lo']);
/** Bracketed words after a title that say what the release is, not what it is called. */
const TAG_IN_PARENS = /^(?:tv|dvd|bd|digital|uncut|uncensored|web|hd|sd|hdtv|ova|oad|remastered|\d{3,4}p)$/i;

/** Dot-separated names: dots become spaces, but runs of single letters stay acronyms (S.H.I.E.L.D.). */
// A part of no or one character between dots, or at either end: an acronym's letter or a doubled dot.
const RE_SHORT_PART = /(?:^|\.)[^.]?(?:\.|$)/;

function dotsToSpaces(t: string): string {
  if (!t.includes('.')) return t;
  if (!RE_SHORT_PART.test(t)) return t.replaceAll('.', ' ');
  const words: string[] = [];
  let acro = '';
  for (const p of t.split('.')) {
    if (p === '') continue;
    if (p.length === 1 && isLetter(p)) {
      acro += `${p}.`;
      continue;
    }
    if (acro !== '') words.push(acronym(acro));
    acro = '';
    words.push(p);
  }
  if (acro !== '') words.push(acronym(acro));
  return words.join(' ');
}

const LETTER = /\p{L}/u;
function isLetter(c: string): boolean {
  const code = c.charCodeAt(0) | 32;
  return code < 128 ? code >= 97 && code <= 122 : LETTER.test(c);
}

/** "S.H.I.E.L.D." stays; a lone "A." is the word "A". */
function acronym(dotted: string): string {
  return dotted.length >= 4 ? dotted : dotted.slice(0, -1);
}

// Not the dot: it may end an abbreviation ("Monsters, Inc."); `finish` decides about it.
// Trimming and the last word are done by hand: an expression anchored at the end is tried from
// every position of the string, and these run a few times per name.
const TRAILING_SEPARATORS = ' \t_,:;–([{-';
const TRAILING_SEPARATORS_AND_DOTS = ' \t._,:;–([{-';
const LEADING_SEPARATORS = ' \t._,:;–)]}-';

function trimEnd(t: string, chars: string): string {
  let end = t.length;
  while (end > 0 && chars.includes(t[end - 1]!)) end--;
  return end === t.length ? t : t.slice(0, end);
}

function trimStart(t: string, chars: string): string {
  let start = 0;
  while (start < t.length && chars.includes(t[start]!)) start++;
  return start === 0 ? t : t.slice(start);
}

const WORD_SEPARATORS = ' \t._-';
const isDigitCode = (c: number): boolean => c >= 48 && c <= 57;
const isUpperCode = (c: number): boolean => c >= 65 && c <= 90;
const RE_NON_ASCII = /[^\x00-\x7f]/;
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** ` `, tab, `.`, `_` or `-`: the characters of WORD_SEPARATORS, by code. */
const isSeparatorCode = (c: number): boolean => c === 32 || c === 9 || c === 46 || c === 95 || c === 45;

/** The last word of `t` after a separator: its text and where the separator before it starts. */
function lastWord(t: string): { word: string; index: number } | null {
  // By character code: a one-character string and a lookup per character cost more than the rest.
  let end = t.length;
  while (end > 0 && isSeparatorCode(t.charCodeAt(end - 1))) end--;
  let start = end;
  while (start > 0) {
    const c = t.charCodeAt(start - 1);
    const l = c | 32;
    const wordChar =
      c < 128 ? (c >= 48 && c <= 57) || (l >= 97 && l <= 122) || c === 43 || c === 39 || c === 45 : c === 0x2019 || WORD_CHAR.test(t[start - 1]!);
    // A dash after a separator starts the next part ("Title -Word"), not this word.
    if (!wordChar || (c === 45 && start - 1 > 0 && isSeparatorCode(t.charCodeAt(start - 2)))) break;
    start--;
  }
  let sep = start;
  while (sep > 0 && isSeparatorCode(t.charCodeAt(sep - 1))) sep--;
  if (start === end || sep === start) return null;
  return { word: t.slice(start, end), index: sep };
}

/** No white space, so `trim` leaves it. */
const isPrintableAscii = (c: number): boolean => c > 32 && c < 127;

function isArticleOnly(t: string): boolean {
  // No article is longer than three letters: most titles are told apart by their length alone.
  if (t.length > 3 && isPrintableAscii(t.charCodeAt(0)) && isPrintableAscii(t.charCodeAt(t.length - 1))) return false;
  return ARTICLES.has(t.trim().toLowerCase());
}

/** The word before the one at `index`, lower-cased; '' when there is none. */
function wordBefore(t: string, index: number): string {
  const m = /([\p{L}\p{N}&]+)[\s._-]*$/u.exec(t.slice(0, index));
  return m ? m[1]!.toLowerCase() : '';
}

/** Words only releases put at the end of a title, beside the vocabulary's release and edition words. */
const TAIL_TAGS = new Set([
  '3d',
  'hsbs',
  'hou',
  'sbs',
  'ts',
  'r5',
  'line',
  'ld',
  'dl',
  'dubbed',
  'subbed',
  'screener',
  'complete',
  'docu',
  'hd',
  'ova',
  'dvd',
  'bd',
  'audio',
  'custom',
]);
/** Genres some uploaders add after a dash: "The Deep Blue Sea - Drama 2011". */
const GENRE_TAIL =
  /[\s._]+-[\s._]+(?:drama|comedy|western|action|horror|thriller|documentary|documentry|sci-fi|romance|animation|crime|war|musical)(?:[\s._]+\p{L}+)?$/iu;

/** Edition words that name an edition alone; "Cut" or "Final" do only in a phrase. */
const EDITION_WORD = new Set([
  'extended',
  'unrated',
  'uncut',
  'remastered',
  'remaster',
  'imax',
  'theatrical',
  'criterion',
  'redux',
  'despecialized',
  'restored',
  'colorized',
  'custom',
]);
/** Of those, the ones a series' release also carries ("… HD REMASTER"); "Starhunter ReduX" is a title. */
const SERIES_EDITION_WORD = new Set(['unrated', 'uncut', 'uncensored', 'remastered', 'remaster']);
const EDITION_PHRASE_TAIL =
  /[\s._-]+(?:director'?s[\s._-]?cut|final[\s._-]?cut|ultimate[\s._-]?(?:cut|edition)|collector'?s[\s._-]?edition|special(?:[\s._-]?extended)?[\s._-]?edition|(?:\d{1,3}(?:st|nd|rd|th)[\s._-]?)?anniversary(?:[\s._-]?edition)?|(?:extended|theatrical|international|uncut|unrated)[\s._-]?(?:cut|edition|version)|open[\s._-]?matte)$/i;

const EDITION_PHRASE_ENDS = ['cut', 'edition', 'anniversary', 'version', 'matte'];

function endsWithEditionWord(t: string): boolean {
  const tail = t.slice(-11).toLowerCase();
  for (const e of EDITION_PHRASE_ENDS) if (tail.endsWith(e)) return true;
  return false;
}

function isTailTag(word: string, lower: string, editions: boolean): boolean {
  // Three-letter language codes are words too ("Bokura ga Ita"): only their scene spelling (ITA, iTA) counts.
  if (isLanguageToken(lower)) {
    if (lower === 'english') return word === 'ENGLISH';
    return lower.length > 3 || word !== word[0] + lower.slice(1);
  }
  return (editions ? EDITION_WORD : SERIES_EDITION_WORD).has(lower) || isReleaseToken(lower) || TAIL_TAGS.has(lower);
}

/**
 * "Suicide Squad EXTENDED (2016)": before a bracketed year the words are the title as written, but
 * an edition word in capitals in a title that is not is a tag; in title case it may be the title's
 * ("Apocalypse Now Redux (2001)").
 */
function isShoutedEdition(word: string, lower: string, title: string): boolean {
  return EDITION_WORD.has(lower) && word === word.toUpperCase() && /\p{Ll}/u.test(title);
}

/**
 * Release words at the end of a raw title (`UNCUT.GERMAN`, `3D.HSBS`, `(TV)`), taken off one by one,
 * never down to nothing and never after a joining word ("Bigger, Longer and Uncut", "Blade Runner
 * The Final Cut"). A clean name (`Title (Year)`) carries few such words: there, only what is surely
 * a release word goes, and an edition phrase or a shouted edition word. Editions are a movie's: in a
 * series title they are words of it ("Starhunter ReduX").
 */
function stripTrailingTags(raw: string, clean: boolean, editions = true): string {
  let t = raw;
  // In a dotted name a last dot separates; in a spaced one it may end an abbreviation.
  const separators = raw.includes(' ') ? TRAILING_SEPARATORS : TRAILING_SEPARATORS_AND_DOTS;
  for (let i = 0; i < 8; i++) {
    t = trimEnd(t, separators);
    const dashed = t.includes('-');
    const paren = t.endsWith(')') ? /[\s._-]*\(([^()]*)\)$/.exec(t) : null;
    // "(TV)", and any bracket after a dash: "Kiss the blood off my hands - (Norman FOSTER)".
    if (paren && paren.index > 0 && (TAG_IN_PARENS.test(paren[1]!.trim()) || /[\s._]-[\s._]*$/.test(t.slice(0, t.lastIndexOf('('))))) {
      t = t.slice(0, paren.index);
      continue;
    }
    // "Game of Thrones - The Complete": an article left alone after a dash.
    const article = dashed ? /[\s._]+-[\s._]+(?:the|a|an)$/i.exec(t) : null;
    if (article && article.index > 0) {
      t = t.slice(0, article.index);
      continue;
    }
    const genre = dashed ? GENRE_TAIL.exec(t) : null;
    if (genre && genre.index > 0) {
      t = t.slice(0, genre.index);
      continue;
    }
    // "Aliens Special Edition", "Nude - International Cut (2018)"; but "The Final Cut" is a title.
    const phrase = editions && endsWithEditionWord(t) ? EDITION_PHRASE_TAIL.exec(t) : null;
    const rest = phrase ? t.slice(0, phrase.index).replace(/[\s._-]+$/, '') : '';
    if (phrase && rest !== '' && !isArticleOnly(rest) && !JOINERS.has(wordBefore(t, phrase.index))) {
      t = rest;
      continue;
    }
    const m = lastWord(t);
    if (!m || m.index === 0) break;
    const lower = m.word.toLowerCase();
    if (!(clean ? isReleaseToken(lower) || (editions && isShoutedEdition(m.word, lower, t)) : isTailTag(m.word, lower, editions))) break;
    const before = t.slice(0, m.index);
    if (isArticleOnly(before) || before.trim() === '') break;
    if (lower !== 'complete' && JOINERS.has(wordBefore(t, m.index))) break;
    t = before;
  }
  return t;
}

/** A bracket whose words all describe the release: `[BD]`, `[1080p]`, `[Dual Audio]`. */
function isTagBracket(content: string): boolean {
  return content.trim() === '' || onlyJunk(content);
}

/**
 * Cuts a raw title at an "AKA" alternative title and at the first bracket of release words after
 * some text. A bracket of other words stays, and makes the title implausible: `Title [Madre]` may
 * be a title or a translation, and is not guessed.
 */
function cutAlternatives(raw: string): string {
  let t = raw;
  if (t.includes('-')) {
    // "IMAX - Journey to the South Pacific": a release word before a dash is no part of the title.
    const lead = /^\s*([\p{L}\p{N}]+)[\s._]+-[\s._]+/u.exec(t);
    if (lead && isJunkToken(lead[1]!.toLowerCase())) t = t.slice(lead[0].length);
  }
  // "Scrubs - Episode 2 [S1 - Ep 002]": the episode said twice.
  const trimmed = trimEnd(t, WORD_SEPARATORS);
  if (isDigitCode(trimmed.charCodeAt(trimmed.length - 1))) t = t.replace(/[\s._-]+(?:episode|ep)[\s._]*\d{1,4}[\s._-]*$/i, '');
  const aka = /a\.?k\.?a/i.test(t) ? /[\s._]a\.?k\.?a[\s._]/i.exec(t) : null;
  if (aka && aka.index > 0) t = t.slice(0, aka.index);
  const bracket = t.includes('[') || t.includes('【') ? /[[【]([^\]】]*)[\]】]?/.exec(t) : null;
  if (bracket && bracket.index > 0 && /[\p{L}\p{N}]/u.test(t.slice(0, bracket.index)) && isTagBracket(bracket[1]!)) {
    t = t.slice(0, bracket.index);
  }
  // "抓娃娃 Successor": a title in another script before the Latin one is a translation of it.
  const nonAscii = RE_NON_ASCII.test(t);
  const translated = !nonAscii
    ? null
    : /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\s！!：:·]+[\s._]+(?=\p{Script=Latin})/u.exec(t);
  if (translated) t = t.slice(translated[0].length);
  else if (nonAscii && RE_OTHER_SCRIPT.test(t)) t = originalTitle(t);
  return t.includes('*') ? t.replace(/\*+/g, ' ') : t;
}

const RE_OTHER_SCRIPT = /[\p{Script=Cyrillic}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const RE_LATIN = /\p{Script=Latin}/u;

/**
 * "Черное зеркало / Black Mirror", "Разрушители легенд. MythBusters.", "间谍过家家 / Spy Family":
 * Russian trackers and Chinese fansubs put the translated title before the original one. When the
 * parts are each in one script and one alone is Latin, it is the original title; two Latin parts
 * ("Discovery. Парни с Юкона / Yukon Men") could each be it, and the title is left as it is (and
 * refused for its mixed scripts). A translated part with numbers may say more than a title
 * ("Сезон 1"): then nothing is dropped.
 */
function originalTitle(t: string): string {
  const slashed = t.split(/\s+\/\s+/);
  const parts = (slashed.length > 1 ? slashed : t.split(/\.\s+/)).map((p) => trimEnd(p.trim(), TRAILING_SEPARATORS_AND_DOTS + '/')).filter((p) => p !== '');
  if (parts.length < 2) return t;
  let latin: string | null = null;
  for (const p of parts) {
    const translated = RE_OTHER_SCRIPT.test(p);
    if (translated === RE_LATIN.test(p) || (translated && /\d/.test(p))) return t;
    if (!translated) {
      if (latin !== null) return t;
      latin = p;
    }
  }
  return latin ?? t;
}

function finish(raw: string): string {
  let t = trimEnd(trimStart(raw, LEADING_SEPARATORS), TRAILING_SEPARATORS);
  if (t === '') return '';
  if (!t.includes(' ')) {
    t = dotsToSpaces(t);
  } else {
    t = t.replace(/\s{2,}/g, ' ');
    // "The Walking Dead.": a dot glued to a spaced title was a separator, unless it ends an
    // abbreviation or an acronym ("Monsters, Inc.", "S.W.A.T.").
    if (t.endsWith('.') && !/(?:^|[\s.])\p{L}\.$/u.test(t) && !/\b(?:inc|vol|jr|sr|st|dr|mr|mrs|ms|co|ltd|no)\.$/i.test(t)) {
      t = t.replace(/\.+$/, '');
    }
  }
  return trimEnd(t, ' \t-').trim();
}

const TRAILING_YEAR = /^(.*?[^\s._(-])[\s._-]*[([]?((?:19|20)\d{2})[)\]]?$/;
const TRAILING_COUNTRY = /^(.*?[^\s._(-])(?:[\s._]+-)?[\s._]*(?:\(([A-Za-z]{2})\)|\b([A-Z]{2}))$/;

// "Cyborg 009 (1968) [TSHS] episode 06": a bracketed year ends the series title; brackets after it
// are the group's or the release's, whatever they say.
const RE_TAGS_AFTER_YEAR = /([([](?:19|20)\d{2}[)\]])(?:[\s._-]*\[[^\]]*\])+[\s._-]*$/;

/**
 * A series title from the text before an episode marker: the year and country code at its end are
 * split off (`Doctor.Who.2005` → Doctor Who, 2005; `The.Office.US` → The Office, US).
 */
export function seriesTitle(raw: string): Title {
  const tagged = trimEnd(raw, WORD_SEPARATORS).endsWith(']') ? raw.replace(RE_TAGS_AFTER_YEAR, '$1') : raw;
  let t = trimEnd(stripTrailingTags(cutAlternatives(tagged), false, false), TRAILING_SEPARATORS_AND_DOTS);
  let year: number | null = null;
  let country: string | null = null;
  for (let i = 0; i < 2; i++) {
    const lastCode = t.charCodeAt(t.length - 1);
    const y: RegExpExecArray | null = year === null && (isDigitCode(lastCode) || lastCode === 41 || lastCode === 93) ? TRAILING_YEAR.exec(t) : null;
    if (y && isYear(Number(y[2])) && finish(y[1]!) !== '') {
      year = Number(y[2]);
      t = y[1]!;
      continue;
    }
    const c: RegExpExecArray | null = country === null && (lastCode === 41 || isUpperCode(lastCode)) ? TRAILING_COUNTRY.exec(t) : null;
    const code: string | null = c ? (c[2] ?? c[3]!).toUpperCase() : null;
    // In a name all in capitals a bare code is as likely a word (`THIS.IS.US`): it stays in the title.
    if (c && code !== null && SERIES_COUNTRIES.has(code) && finish(c[1]!) !== '' && (c[2] !== undefined || /\p{Ll}/u.test(c[1]!))) {
      country = code;
      t = c[1]!;
      continue;
    }
    break;
  }
  // What the year or country stood after may be release words too ("Show.German.2019").
  return { title: finish(year === null && country === null ? t : stripTrailingTags(t, false, false)), year, country };
}

/**
 * A movie title from the text before its year, and the release words taken off its end (where an
 * edition may hide). `clean`: the year was in brackets, as in `Title (Year)` names.
 */
export function movieTitle(raw: string, clean = false): { title: string; tail: string } {
  const cut = cutAlternatives(raw);
  const kept = stripTrailingTags(cut, clean);
  return { title: finish(kept), tail: cut.slice(kept.length) };
}

/** The text before the first release word: where a name without a marker keeps its title. */
export function titleBeforeJunk(s: string): string {
  const junk = firstJunk(s);
  return junk > 0 ? s.slice(0, junk) : junk === 0 ? '' : s;
}

/**
 * Whether a cleaned title could name a movie or series. Left-overs of a name the forms did not
 * understand (brackets, quotes, only release words or an article) cannot.
 */
export function isPlausibleTitle(title: string): boolean {
  if (title === '' || title.length > 150) return false;
  if (!/[\p{L}\p{N}]/u.test(title)) return false;
  if (/[[\]{}"|<>★【】/\\]/.test(title)) return false;
  // "165.Naruto Shippuuden": a number glued to a spaced title is a count, not part of the name.
  if (title.includes(' ') && /(?:^|\s)\d+\.\p{L}/u.test(title)) return false;
  if (/^\d{2,4}-\d{2,4}[\s.]/.test(title)) return false;
  // "О мышах и людях (Of Mice and Men)": two titles in two scripts, and no telling which one is wanted.
  if (RE_NON_ASCII.test(title) && /\p{Script=Cyrillic}/u.test(title) && /\p{Script=Latin}/u.test(title)) return false;
  if (isArticleOnly(title)) return false;
  return !onlyReleaseWords(title.toLowerCase());
}

/** Every word of a lower-cased title is a sure release word ("1080p BluRay"). */
function onlyReleaseWords(lower: string): boolean {
  let start = 0;
  for (let i = 0; i <= lower.length; i++) {
    const c = lower[i];
    if (i < lower.length && c !== ' ' && c !== '.') continue;
    if (i > start && !isStrongJunkToken(lower.slice(start, i))) return false;
    start = i + 1;
  }
  return true;
}
