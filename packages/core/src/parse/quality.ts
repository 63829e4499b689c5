// The quality a release name states: resolution, source, codec, PROPER / REPACK and the release
// group (CONTRACT.md, "Upgrades and the recycle bin"), and how two qualities rank.
//
// Read token by token, left to right, with no expression over the whole name: the work is linear in
// the name's length, whatever the name holds. A word that is also a title word (`Web` in
// "Charlotte's Web", a `-Man` after `Spider`) counts only where a release name puts it, and what
// is not sure is left unknown: an upgrade decided on a misread quality would replace a good file.
import { SUBTITLE_EXTENSIONS, VIDEO_EXTENSIONS } from '@mo/shared';
import { isJunkToken } from './vocabulary.ts';

export type Resolution = 2160 | 1080 | 720 | 576 | 480;
export type Source = 'remux' | 'bluray' | 'web-dl' | 'webrip' | 'hdtv' | 'dvd' | 'sdtv';
export type Codec = 'x265' | 'x264' | 'av1' | 'xvid';

export interface Quality {
  resolution: Resolution | null;
  source: Source | null;
  codec: Codec | null;
  /** PROPER, REAL.PROPER: a fix of another group's release. */
  proper: boolean;
  /** REPACK, REPACK2, RERIP: the group's own fix of its release. */
  repack: boolean;
  /** The release group: the `-GROUP` ending a scene name, or the leading `[Group]` of a fansub name. */
  group: string | null;
}

export const UNKNOWN_QUALITY: Quality = Object.freeze({ resolution: null, source: null, codec: null, proper: false, repack: false, group: null });

/** Best first: the contract's ranking of sources. */
export const SOURCE_RANK: readonly Source[] = ['remux', 'bluray', 'web-dl', 'webrip', 'hdtv', 'dvd', 'sdtv'];

const EXTENSIONS: ReadonlySet<string> = new Set([...VIDEO_EXTENSIONS, ...SUBTITLE_EXTENSIONS, '.nfo'].map((e) => e.slice(1)));

const RESOLUTIONS: Record<string, Resolution> = {
  '2160p': 2160,
  '4k': 2160,
  '1080p': 1080,
  '1080i': 1080,
  '720p': 720,
  '576p': 576,
  '576i': 576,
  '480p': 480,
  '480i': 480,
};

// One word that names a source; pairs (`WEB-DL`, `Blu-Ray`, `DVD.Rip`) are read in `pairSource`.
const SOURCES: Record<string, Source> = {
  remux: 'remux',
  bdremux: 'remux',
  bluray: 'bluray',
  bdrip: 'bluray',
  brrip: 'bluray',
  bd25: 'bluray',
  bd50: 'bluray',
  bdmv: 'bluray',
  webdl: 'web-dl',
  webrip: 'webrip',
  webdlrip: 'webrip',
  hdtv: 'hdtv',
  hdtvrip: 'hdtv',
  dvdrip: 'dvd',
  dvd: 'dvd',
  dvdr: 'dvd',
  dvd5: 'dvd',
  dvd9: 'dvd',
  sdtv: 'sdtv',
  pdtv: 'sdtv',
  tvrip: 'sdtv',
  dsr: 'sdtv',
  dsrip: 'sdtv',
  satrip: 'sdtv',
  dvbrip: 'sdtv',
};

const CODECS: Record<string, Codec> = {
  x265: 'x265',
  h265: 'x265',
  hevc: 'x265',
  x264: 'x264',
  h264: 'x264',
  avc: 'x264',
  av1: 'av1',
  xvid: 'xvid',
  divx: 'xvid',
};

// Streaming services and other words a bare `WEB` follows in release names (`AMZN.WEB`, `1080p.WEB`).
const BEFORE_WEB = new Set([
  'amzn',
  'nf',
  'dsnp',
  'hmax',
  'max',
  'atvp',
  'pcok',
  'pmtp',
  'hulu',
  'crav',
  'stan',
  'it',
  'cr',
  'uhd',
  'hdr',
  'hdr10',
  'dv',
  'proper',
  'repack',
  'internal',
  'multi',
]);

// Words posting tools append after a group (`-NTb-Rakuv`, `-GRP-postbot`): no group of their own.
const AFTER_GROUP = /^(?:rakuv\d*|postbot|xpost|obfuscated|scrambled|sample|rp|asrequested|alternativetorequested|buymore|4p|4planet)$/;
// Groups that are also words the title reader ends a title at.
const SITE_GROUPS = new Set(['yify', 'yts', 'rarbg', 'eztv', 'ettv']);

