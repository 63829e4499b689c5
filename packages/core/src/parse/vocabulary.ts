// The words of release names that are not titles: quality, source, codec, audio, release flags,
// streaming services, languages and editions. A title ends where the first of them begins.
import { isMultiLanguageWord, releaseLanguage } from '../languages/languages.ts';

const words = (list: string): Set<string> => new Set(list.trim().split(/\s+/));

/** Tokens that only ever describe the release, wherever they stand. */
const RELEASE_TOKENS = words(`
  uhd bluray blu-ray bdrip brrip bdremux remux bd25 bd50 bdmv web-dl webdl webrip web-rip hdtv hdtvrip
  pdtv sdtv dsr dsrip dvdrip dvdr dvdscr dvd5 dvd9 hdrip hdcam camrip telesync hdts hdtc vhsrip tvrip
  satrip dvbrip ppvrip x264 x265 h264 h265 hevc xvid divx av1 vc1 mpeg2 10bit 8bit 10-bit hi10 hi10p
  hdr hdr10 hdr10+ hdr10plus dovi sdr dts dts-hd dtshd dts-x dts-ma dtsma truehd atmos ac3 eac3 e-ac3
  e-ac-3 dd5.1 ddp ddp5.1 ddp2.0 dd2.0 dd+ aac aac2.0 aac5.1 lpcm 2ch 6ch 8ch
  proper repack rerip readnfo nfofix dirfix syncfix subfix dubbed subbed hardsub hardsubs fastsub
  multisub multisubs multi-subs dual-audio dualaudio vostfr subfrench amzn dsnp hmax atvp pcok pmtp
  crav hulu netflix yify yts rarbg hsbs h-sbs hou 1080p 720p 480p 576p 2160p 1080i 4320p 360p 240p 540p 1440p
  ntsc dvdrip-x264 x264-hd bdrip-x264 web-dlrip webdlrip hdtvrip-x264 dvd-r screener`);

/**
 * Tokens that are also ordinary words (IT, NF, WEB, CAM, LINE, REAL…): they end a title only beside
 * another release token, checked by `firstJunk`.
 */
const AMBIGUOUS_TOKENS = words(`
  it cr nf stan web avc hd sd dv ma ts tc cam scr r5 line real complete limited dual multi pal retail
  md mic ld ws fs 3d dd internal festival docu mp3 flac opus sub subs dub cw bbc hbo dl ac3d uncensored
  fhd hq lq tv bd dvd ova oad anime ep audio custom completa completo complète komplett integrale intégrale`);

const RESOLUTION = /^(?:\d{3,4}[pi]|[48]k|hd\d{3,4}|\d{3,4}[x*×]\d{3,4}[pi]?)$/;

/** Release words about languages that name none the languages module knows: original version, subtitled, Chinese scripts. */
const OTHER_LANGUAGE_WORDS = words('vo vost vostit vosi chs cht big5 ita-eng eng-ita');

/** Edition words: part of a release, unless a title needs them ("Bigger, Longer and Uncut"). */
const EDITION_TOKENS = words(`
  extended unrated uncut remastered remaster imax theatrical criterion redux special edition
  directors director's directorscut dc collectors collector's anniversary ultimate final cut version
  open matte openmatte despecialized restored restoration colorized international custom`);

export function isReleaseToken(lower: string): boolean {
  return RELEASE_TOKENS.has(lower) || RESOLUTION.test(lower);
}

/** A picture height release names write, without its `p` (`720`, `1080`). */
export function isHeight(digits: string): boolean {
  return RELEASE_TOKENS.has(`${digits}p`);
}

export function isAmbiguousToken(lower: string): boolean {
  return AMBIGUOUS_TOKENS.has(lower) || isLanguageToken(lower);
}

const LANGUAGE_WORDS = new Map<string, boolean>();

/** A word a release name uses for a language: `GERMAN`, `iTA`, `VOSTFR`, `MULTi`, `Latino`. */
export function isLanguageToken(lower: string): boolean {
  let known = LANGUAGE_WORDS.get(lower);
  if (known === undefined) {
    known = releaseLanguage(lower) !== null || isMultiLanguageWord(lower) || OTHER_LANGUAGE_WORDS.has(lower);
    if (LANGUAGE_WORDS.size >= MAX_KINDS) LANGUAGE_WORDS.clear();
    LANGUAGE_WORDS.set(lower, known);
  }
  return known;
}

export function isEditionToken(lower: string): boolean {
  return EDITION_TOKENS.has(lower);
}

