// Release-name recognition shared by the library index, the scanner and the reports.
//
// `parseRelease` reads a file name or a relative path (scene and P2P release names, Plex / Kodi /
// Sonarr / Radarr library names, anime fansub names, daily shows) and answers what it is sure of,
// or refuses with a reason: a wrong answer would move a download into the wrong folder, a refusal
// costs the user a click. It is a pure function.
//
// How it works:
//  1. The path is split; the file name loses its video or subtitle extension (and a subtitle's
//     language and flag suffixes). A name with another extension is not a video.
//  2. Each segment is read on its own (segment.ts): names of music, software, games and books are
//     refused; then the forms of forms/index.ts are tried in order (S01E02, 1x02, spelled-out
//     seasons and episodes, air dates, episode-only numbers, absolute numbers, season packs, old
//     scene numbers, movie years, parts) and the first that finds its marker decides.
//  3. Parent folders fill what the file name lacks: a season folder, the series folder, the release
//     folder of an obfuscated file name, the `Title (Year)` folder of a movie.
//  4. What is left must be a whole answer: a title, and a year for a movie, numbers or a date for an
//     episode. Anything less is refused.
import { SUBTITLE_EXTENSIONS, VIDEO_EXTENSIONS } from '@mo/shared';
import { readSubtitleTags } from '../languages/subtitle-tags.ts';
import { nonVideoExtension } from './non-video.ts';
import { isObfuscated } from './prepare.ts';
import { seasonFolderAlone } from './season-folder.ts';
import { parseSegment, type Seg } from './segment.ts';
import { sameTitle } from './title-key.ts';

export interface ParsedMedia {
  kind: 'movie' | 'episode';
  /** Cleaned title; for an episode the series title without a trailing year or country code. */
  title: string;
  /** Movie year; for an episode the series year when the name carries one. */
  year: number | null;
  /**
   * Episodes: the year stands after the episode marker (`Young.Sheldon.S07E14.2024`), where it is
   * as often the episode's air year as the series': it cannot tell two series of one name apart.
   */
  year_after_episode: boolean;
  /** Episodes only; null when the name gives none. */
  season: number | null;
  /** Episodes only; every episode of a multi-episode name; [] for a season pack, a daily show or a movie. */
  episodes: number[];
  /** 'YYYY-MM-DD' for daily shows. */
  air_date: string | null;
  /** Absolute episode numbers (anime), else []. */
  absolute_episodes: number[];
  /** Movies: "Director's Cut", "Extended", "IMAX", … */
  edition: string | null;
  /** Episodes: the country code a series name carries to tell remakes apart (`The.Office.US` → `US`). */
  country: string | null;
}

/** A name the parser is sure of, or a refusal with why (shown as the scanner's skip detail). */
export type ParseResult = { ok: true; media: ParsedMedia } | { ok: false; detail: string };

// A name's extension carries no dot here; `.nfo` is read beside the video as its subtitles are.
const VIDEO: ReadonlySet<string> = new Set(VIDEO_EXTENSIONS.map((e) => e.slice(1)));
const SIDECAR: ReadonlySet<string> = new Set([...SUBTITLE_EXTENSIONS.map((e) => e.slice(1)), 'nfo']);

/** The file name without a video or sidecar extension; null when it has another (`.mp3`, `.pdf`). */
function stripExtension(file: string): string | null {
  const dot = file.lastIndexOf('.');
  if (dot <= 0) return file;
  const ext = file.slice(dot + 1).toLowerCase();
  if (VIDEO.has(ext)) return file.slice(0, dot);
  if (!SIDECAR.has(ext)) return nonVideoExtension(file) === null ? file : null;
  // A sidecar's language and flags (`Movie.en.forced.srt`) are read as the scanner reads them.
  return readSubtitleTags(file.slice(0, dot)).base;
}

// Folders that say nothing about the media inside them.
const GENERIC_FOLDERS = new Set([
  'movies',
  'movie',
  'films',
  'film',
  'tv',
  'tv shows',
  'tvshows',
  'tv-shows',
  'shows',
  'series',
  'anime',
  'downloads',
  'download',
  'complete',
  'completed',
  'incoming',
  'incomplete',
  'media',
  'video',
  'videos',
  'sample',
  'samples',
  'subs',
  'subtitles',
  'sub',
  'extras',
  'featurettes',
  'behind the scenes',
  'deleted scenes',
  'interviews',
  'scenes',
  'shorts',
  'trailers',
  'other',
  'others',
  'torrents',
  'torrent',
  'new',
  'done',
  'seeding',
  'plex',
  'library',
  'data',
  'mnt',
  'media1',
  'disk',
  'disk1',
  'disk2',
  'disk3',
  'disk4',
  'drive',
  'storage',
  'sabnzbd',
  'nzbget',
  'qbittorrent',
  'transmission',
  'deluge',
  'radarr',
  'sonarr',
  'tv-sonarr',
  'radarr-movies',
  'home',
  'finish',
  'finished',
]);
const RE_CAMERA_NAME = /^(?:IMG|VID|MVI|MOV|DSC[NF]?|PXL|GOPR|GH\d\d|GX\d\d|DJI|SAM|WP)[_-]?\d/i;