const PAIR_SOURCES: Record<string, Source> = Object.assign(Object.create(null) as Record<string, Source>, {
  'web dl': 'web-dl',
  'web rip': 'webrip',
  'web dlrip': 'webrip',
  'blu ray': 'bluray',
  'bd remux': 'remux',
  'bd rip': 'bluray',
  'dvd rip': 'dvd',
  'hdtv rip': 'hdtv',
  'tv rip': 'sdtv',
});

const PAIR_CODECS: Record<string, Codec> = Object.assign(Object.create(null) as Record<string, Codec>, {
  'h 264': 'x264',
  'x 264': 'x264',
  'h 265': 'x265',
  'x 265': 'x265',
});

interface Token {
  lower: string;
  start: number;
  end: number;
}

const isAsciiAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** Runs of ASCII letters and digits: release words are ASCII; anything else separates. */
function tokensOf(s: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < s.length) {
    if (!isAsciiAlnum(s.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < s.length && isAsciiAlnum(s.charCodeAt(i))) i++;
    out.push({ lower: s.slice(start, i).toLowerCase(), start, end: i });
  }
  return out;
}

/** The last path segment without a video or sidecar extension. */
function fileName(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 && EXTENSIONS.has(base.slice(dot + 1).toLowerCase()) ? base.slice(0, dot) : base;
}

const isYear = (t: string) => t.length === 4 && (t.startsWith('19') || t.startsWith('20')) && /^\d{4}$/.test(t);
const isEpisodeMarker = (t: string) => t.length <= 20 && /^s\d{1,2}(?:e\d{1,4})*$/.test(t);

/** `2160p`, `1080i`, `4k`, or a frame size (`1280x720`, `848x480`, `1920x800`) by its class. */
function resolutionOf(t: string): Resolution | null {
  if (Object.hasOwn(RESOLUTIONS, t)) return RESOLUTIONS[t]!;
  const x = t.indexOf('x');
  if (x < 3 || x > 4 || t.length < x + 4 || t.length > x + 6) return null;
  const w = t.slice(0, x);
  const h = t.endsWith('p') ? t.slice(x + 1, -1) : t.slice(x + 1);
  if (!/^\d{3,4}$/.test(w) || !/^\d{3,4}$/.test(h)) return null;
  return qualityFromHeight(Number(h), Number(w));
}

/** Whether the separator between two tokens joins them as one word (`WEB-DL`, `H.264`, `Blu Ray`). */
function adjacent(s: string, a: Token, b: Token): boolean {
  return b.start - a.end === 1 && '.-_ '.includes(s[a.end]!);
}

/**
 * A bare `WEB` names the source (web-dl, as Sonarr reads it) only after what stands before the
 * source in a release name: a resolution, a service, an episode marker or a year.
 */
function webAlone(tokens: readonly Token[], i: number): boolean {
  const prev = tokens[i - 1]?.lower;
  if (prev === undefined) return false;
  return resolutionOf(prev) !== null || BEFORE_WEB.has(prev) || isEpisodeMarker(prev) || isYear(prev);
}

interface Reading {
  resolution: Resolution | null;
  source: Source | null;
  codec: Codec | null;
  proper: boolean;
  repack: boolean;
  /** Where the last word read as quality ends, or -1: the group stands after it. */
  lastEnd: number;
}

