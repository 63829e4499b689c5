// Release-name parsing shared by the library index and the scanner.
//
// `parseReleaseName` turns a file name or a relative path (scene / P2P release names, Plex / Kodi /
// Sonarr / Radarr library names, anime fansub names, daily shows) into a small structured record.
// It is a pure function: no I/O, no global state beyond compiled regular expressions.
//
// How it works, in short:
//  1. The path is split; the last segment loses a known video/subtitle extension (and, for
//     subtitles, trailing language/flag suffixes such as `.en.forced`).
//  2. Each segment is parsed on its own (`parseSegment`): first the episode markers in order of
//     reliability (S01E02 and its multi-episode forms, 1x02, "Season 1 Episode 2", daily dates,
//     anime absolute numbers, bare "Episode 5"), then season packs, then movies (title + year,
//     choosing the right year when titles contain numbers), then names without any of these.
//  3. Parent folders fill what the file name lacks: a `Season 2` folder, the series folder, the
//     release folder of an obfuscated file name, the `Title (Year)` folder of a movie.

export interface ParsedMedia {
  kind: 'movie' | 'episode';
  /** Cleaned title; for an episode the series title without a trailing year or country code. */
  title: string;
  /** Movie year; for an episode the series year when the name carries one. */
  year: number | null;
  /** Episodes only. */
  season: number | null;
  /** Episodes only; every episode of a multi-episode name; [] for daily shows and movies. */
  episodes: number[];
  /** 'YYYY-MM-DD' for daily shows. */
  air_date: string | null;
  /** Anime absolute episode numbers (no season known), else []. */
  absolute_episodes: number[];
  /** Movies: "Director's Cut", "Extended", "IMAX", … */
  edition: string | null;
  /** Episodes: the country code a series name carries to tell remakes apart (`The.Office.US` → `US`). */
  country: string | null;
}

type SegKind = 'movie' | 'episode' | 'season' | 'bare';

interface Seg {
  kind: SegKind;
  title: string;
  year: number | null;
  season: number | null;
  episodes: number[];
  airDate: string | null;
  absolute: number[];
  edition: string | null;
  /** Episode marker strength: 0 explicit (S01E02, 1x02, date, fansub absolute), 1 " - 05" without
   * a fansub group, 2 a bare "Episode 5" / "E05". Weak numbers become episodes of a known season. */
  weak: 0 | 1 | 2;
}

const MAX_YEAR = new Date().getUTCFullYear() + 1;
const MIN_YEAR = 1900;

// ---------------------------------------------------------------------------------------------
// Extensions

const VIDEO_EXTENSIONS = new Set([
  'mkv', 'mp4', 'm4v', 'avi', 'mov', 'ts', 'm2ts', 'mts', 'wmv', 'webm', 'mpg', 'mpeg', 'flv',
  'ogm', 'ogv', 'divx', 'xvid', 'vob', '3gp', 'rmvb', 'rm', 'asf', 'f4v', 'iso', 'strm',
]);
const SUBTITLE_EXTENSIONS = new Set(['srt', 'ass', 'ssa', 'vtt', 'sub', 'idx', 'sup', 'smi', 'ttml']);
// Language codes and flags that follow the base name of a sidecar subtitle (`Movie.en.forced.srt`).
const SUBTITLE_SUFFIXES = new Set([
  'en', 'eng', 'english', 'fr', 'fre', 'fra', 'french', 'de', 'ger', 'deu', 'german', 'es', 'spa',
  'spanish', 'it', 'ita', 'italian', 'pt', 'por', 'pt-br', 'ru', 'rus', 'ja', 'jpn', 'zh', 'chi',
  'zho', 'ko', 'kor', 'nl', 'dut', 'nld', 'sv', 'swe', 'no', 'nor', 'nb', 'da', 'dan', 'fi', 'fin',
  'pl', 'pol', 'tr', 'tur', 'ar', 'ara', 'he', 'heb', 'hi', 'hin', 'cs', 'cze', 'ces', 'el', 'gre',
  'ell', 'hu', 'hun', 'ro', 'ron', 'rum', 'en-us', 'en-gb', 'es-419', 'und', 'forced', 'sdh', 'cc',
  'default', 'full', 'foreign',
]);

function stripExtension(file: string): string {
  const dot = file.lastIndexOf('.');
  if (dot <= 0) return file;
  const ext = file.slice(dot + 1).toLowerCase();
  if (VIDEO_EXTENSIONS.has(ext)) return file.slice(0, dot);
  if (!SUBTITLE_EXTENSIONS.has(ext)) return file;
  let base = file.slice(0, dot);
  for (let i = 0; i < 3; i++) {
    const d = base.lastIndexOf('.');
    if (d <= 0 || !SUBTITLE_SUFFIXES.has(base.slice(d + 1).toLowerCase())) break;
    base = base.slice(0, d);
  }
  return base;
}