function hasUpper(s: string): boolean {
  return s !== s.toLowerCase();
}

/** "JoJo's Bizarre Adventure - Stardust Crusaders" in the folder `JoJo's Bizarre Adventure`: the folder names the series. */
function startsWithTitle(title: string, prefix: string): boolean {
  const dash = title.indexOf(' - ');
  return dash > 0 && sameTitle(title.slice(0, dash), prefix);
}

function toResult(s: Seg): ParseResult {
  if (s.refusal !== null) return { ok: false, detail: s.refusal };
  if (s.title === '') return { ok: false, detail: 'no title before the episode or year' };
  if (s.kind === 'bare') return { ok: false, detail: 'no year, season, episode or air date in the name' };
  if (s.kind === 'movie') {
    if (s.year === null) return { ok: false, detail: 'a movie needs its year' };
    return {
      ok: true,
      media: {
        kind: 'movie',
        title: s.title,
        year: s.year,
        year_after_episode: false,
        season: null,
        episodes: [],
        air_date: null,
        absolute_episodes: [],
        edition: s.edition,
        country: null,
      },
    };
  }
  if (s.season !== null && s.season > 99 && !(s.season >= 1900 && s.season === s.year)) {
    return { ok: false, detail: `season ${s.season} is no season` };
  }
  // "Show - Subtitle - 05": the series may be "Show" or "Show - Subtitle"; only a folder can tell.
  if (s.season === null && s.absolute.length > 0 && /[\s.]-[\s.]/.test(s.title)) {
    return { ok: false, detail: 'the series title may end before its " - "' };
  }
  return {
    ok: true,
    media: {
      kind: 'episode',
      title: s.title,
      year: s.year,
      year_after_episode: s.yearLate,
      season: s.season,
      episodes: s.episodes,
      air_date: s.airDate,
      absolute_episodes: s.absolute,
      edition: null,
      country: s.country,
    },
  };
}

/** The nearest season folder, and the nearest folder above the file that says something. */
function readFolders(parts: readonly string[]): { season: number | null; folder: Seg | null } {
  let season: number | null = null;
  for (let i = parts.length - 1; i >= 0 && i >= parts.length - 4; i--) {
    const d = parts[i]!.trim();
    if (d === '' || d === '.' || d === '..' || GENERIC_FOLDERS.has(d.toLowerCase())) continue;
    const s = seasonFolderAlone(d);
    if (s !== null) {
      season ??= s;
      continue;
    }
    const folder = parseSegment(d);
    if (folder !== null && folder.refusal === null) return { season, folder };
  }
  return { season, folder: null };
}

function episodeWithFolders(file: Seg, season: number | null, folder: Seg | null): Seg {
  const out = { ...file };
  const hint = season ?? (folder && (folder.kind === 'season' || folder.kind === 'episode') ? folder.season : null);
  if (out.weak && hint !== null && out.absolute.length > 0 && out.season === null) {
    out.season = hint;
    out.episodes = out.absolute;
    out.absolute = [];
    out.weak = false;
  }
  if (folder === null || folder.title === '') return out;
  if (out.title === '') {
    out.title = folder.title;
    adoptYear(out, folder);
    out.country ??= folder.country;
  } else if (sameTitle(folder.title, out.title)) {
    adoptYear(out, folder);
    out.country ??= folder.country;
    if (!hasUpper(out.title) && hasUpper(folder.title)) out.title = folder.title;
  } else if (startsWithTitle(out.title, folder.title) && (folder.kind === 'bare' || folder.kind === 'movie')) {
    out.title = folder.title;
    adoptYear(out, folder);
  } else if (folder.kind === 'episode' && folder.season === out.season && folder.episodes.join() === out.episodes.join() && folder.airDate === out.airDate) {
    // The release folder of an abbreviated or obfuscated scene file name.
    out.title = folder.title;
    if (folder.year !== null) {
      out.year = folder.year;
      out.yearLate = folder.yearLate;
    }
    out.country = folder.country ?? out.country;
  }
  return out;
}

/** The year of a folder naming the same show, where the file gives none, or one read after its episode marker. */
function adoptYear(out: Seg, folder: Seg): void {
  if (folder.year !== null && (out.year === null || (out.yearLate && !folder.yearLate))) {
    out.year = folder.year;
    out.yearLate = folder.yearLate;
  }
}

// "tpz-sn203", "abc.1203": abbreviated scene file names end in the season and a two-digit episode.
const RE_CODE_AT_END = /(?<!\d)(\d{1,2})(\d{2})$/;

/** The episode a file name inside one season gives: its leading number, or a code at its end of that season. */
function episodeInSeason(base: string, season: number): number | null {
  const lead = /^(\d{1,3})(?=$|[ ._-])/.exec(base);
  if (lead) {
    const n = Number(lead[1]);
    return n >= 100 && Math.floor(n / 100) === season ? n % 100 : n;
  }
  const code = RE_CODE_AT_END.exec(base);
  return code && code.index > 0 && Number(code[1]) === season && code[2] !== '00' ? Number(code[2]) : null;
}