function readTokens(s: string, tokens: readonly Token[]): Reading {
  const r: Reading = { resolution: null, source: null, codec: null, proper: false, repack: false, lastEnd: -1 };
  let uhd = false;
  let webBare = false;
  const seen = (t: Token) => (r.lastEnd = Math.max(r.lastEnd, t.end));
  let remux = false;
  const setSource = (src: Source, t: Token) => {
    if (src === 'remux') remux = true;
    else r.source ??= src;
    seen(t);
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    const joined = next !== undefined && adjacent(s, t, next);
    const w = t.lower;
    // No quality word opens a name: that is the title's first word.
    const res = resolutionOf(w);
    if (i === 0 && tokens.length > 1 && res === null) continue;
    if (res !== null) {
      r.resolution ??= res;
      seen(t);
      continue;
    }
    if (Object.hasOwn(SOURCES, w)) {
      setSource(SOURCES[w]!, t);
      continue;
    }
    if (Object.hasOwn(CODECS, w)) {
      r.codec ??= CODECS[w]!;
      seen(t);
      continue;
    }
    if (joined) {
      const pair = `${w} ${next.lower}`;
      const src = PAIR_SOURCES[pair];
      if (src !== undefined) {
        setSource(src, next);
        i++;
        continue;
      }
      const codec = PAIR_CODECS[pair];
      if (codec !== undefined) {
        r.codec ??= codec;
        seen(next);
        i++;
        continue;
      }
    }
    if (w === 'web' && webAlone(tokens, i)) {
      webBare = true;
      seen(t);
    } else if (w === 'uhd') {
      uhd = true;
      seen(t);
    } else if (/^proper\d?$/.test(w)) {
      r.proper = true;
      seen(t);
    } else if (/^(?:repack\d?|rerip)$/.test(w)) {
      r.repack = true;
      seen(t);
    }
  }
  if (r.resolution === null && uhd) r.resolution = 2160;
  if (r.source === null && webBare) r.source = 'web-dl';
  // A remux is of a disc: it says more than the BluRay beside it, and nothing of a WEB-DL's source.
  if (remux && (r.source === null || r.source === 'bluray')) r.source = 'remux';
  return r;
}

// Subtitle flags releases end on (`- ESub`, `-NapisyPL`, `-STFR`), checksums (`-_E83AD672`) and episode versions (`- 01v2`).
const NOT_GROUP = /^(?:e?subs?|msubs?|napisy(?:pl)?|stfr|hc|\d+(?:v\d+)?|(?=[0-9a-f]*\d)[0-9a-f]{8})$/;

/** A word a group cannot be: a release word (`DL` of `WEB-DL`, `x264`, a language), a number, a letter. */
function groupWord(lower: string): boolean {
  if (SITE_GROUPS.has(lower)) return true;
  if (lower.length < 2 || lower.length > 30 || NOT_GROUP.test(lower)) return false;
  return !isJunkToken(lower) && resolutionOf(lower) === null && !EXTENSIONS.has(lower);
}

/** `…x264-GROUP` (`[rarbg]`-style tags after it dropped), after every word read as quality. */
function sceneGroup(s: string, lastEnd: number): string | null {
  let end = s.length;
  // Site tags after the group: `-NTb[rarbg]`, `-EVO[TGx]`, `-GRP (1)`.
  for (let k = 0; k < 3; k++) {
    while (end > 0 && s[end - 1] === ' ') end--;
    const close = s[end - 1];
    if (close !== ']' && close !== ')') break;
    const open = s.lastIndexOf(close === ']' ? '[' : '(', end - 1);
    if (open <= lastEnd) break;
    end = open;
  }
  for (let k = 0; k < 2; k++) {
    const dash = s.lastIndexOf('-', end - 1);
    if (dash < lastEnd || dash < 0) return null;
    // `_-_THORA`: underscores stand for spaces around the dash.
    const word = trimUnderscores(s.slice(dash + 1, end).trim());
    if (!/^[A-Za-z0-9@_]+$/.test(word)) return null;
    if (AFTER_GROUP.test(word.toLowerCase())) {
      end = dash;
      continue;
    }
    if (!groupWord(word.toLowerCase())) return null;
    return withHead(s.slice(Math.max(lastEnd, 0), dash), word);
  }
  return null;
}

function trimUnderscores(word: string): string {
  let a = 0;
  let b = word.length;
  while (a < b && word[a] === '_') a++;
  while (b > a && word[b - 1] === '_') b--;
  return word.slice(a, b);
}

// `[www.site.com]`, `[ Torrent911.my ]`: the site that posted the file, not a group.
const SITE = /\.(?:com|org|net|to|me|my|io|cc|tv|info|xyz|ru|fr|se|nz|ws|li|phd)$/i;

/**
 * Groups with a dash in their name: `x264-Exiled-Destiny` (one word between the last quality word
 * and the group's), `x264.D-Z0N3` (one letter), `)-Erai-raws`.
 */