// ---------------------------------------------------------------------------------------------
// Regular expressions

// S01E02, S01 E02, S01.E02, s1e2, S01Ep02, S01 Episode 02
const RE_SXE = /(?<![a-z0-9])s(\d{1,4})[ ._-]*(?:e|ep|episode)[ ._-]?(\d{1,4})(?![0-9])/i;
// after S01E02: E03 / -E03 / .E03 / -S01E03 (list or range)
const RE_SXE_MORE = /([ ._]?-[ ._]?|[ ._]?)(?:s\d{1,4})?(?:e|ep)(\d{1,4})(?![0-9])/iy;
// after S01E02: -03 (range)
const RE_SXE_RANGE = /-(\d{1,4})(?![0-9a-z])/iy;
// 1x02, 01x02
const RE_NX = /(?<![a-z0-9])(\d{1,2})x(\d{2,3})(?![0-9])/i;
// after 1x02: -1x03, -03, x03
const RE_NX_MORE = /(?:[ ._]?-[ ._]?(?:\d{1,2}x)?|x)(\d{2,3})(?![0-9a-z])/iy;
// Season 1 Episode 2
const RE_SEASON_EPISODE =
  /(?<![a-z0-9])season[ ._-]*(\d{1,4})[ ._,-]*(?:episode|ep)[ ._-]*(\d{1,4})(?![0-9])/i;