/** The file name alone says too little: a season folder, a release folder or a movie folder decides. */
function fromFolders(file: Seg | null, base: string, season: number | null, folder: Seg | null): Seg | null {
  if (season !== null) {
    if (file !== null && file.kind === 'season' && file.season === season && file.title !== '') return file;
    if (folder === null || folder.title === '') return null;
    const out: Seg = { ...folder, kind: 'episode', season, episodes: [], absolute: [], airDate: null, weak: false, edition: null };
    const n = episodeInSeason(base, season);
    if (n !== null) out.episodes = [n];
    else if (!(file !== null && file.kind === 'season' && file.season === season)) return null;
    return out;
  }
  if (folder === null) return file;
  // The release folder of a season pack around an abbreviated file name: "Show.S02.720p-GRP/grp-sn203.avi".
  if (folder.kind === 'season' && folder.season !== null && folder.title !== '' && (file === null || file.kind === 'bare')) {
    const n = episodeInSeason(base, folder.season);
    if (n !== null) return { ...folder, kind: 'episode', episodes: [n], edition: null };
  }
  if (folder.kind === 'episode' || (folder.kind === 'movie' && folder.year !== null)) {
    return { ...folder, edition: folder.edition ?? file?.edition ?? null };
  }
  if (file === null) return null;
  if (file.kind === 'season') return { ...file, title: file.title === '' ? folder.title : file.title, kind: 'episode' };
  if (file.kind === 'bare' && (folder.kind === 'bare' || folder.kind === 'movie') && sameTitle(folder.title, file.title)) {
    return { ...folder, kind: 'movie' };
  }
  return file;
}

// "Show 10/25/2010": a file name cannot hold a slash, so slashes between the numbers of a date at
// the end of the name write a date (of a release's title), not folders.
const RE_SLASHED_DATE = /(?<![\d/])(\d{1,2})\/(\d{1,2})\/((?:19|20)\d{2})(?=[^\d/\\][^/\\]*$|$)/;

/** The folders and the file of a path; a slash inside brackets (`【4月/Group】`) separates nothing. */
function splitPath(path: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === '[' || c === '【') depth++;
    else if ((c === ']' || c === '】') && depth > 0) depth--;
    else if ((c === '/' || c === '\\') && depth === 0) {
      if (i > start) parts.push(path.slice(start, i));
      start = i + 1;
    }
  }
  if (start < path.length) parts.push(path.slice(start));
  return parts;
}

export function parseRelease(input: string): ParseResult {
  return readRelease(input).result;
}

/** `parseRelease`'s answer with the reading it was made from (null when nothing of the name was read), for readings.ts. */
export function readRelease(input: string): { result: ParseResult; seg: Seg | null } {
  const date = input.includes('/') ? RE_SLASHED_DATE.exec(input) : null;
  const name = date ? `${input.slice(0, date.index)}${date[1]}-${date[2]}-${date[3]}${input.slice(date.index + date[0].length)}` : input;
  // "Title / Original Title / Season: 1 [2017]" (tracker names) is one name, not a path.
  const parts = name.includes(' / ') || !(name.includes('/') || name.includes('\\')) ? [name] : splitPath(name);
  let last = parts.pop() ?? '';
  while (last.trim() === '' && parts.length > 0) last = parts.pop() ?? '';
  const base = stripExtension(last.trim());
  if (base === null) return { result: { ok: false, detail: `a .${nonVideoExtension(last.trim())} file, not a video` }, seg: null };
  // Phone and camera clips (IMG_1964.mov) carry a counter that reads like a year; they are no movie.
  if (RE_CAMERA_NAME.test(base)) return { result: { ok: false, detail: 'a camera clip' }, seg: null };
  // A file name of random characters says nothing: its folders decide, or the name is refused.
  const hidden = isObfuscated(base);
  const file = base === '' || hidden ? null : parseSegment(base);
  if (file !== null && file.refusal !== null) return { result: toResult(file), seg: file };

  const { season, folder } = readFolders(parts);
  let out: Seg | null;
  if (file !== null && file.kind === 'episode') out = episodeWithFolders(file, season, folder);
  else if (file !== null && file.kind === 'movie' && file.year !== null) {
    out = file;
    if (folder?.kind === 'movie' && folder.year === file.year && !hasUpper(file.title) && sameTitle(folder.title, file.title)) {
      out = { ...file, title: folder.title, edition: file.edition ?? folder.edition };
    }
  } else out = fromFolders(file, hidden ? '' : base, season, folder);
  if (out === null) {
    const detail = hidden ? 'an obfuscated file name, and no folder that names its episode or movie' : 'not a recognisable movie or episode name';
    return { result: { ok: false, detail }, seg: file };
  }
  if (out.kind === 'season') out = { ...out, kind: 'episode' };
  return { result: toResult(out), seg: out };
}

/** Parses a release / file name or a relative path; null when the parser refuses it (see `parseRelease`). */
export function parseReleaseName(name: string): ParsedMedia | null {
  const r = parseRelease(name);
  return r.ok ? r.media : null;
}