function withHead(between: string, word: string): string {
  const dashed = between.startsWith('-') ? between.slice(1) : null;
  if (dashed !== null && /^[A-Za-z0-9]{1,20}$/.test(dashed) && /[A-Za-z]/.test(dashed) && !isJunkToken(dashed.toLowerCase())) return `${dashed}-${word}`;
  const cut = Math.max(between.lastIndexOf('.'), between.lastIndexOf(' '), between.lastIndexOf('-'), between.lastIndexOf('_'), between.lastIndexOf(')'));
  const head = between.slice(cut + 1);
  if (/^[A-Za-z]$/.test(head)) return `${head}-${word}`;
  if (word.toLowerCase() === 'raws' && /^[A-Za-z0-9]{2,20}$/.test(head)) return `${head}-${word}`;
  return word;
}

/** The leading `[Group]` of a fansub name (`[SubsPlease] Show - 01 (1080p)`), a blank or `_` after it. */
function bracketGroup(s: string): string | null {
  if (!s.startsWith('[')) return null;
  const close = s.indexOf(']');
  if (close < 2 || close > 40 || (s[close + 1] !== ' ' && s[close + 1] !== '_')) return null;
  const inner = s.slice(1, close).trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9 ._&!-]*$/.test(inner) || !/[A-Za-z]/.test(inner) || SITE.test(inner) || /^www\./i.test(inner)) return null;
  const words = tokensOf(inner);
  if (words.some((w) => resolutionOf(w.lower) !== null || isJunkToken(w.lower) || isYear(w.lower))) return null;
  return inner;
}

/** The quality of one segment (a file name without extension, or a folder name). */
function segmentQuality(s: string): Quality {
  const tokens = tokensOf(s);
  const r = readTokens(s, tokens);
  const anything = r.resolution !== null || r.source !== null || r.codec !== null || r.proper || r.repack;
  const group = anything ? sceneGroup(s, r.lastEnd) : null;
  return {
    resolution: r.resolution,
    source: r.source,
    codec: r.codec,
    proper: r.proper,
    repack: r.repack,
    group: group ?? (anything ? bracketGroup(s) : null),
  };
}

const known = (q: Quality) => q.resolution !== null || q.source !== null || q.codec !== null;

/**
 * The quality a file name or path states. Where the file name says nothing of it (an obfuscated
 * `abc123.mkv` in `Heat.1995.1080p.BluRay-GRP/`), its nearest folder that does is read instead.
 */
export function parseQuality(name: string): Quality {
  const file = segmentQuality(fileName(name));
  if (known(file)) return file;
  const parts = name.split(/[\\/]/);
  parts.pop();
  for (let i = parts.length - 1; i >= 0 && i >= parts.length - 3; i--) {
    const folder = segmentQuality(parts[i]!);
    if (known(folder)) return folder;
  }
  return file;
}

/**
 * How `a` ranks against `b`: 1 better, -1 worse, 0 the same; null when either lacks what the
 * ranking needs (its resolution or its source), which is never an upgrade. Resolution first, then
 * the source, then a PROPER or REPACK of the same quality above the release it fixes.
 */
export function compareQuality(a: Quality, b: Quality): -1 | 0 | 1 | null {
  if (a.resolution === null || b.resolution === null || a.source === null || b.source === null) return null;
  if (a.resolution !== b.resolution) return a.resolution > b.resolution ? 1 : -1;
  const sa = SOURCE_RANK.indexOf(a.source);
  const sb = SOURCE_RANK.indexOf(b.source);
  if (sa !== sb) return sa < sb ? 1 : -1;
  const fa = a.proper || a.repack ? 1 : 0;
  const fb = b.proper || b.repack ? 1 : 0;
  return fa === fb ? 0 : fa > fb ? 1 : -1;
}

/**
 * The resolution class of a probed picture. With its width, as Radarr buckets it: the larger of
 * what the width and the height say, so that a scope film (1920×800, 3840×1600, 1280×536) keeps the
 * class of its width and a 4:3 1280×960 is 720. With the height alone, 800 and up is 1080 and 1600
 * and up 2160, for those scope films.
 */
export function qualityFromHeight(height: number | null, width: number | null = null): Resolution | null {
  const h = height !== null && Number.isFinite(height) && height > 0 ? height : 0;
  const w = width !== null && Number.isFinite(width) && width > 0 ? width : 0;
  if (h === 0) return null;
  if (w > 0) {
    if (w >= 3200 || h >= 2100) return 2160;
    if (w >= 1800 || h >= 1000) return 1080;
    if (w >= 1200 || h >= 650) return 720;
    return h >= 540 ? 576 : 480;
  }
  if (h >= 1600) return 2160;
  if (h >= 800) return 1080;
  if (h >= 600) return 720;
  return h >= 540 ? 576 : 480;
}