// 2024.03.14, 2024-03-14, 2024 03 14
const RE_DAILY = /(?<![0-9a-z])((?:19|20)\d{2})([ ._-])(\d{2})\2(\d{2})(?![0-9])/;
// Anime absolute: " - 1071", " - 05v2", " - 01-02"
const RE_ABS_DASH = /\s-\s(\d{1,4})(?:v\d)?(?:-(\d{1,4})(?:v\d)?)?(?=$|[\s[(])/;
// Anime absolute without a dash (only after a fansub group): "[Grp] Title 05 [1080p]"
const RE_ABS_BARE = /\s(\d{1,4})(?:v\d)?\s*(?=[[(]|$)/;
// Season before an anime absolute-style number: "Spy x Family S2 - 01", "Title 2nd Season - 05"
const RE_ANIME_SEASON =
  /[ ._](?:s(\d{1,2})|season[ ._]?(\d{1,2})|(\d{1,2})(?:st|nd|rd|th)[ ._]season)$/i;
// "Episode 5", "Ep 05", "E05"
const RE_EP_ONLY = /(?<![a-z0-9])(?:episode|ep)[ ._-]?(\d{1,4})(?![0-9a-z])|(?<![a-z0-9])e(\d{1,4})(?![0-9a-z])/i;
// Season packs: "Show.S01.1080p", "Show Season 2"
const RE_SEASON_PACK = /(?<![a-z0-9])(?:s(\d{1,2})|season[ ._-]?(\d{1,2}))(?![0-9a-z])/i;
// Season folders
const RE_SEASON_FOLDER =
  /^(?:season|series|saison|staffel|temporada|stagione|seizoen|book)[ ._-]*(\d{1,4})$|^s(\d{1,4})$/i;
const RE_SPECIALS_FOLDER = /^(?:specials?|season[ ._-]*0+)$/i;
// A year somewhere after a match
const RE_YEAR_AFTER = /(?<![0-9a-z])(?:19|20)\d{2}(?![0-9a-z])/;
// 14.03.2024 (European order)
const RE_DAILY_DMY = /(?<![0-9a-z])(\d{2})([._-])(\d{2})\2((?:19|20)\d{2})(?![0-9])/;
// Old scene numbering "lost.311.hdtv": season digit + two episode digits, right before release junk
const RE_THREE_DIGIT = /(?<=[ ._-])([1-9])(\d{2})(?=[ ._-])/;
// Years, optionally in brackets
const RE_YEAR = /(?<![0-9a-z])([([]?)((?:19|20)\d{2})[)\]]?(?![0-9a-z])/gi;
// Trailing series year: "Doctor Who 2005", "The Office (US) (2005)"
const RE_TRAILING_YEAR = /^(.*?[^\s._-])[\s._-]*[([]?((?:19|20)\d{2})[)\]]?$/;

// Release tokens that never belong to a title (resolution, source, codec, audio, release flags).
const RE_STRONG_JUNK = new RegExp(
  '(?<![a-z0-9])(?:' +
    [
      '\\d{3,4}[pi]', '[48]k', 'uhd', 'blu-?ray', 'bdrip', 'brrip', 'bdremux', 'remux', 'bd(?:25|50)',
      'web-?dl', 'webrip', 'web', 'hdtv(?:rip)?', 'pdtv', 'sdtv', 'dsr(?:ip)?', 'dvd(?:rip|scr|r|5|9)?',
      'hdrip', 'hdcam', 'camrip', 'telesync', 'hdts', 'vhsrip', 'x\\.?26[45]', 'h\\.?26[45]', 'hevc',
      'avc', 'xvid', 'divx', 'av1', 'vc-?1', 'mpeg-?2', '10-?bit', '8bit', 'hdr(?:10(?:plus|\\+)?)?',
      'dovi', 'sdr', 'dts(?:-?(?:hd|x|ma|es))?', 'ac3', 'e-?ac-?3', 'aac(?:2\\.0|5\\.1)?', 'ddp?(?:[257]\\.?[01])?',
      'truehd', 'atmos', 'flac', 'mp3', 'opus', 'proper', 'repack', 'rerip', 'internal', 'readnfo',
      'amzn', 'nf', 'dsnp', 'hmax', 'atvp', 'hulu', 'pcok', 'pmtp', 'stan', 'crav', 'it', 'cr',
      'hsbs', 'h-sbs', 'hou', 'sbs', 'nfofix', 'subbed', 'dubbed', 'dual[ ._-]?audio', 'multi(?:-?subs?)?',
      'yify', 'yts', 'rarbg',
    ].join('|') +
    ')(?![a-z0-9])',
  'i',
);
// The source tokens 'it' and 'cr' are too common in titles; they only count next to other junk,
// which is checked by `strongJunkIndex`.
const AMBIGUOUS_JUNK = new Set(['it', 'cr', 'web', 'nf', 'stan', 'avc', 'mp3', 'opus']);
const RE_STRONG_JUNK_G = new RegExp(RE_STRONG_JUNK.source, 'gi');

// Language / edition tokens that are stripped from the end of a movie title.
const TRAILING_TAGS = new Set([
  'multi', 'multi-subs', 'french', 'truefrench', 'vff', 'vfq', 'vf', 'vf2', 'vostfr', 'subfrench',
  'german', 'ger', 'deutsch', 'dl', 'ita', 'italian', 'eng', 'english', 'spanish', 'castellano',
  'latino', 'esp', 'dual', 'dubbed', 'subbed', 'russian', 'rus', 'hindi', 'japanese', 'jpn',
  'korean', 'kor', 'chinese', 'mandarin', 'cantonese', 'nordic', 'swedish', 'danish', 'norwegian',
  'finnish', 'dutch', 'flemish', 'polish', 'pl', 'czech', 'hungarian', 'turkish', 'portuguese',
  'brazilian', 'thai', 'vietnamese', 'arabic', 'hebrew', 'greek', 'romanian', 'ukrainian',
  'extended', 'unrated', 'uncut', 'remastered', 'imax', 'theatrical', 'limited', 'complete',
  'proper', 'repack', 'internal', 'criterion', 'festival', 'docu', 'subs', 'custom', 'hc', 'hardsub',
]);

// Editions. The first matching alternative (by position) wins.
const EDITIONS: readonly (readonly [string, string])[] = [
  ["director'?s?[ ._-]?cut", "Director's Cut"],
  ['final[ ._-]?cut', 'Final Cut'],
  ['ultimate[ ._-]?cut', 'Ultimate Cut'],
  ['ultimate[ ._-]?edition', 'Ultimate Edition'],
  ["collector'?s[ ._-]?edition", "Collector's Edition"],
  ['special[ ._-]?edition', 'Special Edition'],
  ['\\d{1,3}(?:st|nd|rd|th)[ ._-]?anniversary(?:[ ._-]?edition)?', ''],
  ['anniversary[ ._-]?edition', 'Anniversary Edition'],
  ['extended(?:[ ._-]?(?:cut|edition|version))?', 'Extended'],
  ['theatrical(?:[ ._-]?(?:cut|edition|version))?', 'Theatrical'],
  ['unrated', 'Unrated'],
  ['uncut', 'Uncut'],
  ['remaster(?:ed)?', 'Remastered'],
  ['imax(?:[ ._-]?edition)?', 'IMAX'],
  ['criterion(?:[ ._-]?collection)?', 'Criterion'],
  ['redux', 'Redux'],
  ['open[ ._-]?matte', 'Open Matte'],
];
const RE_EDITION = new RegExp(
  '(?<![a-z0-9])(?:' + EDITIONS.map(([re]) => `(${re})`).join('|') + ')(?![a-z0-9])',
  'i',
);
const RE_EDITION_TAIL = new RegExp(
  '[ ._-]+(?:' + EDITIONS.map(([re]) => re).join('|') + ')[ ._-]*$',
  'i',
);

const RE_CURLY = /\{(?:edition-([^}]*)|[a-z]+(?:id)?-[^}]*)\}|\[(?:imdb|tmdb|tvdb)(?:id)?-[^\]]*\]/gi;
const RE_SITE_PREFIX = /^\s*\[?\s*(?:www\.)?[a-z0-9-]+\.(?:com|org|net|to|cd|sh|ws|me|mx|am|is|io|se|ag|pw|cc|co|tv|info|club|xyz|lol|nz|ru|fr|onl|li|bz|si|unblockit\.[a-z]+)\s*\]?\s*-?\s*/i;
const RE_LEADING_GROUP = /^\s*\[([^\]]*)\]\s*/;