/** Any word that describes the release rather than naming the media. */
export function isJunkToken(lower: string): boolean {
  return cachedKind(lower) !== null;
}

/** A word that only ever describes the release (`x264`, `1080p`), never a title. */
export function isStrongJunkToken(lower: string): boolean {
  return cachedKind(lower) === 'strong';
}

export interface Token {
  /** The token in lower case. */
  lower: string;
  start: number;
  end: number;
  /** Its release-word kind, once asked (`undefined` until then). */
  kind?: JunkKind;
}

const ALNUM = /[\p{L}\p{N}]/u;

function isAlnum(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122);
  return i < s.length && ALNUM.test(s[i]!);
}

function isDigit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/**
 * Whether the punctuation at `i` joins two parts of one token: `WEB-DL`, `Ocean's`, `DD5.1` (a dot
 * between a number of one or two digits and another), `H.264` (a dot after a lone h or x before 26).
 */
function joins(s: string, i: number, start: number): boolean {
  const c = s[i];
  if (!isAlnum(s, i + 1)) return false;
  if (c === '-' || c === "'" || c === '’') return true;
  if (c !== '.') return false;
  const h = s.charCodeAt(i - 1) | 32; // h or x, either case
  if ((h === 104 || h === 120) && i - 1 === start && s.startsWith('26', i + 1)) return true;
  let digitsBefore = 0;
  while (digitsBefore < 3 && isDigit(s, i - 1 - digitsBefore)) digitsBefore++;
  let digitsAfter = 0;
  while (digitsAfter < 3 && isDigit(s, i + 1 + digitsAfter)) digitsAfter++;
  const before = digitsBefore >= 1 && digitsBefore <= 2 && !isDigit(s, i - 1 - digitsBefore);
  return before && digitsAfter >= 1 && digitsAfter <= 2;
}

// The forms read one segment several times over: the last segment's tokens and release-word
// offsets are kept.
let lastText = '';
let lastTokens: Token[] = [];
// Keyed by `from * 2 + strongOnly`; cleared only when it holds something (a clear allocates).
const lastJunk = new Map<number, number>();

export function tokenize(s: string): Token[] {
  if (s === lastText) return lastTokens;
  lastText = s;
  if (lastJunk.size > 0) lastJunk.clear();
  lastTokens = tokenizeAll(s);
  return lastTokens;
}

/**
 * Where the run of letters and digits from `i` ends. The loop that runs over every character of a
 * name, written out: through `isAlnum` it cost V8 a call per character.
 */
function runEnd(s: string, i: number): number {
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c < 128) {
      const l = c | 32;
      if (!((c >= 48 && c <= 57) || (l >= 97 && l <= 122))) return i;
    } else if (!ALNUM.test(s[i]!)) return i;
    i++;
  }
  return i;
}

// Word runs: letters and digits with the inner punctuation release tokens use (`WEB-DL`, `H.264`,
// `DD5.1`, and a trailing + in `HDR10+`). Other dots end a token, so `Show.Name` and `2005.720p` are
// two each. Written out by hand: this runs for every name, several tokens each.
function tokenizeAll(s: string): Token[] {
  const out: Token[] = [];
  // Lower-cased once; a character whose lower case is longer (`İ`) would shift the offsets.
  const lower = s.toLowerCase();
  const aligned = lower.length === s.length;
  const n = s.length;
  let i = 0;
  while (i < n) {
    if (!isAlnum(s, i)) {
      i++;
      continue;
    }
    const start = i;
    for (;;) {
      i = runEnd(s, i);
      if (i < n && joins(s, i, start)) i++;
      else break;
    }
    if (s.charCodeAt(i) === 43 /* + */) i++;
    out.push({ lower: aligned ? lower.slice(start, i) : s.slice(start, i).toLowerCase(), start, end: i, kind: undefined });
  }
  return out;
}

// Codec and audio tokens written with dots (`H.264`, `DD5.1`, `AAC2.0`, `DTS-HD.MA`) tokenize as
// one; these are their dotless forms.
function canonical(lower: string): string {
  return lower.replace(/\./g, '');
}

type JunkKind = 'strong' | 'weak' | null;

function kindOf(lower: string): JunkKind {
  const c = canonical(lower);
  if (isReleaseToken(lower) || isReleaseToken(c) || /^(?:h|x)26[45]$/.test(c) || /^(?:dd|ddp|aac|dts|eac3|ac3|flac|truehd|opus|lpcm)\d{2}$/.test(c)) {
    return 'strong';
  }
  if (isAmbiguousToken(lower) || isEditionToken(lower)) return 'weak';
  return null;
}