// Folders that say nothing about the media inside them.
const GENERIC_FOLDERS = new Set([
  'movies', 'movie', 'films', 'film', 'tv', 'tv shows', 'tvshows', 'tv-shows', 'shows', 'series',
  'anime', 'downloads', 'download', 'complete', 'completed', 'incoming', 'incomplete', 'media',
  'video', 'videos', 'sample', 'samples', 'subs', 'subtitles', 'sub', 'extras', 'featurettes',
  'behind the scenes', 'deleted scenes', 'interviews', 'scenes', 'shorts', 'trailers', 'other',
  'others', 'torrents', 'torrent', 'new', 'done', 'seeding', 'plex', 'library', 'data', 'mnt',
  'media1', 'disk', 'disk1', 'disk2', 'disk3', 'disk4', 'drive', 'storage', 'sabnzbd', 'nzbget',
  'qbittorrent', 'transmission', 'deluge', 'radarr', 'sonarr', 'tv-sonarr', 'radarr-movies',
]);

// ---------------------------------------------------------------------------------------------
// Title cleaning

/** Dot-separated names: dots become spaces, but runs of single letters stay acronyms (S.H.I.E.L.D.). */
function dotsToSpaces(t: string): string {
  const parts = t.split('.');
  let out = '';
  let acro = '';
  let acroLen = 0;
  const flush = (): void => {
    if (acroLen === 0) return;
    const word = acroLen >= 2 ? acro : acro.slice(0, -1);
    out = out === '' ? word : `${out} ${word}`;
    acro = '';
    acroLen = 0;
  };
  for (const p of parts) {
    if (p === '') continue;
    if (p.length === 1 && isLetter(p.charCodeAt(0))) {
      acro += `${p}.`;
      acroLen++;
      continue;
    }
    flush();
    out = out === '' ? p : `${out} ${p}`;
  }
  flush();
  return out;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function cleanTitle(raw: string): string {
  let t = raw.replace(/^[\s._,:;~–-]+/, '').replace(/[\s_,:;~–([{-]+$/, '');
  if (t === '') return '';
  if (!t.includes(' ')) {
    t = dotsToSpaces(t);
  } else {
    t = t.replace(/\s{2,}/g, ' ');
    // "The Walking Dead.S01E01": a dot glued to what follows the title is a separator, but keep
    // abbreviations that end a title ("Monsters, Inc. (2001)" keeps its space) and acronyms.
    if (raw.endsWith('.') && !/(?:^|[\s.])[a-z]\.$/i.test(t)) t = t.replace(/\.+$/, '');
  }
  return t.replace(/[\s-]+$/, '').trim();
}

const RE_ARTICLE_ONLY = /^[\s._-]*(?:the|a|an|le|la|les|der|die|das|el|il)?[\s._-]*$/i;

/**
 * Removes editions (and, with `languages`, language / release tags) from the end of a raw title:
 * "Aliens.Special.Edition" → "Aliens", "Intouchables.FRENCH" → "Intouchables". Never strips a
 * title down to nothing or to a bare article ("The.Final.Cut.2004" stays a title).
 */
function stripTrailingTags(raw: string, languages: boolean): string {
  let t = raw;
  for (let i = 0; i < 6; i++) {
    const before = t;
    const e = RE_EDITION_TAIL.exec(t);
    if (e && !RE_ARTICLE_ONLY.test(t.slice(0, e.index))) t = t.slice(0, e.index);
    if (languages) {
      const m = /[ ._-]+([a-z0-9-]+)[ ._-]*$/i.exec(t);
      if (m && !RE_ARTICLE_ONLY.test(t.slice(0, m.index)) && TRAILING_TAGS.has(m[1]!.toLowerCase())) {
        t = t.slice(0, m.index);
      }
    }
    if (t === before) break;
  }
  return t;
}

/** Episode titles: split off a trailing series year ("Doctor.Who.2005" → "Doctor Who", 2005). */
function seriesTitle(raw: string): { title: string; year: number | null } {
  const trimmed = raw.replace(/[\s._,:;~–([{-]+$/, '');
  const m = RE_TRAILING_YEAR.exec(trimmed);
  if (m) {
    const y = Number(m[2]);
    if (y >= MIN_YEAR && y <= MAX_YEAR) {
      const t = cleanTitle(m[1]!);
      if (t !== '') return { title: t, year: y };
    }
  }
  return { title: cleanTitle(trimmed), year: null };
}

function findEdition(s: string): string | null {
  const m = RE_EDITION.exec(s);
  if (!m) return null;
  for (let i = 0; i < EDITIONS.length; i++) {
    const g = m[i + 1];
    if (g !== undefined) {
      const label = EDITIONS[i]![1];
      if (label !== '') return label;
      const n = /^(\d{1,3}(?:st|nd|rd|th))/i.exec(g);
      return `${n ? n[1]!.toLowerCase() : ''} Anniversary Edition`.trim();
    }
  }
  return null;
}

/** Index of the first release token, or -1. Ambiguous short tokens count only beside other junk. */
function strongJunkIndex(s: string): number {
  RE_STRONG_JUNK_G.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = RE_STRONG_JUNK_G.exec(s)) !== null) {
    if (m.index === 0) continue;
    const tok = m[0].toLowerCase();
    if (!AMBIGUOUS_JUNK.has(tok)) return m.index;
    const rest = s.slice(m.index + m[0].length);
    const next = RE_STRONG_JUNK.exec(rest);
    if (next && next.index <= 2 && !AMBIGUOUS_JUNK.has(next[0].toLowerCase())) return m.index;
  }
  return -1;
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i <= to; i++) out.push(i);
  return out;
}

function newSeg(kind: SegKind, title: string): Seg {
  return {
    kind,
    title,
    year: null,
    season: null,
    episodes: [],
    airDate: null,
    absolute: [],
    edition: null,
    weak: 0,
  };
}

function episodeSeg(rawTitle: string, season: number | null, episodes: number[]): Seg {
  const { title, year } = seriesTitle(rawTitle);
  const seg = newSeg('episode', title);
  seg.year = year;
  seg.season = season;
  seg.episodes = episodes;
  return seg;
}

// ---------------------------------------------------------------------------------------------
// One path segment

/** File and folder names are at most 255 bytes on common filesystems; longer input is cut so that
 * the (trailing-anchored) clean-up expressions stay cheap on hostile input. */
const MAX_SEGMENT = 300;

function parseSegment(input: string): Seg | null {
  const capped = input.length > MAX_SEGMENT ? input.slice(0, MAX_SEGMENT) : input;
  let s = capped.includes('_') ? capped.replace(/_/g, ' ') : capped;
  let edition: string | null = null;
  if (s.includes('{') || s.includes('db')) {
    s = s.replace(RE_CURLY, (_m, ed: string | undefined) => {
      if (ed !== undefined && ed.trim() !== '') edition = ed.trim();
      return ' ';
    });
  }
  let group = false;
  const c0 = s.charCodeAt(0);
  if (c0 === 91 /* [ */ || c0 === 32 || s.startsWith('www.') || s.startsWith('WWW.')) {
    const site = RE_SITE_PREFIX.exec(s);
    if (site && (site[0].includes('[') || /www\./i.test(site[0]) || site[0].includes(' - '))) {
      s = s.slice(site[0].length);
    } else {
      const g = RE_LEADING_GROUP.exec(s);
      if (g) {
        group = true;
        s = s.slice(g[0].length);
      }
    }
  }
  s = s.trim();
  if (s === '') return null;

  // --- S01E02 and multi-episode forms
  let m = RE_SXE.exec(s);
  if (m) {
    const season = Number(m[1]);
    const eps = [Number(m[2])];
    let pos = m.index + m[0].length;
    for (;;) {
      const last = eps[eps.length - 1]!;
      RE_SXE_MORE.lastIndex = pos;
      const more = RE_SXE_MORE.exec(s);
      if (more) {
        const n = Number(more[2]);
        if (more[1]!.includes('-') && n > last && n - last <= 30) eps.push(...range(last + 1, n));
        else if (n > last && n - last <= 30) eps.push(n);
        else break;
        pos = RE_SXE_MORE.lastIndex;
        continue;
      }
      RE_SXE_RANGE.lastIndex = pos;
      const r = RE_SXE_RANGE.exec(s);
      if (r) {
        const n = Number(r[1]);
        if (n > last && n - last <= 30) {
          eps.push(...range(last + 1, n));
          pos = RE_SXE_RANGE.lastIndex;
          continue;
        }
      }
      break;
    }
    return episodeSeg(s.slice(0, m.index), season, eps);
  }

  // --- 1x02 and 1x02-1x03
  m = RE_NX.exec(s);
  if (m && m.index === 0 && RE_YEAR_AFTER.test(s.slice(m[0].length))) m = null;
  if (m) {
    const season = Number(m[1]);
    const eps = [Number(m[2])];
    let pos = m.index + m[0].length;
    for (;;) {
      RE_NX_MORE.lastIndex = pos;
      const more = RE_NX_MORE.exec(s);
      if (!more) break;
      const last = eps[eps.length - 1]!;
      const n = Number(more[1]);
      if (!(n > last && n - last <= 30)) break;
      if (more[0].includes('-')) eps.push(...range(last + 1, n));
      else eps.push(n);
      pos = RE_NX_MORE.lastIndex;
    }
    return episodeSeg(s.slice(0, m.index), season, eps);
  }

  // --- Season 1 Episode 2
  m = RE_SEASON_EPISODE.exec(s);
  if (m) return episodeSeg(s.slice(0, m.index), Number(m[1]), [Number(m[2])]);

  // --- Daily shows
  m = RE_DAILY.exec(s);
  if (m) {
    const mo = Number(m[3]);
    const d = Number(m[4]);
    const y = Number(m[1]);
    if (mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && y <= MAX_YEAR && m.index > 0) {
      const seg = episodeSeg(s.slice(0, m.index), null, []);
      if (seg.title !== '') {
        seg.airDate = `${m[1]}-${m[3]}-${m[4]}`;
        return seg;
      }
    }
  }

  m = RE_DAILY_DMY.exec(s);
  if (m && m.index > 0) {
    const d = Number(m[1]);
    const mo = Number(m[3]);
    if (mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && Number(m[4]) <= MAX_YEAR) {
      const seg = episodeSeg(s.slice(0, m.index), null, []);
      if (seg.title !== '') {
        seg.airDate = `${m[4]}-${m[3]}-${m[1]}`;
        return seg;
      }
    }
  }

  // --- Anime absolute numbers
  m = RE_ABS_DASH.exec(s);
  if (!m && group) m = RE_ABS_BARE.exec(s);
  if (m && m.index > 0) {
    const n = Number(m[1]);
    const isYear = m[1]!.length === 4 && n >= MIN_YEAR && n <= MAX_YEAR;
    if (!isYear || group) {
      const nums = [n];
      if (m[2] !== undefined) {
        const to = Number(m[2]);
        if (to > n && to - n <= 50) nums.push(...range(n + 1, to));
      }
      let rawTitle = s.slice(0, m.index);
      const sm = RE_ANIME_SEASON.exec(rawTitle);
      if (sm) {
        rawTitle = rawTitle.slice(0, sm.index);
        return episodeSeg(rawTitle, Number(sm[1] ?? sm[2] ?? sm[3]), nums);
      }
      const seg = episodeSeg(rawTitle, null, []);
      seg.absolute = nums;
      seg.weak = group ? 0 : 1;
      return seg;
    }
  }

  // --- Years (movies)
  RE_YEAR.lastIndex = 0;
  let yearIdx = -1;
  let yearEnd = -1;
  let year: number | null = null;
  let firstParen = -1;
  const cands: { idx: number; end: number; year: number }[] = [];
  while ((m = RE_YEAR.exec(s)) !== null) {
    const y = Number(m[2]);
    if (y > MAX_YEAR || m.index === 0) continue;
    cands.push({ idx: m.index, end: m.index + m[0].length, year: y });
    if (m[1] !== '' && firstParen < 0) firstParen = cands.length - 1;
  }
  if (cands.length > 0) {
    let pick = firstParen >= 0 ? cands[firstParen] : undefined;
    if (pick === undefined) {
      const junk = strongJunkIndex(s);
      for (const c of cands) if (junk < 0 || c.idx < junk) pick = c;
      pick ??= cands[0];
    }
    if (pick !== undefined) {
      yearIdx = pick.idx;
      yearEnd = pick.end;
      year = pick.year;
    }
  }

  // --- Bare "Episode 5" / "E05" (no year in the name)
  if (year === null) {
    m = RE_EP_ONLY.exec(s);
    if (m) {
      const seg = episodeSeg(s.slice(0, m.index), null, []);
      seg.absolute = [Number(m[1] ?? m[2])];
      seg.weak = 2;
      return seg;
    }
  }

  // --- Old scene numbering: "lost.311.hdtv-lol" (only right before release tokens, no year)
  if (year === null) {
    m = RE_THREE_DIGIT.exec(s);
    if (m && m[2] !== '00') {
      const after = m.index + m[0].length;
      const junk = strongJunkIndex(s);
      if (junk > after && junk <= after + 1) {
        const seg = episodeSeg(s.slice(0, m.index), Number(m[1]), [Number(m[2])]);
        if (seg.title !== '') return seg;
      }
    }
  }

  // --- Season packs (folder names)
  m = RE_SEASON_PACK.exec(s);
  if (m !== null && (yearIdx < 0 || m.index < yearIdx || m.index > yearEnd)) {
    const junk = strongJunkIndex(s);
    if (junk >= 0 && junk < m.index) m = null;
  }
  if (m) {
    const seg = episodeSeg(s.slice(0, m.index), Number(m[1] ?? m[2]), []);
    seg.kind = 'season';
    return seg;
  }

  if (year !== null) {
    const rawTitle = s.slice(0, yearIdx);
    const kept = stripTrailingTags(rawTitle, false);
    const seg = newSeg('movie', cleanTitle(kept));
    if (seg.title === '') return null;
    seg.year = year;
    seg.edition = edition ?? findEdition(s.slice(yearEnd)) ?? findEdition(rawTitle.slice(kept.length));
    return seg;
  }

  const junk = strongJunkIndex(s);
  if (junk > 0) {
    const rawTitle = s.slice(0, junk);
    const kept = stripTrailingTags(rawTitle, true);
    const seg = newSeg('movie', cleanTitle(kept));
    if (seg.title === '') return null;
    seg.edition = edition ?? findEdition(s.slice(junk)) ?? findEdition(rawTitle.slice(kept.length));
    return seg;
  }
  const kept = stripTrailingTags(s, true);
  const seg = newSeg('bare', cleanTitle(kept));
  seg.edition = edition ?? findEdition(s.slice(kept.length));
  return seg.title === '' ? null : seg;
}

// ---------------------------------------------------------------------------------------------
// Whole names and paths

function toMedia(seg: Seg): ParsedMedia | null {
  if (seg.title === '') return null;
  if (seg.kind === 'movie') {
    return {
      kind: 'movie',
      title: seg.title,
      year: seg.year,
      season: null,
      episodes: [],
      air_date: null,
      absolute_episodes: [],
      edition: seg.edition,
      country: null,
    };
  }
  if (seg.kind === 'bare') return null;
  return {
    kind: 'episode',
    title: seg.title,
    year: seg.year,
    season: seg.season,
    episodes: seg.episodes,
    air_date: seg.airDate,
    absolute_episodes: seg.absolute,
    edition: null,
    country: null,
  };
}

function hasUpper(s: string): boolean {
  return s !== s.toLowerCase();
}

const RE_CAMERA_NAME = /^(?:IMG|VID|MVI|MOV|DSC[NF]?|PXL|GOPR|GH\d\d|GX\d\d|DJI|SAM|WP)[_-]?\d/i;

/** A name the parser is sure of, or a refusal with why (shown as the scanner's skip detail). */
export type ParseResult = { ok: true; media: ParsedMedia } | { ok: false; detail: string };

export function parseRelease(name: string): ParseResult {
  const media = parseReleaseName(name);
  return media === null ? { ok: false, detail: 'not a recognisable movie or episode name' } : { ok: true, media };
}

/**
 * Parses a release / file name or a relative path. Returns null when nothing useful is recognised.
 */
export function parseReleaseName(name: string): ParsedMedia | null {
  const parts = name.split(/[\\/]+/);
  let base = parts.pop() ?? '';
  while (base === '' && parts.length > 0) base = parts.pop() ?? '';
  base = stripExtension(base.trim());
  // Phone and camera clips (IMG_1964.mov) carry a counter that reads like a year; they are no movie.
  if (RE_CAMERA_NAME.test(base)) return null;
  const file = base === '' ? null : parseSegment(base);

  // Parent folders: the nearest season folder and the nearest meaningful folder above the file.
  let folderSeason: number | null = null;
  let folder: Seg | null = null;
  for (let i = parts.length - 1; i >= 0 && i >= parts.length - 4; i--) {
    const d = parts[i]!.trim();
    if (d === '' || d === '.' || d === '..') continue;
    if (GENERIC_FOLDERS.has(d.toLowerCase())) continue;
    const sm = RE_SEASON_FOLDER.exec(d);
    if (sm) {
      folderSeason ??= Number(sm[1] ?? sm[2]);
      continue;
    }
    if (RE_SPECIALS_FOLDER.test(d)) {
      folderSeason ??= 0;
      continue;
    }
    folder = parseSegment(d);
    if (folder !== null) break;
  }
  if (folder === null && folderSeason === null) return file === null ? null : toMedia(file);

  const seasonHint =
    folderSeason ?? (folder && (folder.kind === 'season' || folder.kind === 'episode') ? folder.season : null);

  if (file !== null && file.kind === 'episode') {
    const out = { ...file };
    if (out.weak !== 0 && seasonHint !== null && out.absolute.length > 0) {
      out.season = seasonHint;
      out.episodes = out.absolute;
      out.absolute = [];
    }
    if (folder !== null) {
      const sameTitle = out.title !== '' && normalizeTitle(folder.title) === normalizeTitle(out.title);
      if (out.title === '') {
        out.title = folder.title;
        out.year ??= folder.year;
      } else if (sameTitle) {
        out.year ??= folder.year;
        if (!hasUpper(out.title) && hasUpper(folder.title)) out.title = folder.title;
      } else if (
        folder.kind === 'episode' &&
        folder.season === out.season &&
        folder.episodes.join() === out.episodes.join() &&
        folder.airDate === out.airDate
      ) {
        // Release folder of an abbreviated / obfuscated scene file name.
        out.title = folder.title;
        out.year = folder.year ?? out.year;
      }
    }
    return toMedia(out);
  }

  if (file !== null && file.kind === 'movie' && file.year !== null) {
    if (
      folder !== null &&
      folder.kind === 'movie' &&
      folder.year === file.year &&
      !hasUpper(file.title) &&
      normalizeTitle(folder.title) === normalizeTitle(file.title)
    ) {
      return toMedia({ ...file, title: folder.title, edition: file.edition ?? folder.edition });
    }
    return toMedia(file);
  }

  // The file name alone is weak: a season folder, a release folder or a movie folder decides.
  if (folderSeason !== null) {
    const show = folder ?? null;
    if (show === null) return null;
    const out = newSeg('episode', show.title);
    out.year = show.year;
    out.season = folderSeason;
    const lead = file !== null ? /^(\d{1,3})(?=$|[ ._-])/.exec(base) : null;
    if (lead) {
      let n = Number(lead[1]);
      if (n >= 100 && Math.floor(n / 100) === folderSeason) n %= 100;
      out.episodes = [n];
    } else if (file !== null && file.kind === 'season' && file.season === folderSeason) {
      out.episodes = [];
    }
    return toMedia(out);
  }
  if (folder !== null) {
    if (folder.kind === 'episode' || (folder.kind === 'movie' && folder.year !== null)) {
      return toMedia({ ...folder, edition: folder.edition ?? file?.edition ?? null });
    }
    if (file !== null && file.kind === 'movie') return toMedia(file);
    if (file !== null && file.kind === 'season') {
      const out = { ...file };
      if (out.title === '') out.title = folder.title;
      return toMedia({ ...out, kind: 'episode' });
    }
    if (
      file !== null &&
      file.kind === 'bare' &&
      (folder.kind === 'bare' || folder.kind === 'movie') &&
      normalizeTitle(folder.title) === normalizeTitle(file.title)
    ) {
      return toMedia({ ...folder, kind: 'movie', title: folder.title });
    }
    return null;
  }
  return file === null ? null : toMedia(file);
}

// ---------------------------------------------------------------------------------------------
// Title normalisation for comparisons

const FOLD: Record<string, string> = {
  ß: 'ss', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe', ø: 'o', Ø: 'o', đ: 'd', Đ: 'd', ł: 'l', Ł: 'l',
  þ: 'th', ð: 'd', ı: 'i',
};

/**
 * Normalises a title for comparisons: lowercase, accents stripped, `&` → `and`, punctuation
 * removed, a leading "the" / "a" / "an" dropped, whitespace collapsed.
 */
export function normalizeTitle(title: string): string {
  let s = title.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  s = s.replace(/[ßæÆœŒøØđĐłŁþðı]/g, (c) => FOLD[c] ?? c).toLowerCase();
  s = s.replace(/&/g, ' and ').replace(/['’`´]/g, '').replace(/[^a-z0-9]+/g, ' ').trim();
  if (s.startsWith('the ')) s = s.slice(4);
  else if (s.startsWith('a ')) s = s.slice(2);
  else if (s.startsWith('an ')) s = s.slice(3);
  return s;
}