// Release words repeat from name to name (x264, 1080p, WEB-DL): their kinds are remembered, up to
// a bound so that a stream of unique words cannot grow the map.
const KINDS = new Map<string, JunkKind>();
const MAX_KINDS = 20_000;

function cachedKind(lower: string): JunkKind {
  let k = KINDS.get(lower);
  if (k === undefined) {
    k = kindOf(lower);
    if (KINDS.size >= MAX_KINDS) KINDS.clear();
    KINDS.set(lower, k);
  }
  return k;
}

function junkAt(tokens: readonly Token[], i: number): JunkKind {
  const t = tokens[i]!;
  if (t.kind !== undefined) return t.kind;
  // `x264-GROUP`, `H.264-NTb`: the release group glued to the last release word.
  const dash = t.lower.indexOf('-');
  t.kind = dash > 0 && i === tokens.length - 1 && cachedKind(t.lower.slice(0, dash)) === 'strong' ? 'strong' : cachedKind(t.lower);
  return t.kind;
}

/**
 * Offset of the first token that is surely not part of a title, or -1: a release token, or an
 * ambiguous one (`WEB`, `German`, `Extended`) followed within two tokens by another release word,
 * or ending the name ("Show Name 09 HD"). Tokens before `from` are not looked at. `strongOnly`: only
 * release tokens count ("Title (TV) - 02 [720p]" and "Title HD REMASTER - 07" keep their words).
 */
export function firstJunk(s: string, from = 0, strongOnly = false): number {
  const tokens = tokenize(s);
  const key = from * 2 + (strongOnly ? 1 : 0);
  const known = lastJunk.get(key);
  if (known !== undefined) return known;
  const found = scanJunk(tokens, from, strongOnly);
  lastJunk.set(key, found);
  return found;
}

function scanJunk(tokens: readonly Token[], from: number, strongOnly: boolean): number {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.start < from) continue;
    const kind = junkAt(tokens, i);
    if (kind === 'strong') return t.start;
    if (kind === 'weak' && !strongOnly) {
      for (let j = i + 1; j <= i + 2 && j < tokens.length; j++) {
        if (junkAt(tokens, j) !== null) return t.start;
      }
      if (i === tokens.length - 1 && i > 0) return t.start;
    }
  }
  return -1;
}

/** True when every token of `s` describes the release: nothing in it could be a title. */
export function onlyJunk(s: string): boolean {
  const tokens = tokenize(s);
  return tokens.length > 0 && tokens.every((_, i) => junkAt(tokens, i) !== null);
}

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  janvier: 1,
  januar: 1,
  enero: 1,
  gennaio: 1,
  feb: 2,
  february: 2,
  fevrier: 2,
  février: 2,
  februar: 2,
  febrero: 2,
  febbraio: 2,
  mar: 3,
  march: 3,
  mars: 3,
  märz: 3,
  maerz: 3,
  marzo: 3,
  apr: 4,
  april: 4,
  avril: 4,
  abril: 4,
  aprile: 4,
  may: 5,
  mai: 5,
  mayo: 5,
  maggio: 5,
  jun: 6,
  june: 6,
  juin: 6,
  juni: 6,
  junio: 6,
  giugno: 6,
  jul: 7,
  july: 7,
  juillet: 7,
  juli: 7,
  julio: 7,
  luglio: 7,
  aug: 8,
  august: 8,
  aout: 8,
  août: 8,
  agosto: 8,
  sep: 9,
  sept: 9,
  september: 9,
  septembre: 9,
  septiembre: 9,
  settembre: 9,
  oct: 10,
  october: 10,
  octobre: 10,
  oktober: 10,
  octubre: 10,
  ottobre: 10,
  nov: 11,
  november: 11,
  novembre: 11,
  noviembre: 11,
  dec: 12,
  december: 12,
  decembre: 12,
  décembre: 12,
  dezember: 12,
  diciembre: 12,
  dicembre: 12,
};

export const MONTH_PREFIXES = [...new Set(Object.keys(MONTHS).map((m) => m.slice(0, 3)))];

export function monthOf(word: string): number | null {
  const m = MONTHS[word.toLowerCase()];
  return m === undefined || !Object.hasOwn(MONTHS, word.toLowerCase()) ? null : m;
}
