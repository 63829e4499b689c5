import type { IndexItem, NfoInfo } from '@mo/shared';
import { parseReleaseName } from '../parse/release-name.ts';

export type Section = 'movies' | 'tv';

export interface ClassifyOptions {
  videoExtensions: ReadonlySet<string>;
  subtitleExtensions: ReadonlySet<string>;
}

/** Plex and Kodi extras folders: what lies inside is not the movie or episode itself. */
const EXTRAS_FOLDERS = new Set([
  'extras', 'featurettes', 'behind the scenes', 'deleted scenes', 'interviews', 'scenes', 'shorts',
  'trailers', 'other', 'others', 'bonus', 'sample', 'samples',
]);
/** Plex's extras suffixes on a file name: `Movie (2010)-trailer.mkv`. */
const EXTRAS_SUFFIX = /[-_. ](trailer|featurette|behindthescenes|deleted|interview|scene|short|other|extra|sample)$/i;
const FOLDER_TITLE_YEAR = /^(.*?)\s*[([](\d{4})[)\]]/;
const SEASON_FOLDER = /^(?:season|series|staffel|saison|temporada|stagione)[ ._-]*(\d{1,4})$|^s(\d{1,4})$/i;
const SPECIALS_FOLDER = /^(specials?|season[ ._-]*0+)$/i;
const FAST_EPISODE = /[Ss](\d{1,4})[ ._-]?[Ee](\d{1,4})((?:[ ._-]?-?[ ._-]?[Ee]\d{1,4})*)/;

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

function baseName(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** `Title (Year)` folders as Radarr, Sonarr, Plex and Jellyfin name them; anything else goes to the parser. */
export function titleYearOfFolder(name: string): { title: string; year: number | null } {
  const m = FOLDER_TITLE_YEAR.exec(name);
  if (m && m[1]) return { title: m[1].trim(), year: Number(m[2]) };
  const parsed = parseReleaseName(name);
  if (parsed) return { title: parsed.title, year: parsed.year };
  return { title: name.trim(), year: null };
}

export function seasonOfFolder(name: string): number | null {
  if (SPECIALS_FOLDER.test(name)) return 0;
  const m = SEASON_FOLDER.exec(name);
  return m ? Number(m[1] ?? m[2]) : null;
}

function expandEpisodes(first: number, rest: string): number[] {
  const more = [...rest.matchAll(/(-)?[ ._-]?[Ee](\d{1,4})/g)];
  const out = [first];
  for (const m of more) {
    const n = Number(m[2]);
    const last = out[out.length - 1]!;
    // "E01-E03" is a range; "E01E02E03" lists each one.
    if (m[1] === '-' && n > last && n - last <= 50) for (let e = last + 1; e <= n; e++) out.push(e);
    else if (!out.includes(n)) out.push(n);
  }
  return out;
}

export interface FolderInfo {
  title: string;
  year: number | null;
}

/**
 * One file under a library folder, from its path alone. `parts` is the path below the library
 * folder (`['Doctor Who (2005)', 'Season 01', 'Doctor Who - S01E01.mkv']`); `folderInfo` memoises
 * the parse of the movie or series folder, shared by all the files inside it.
 */
export function classify(
  section: Section,
  parts: readonly string[],
  opts: ClassifyOptions,
  folderInfo: (name: string) => FolderInfo,
): Pick<IndexItem, 'ext' | 'type' | 'title' | 'year' | 'season' | 'episodes' | 'air_date' | 'extra'> {
  const name = parts[parts.length - 1]!;
  const ext = extensionOf(name);
  const type: IndexItem['type'] = opts.videoExtensions.has(ext)
    ? 'video'
    : opts.subtitleExtensions.has(ext)
      ? 'subtitle'
      : ext === '.nfo'
        ? 'nfo'
        : 'other';
  const inner = parts.slice(1, -1);
  const extra =
    inner.some((d) => EXTRAS_FOLDERS.has(d.toLowerCase())) ||
    (type === 'video' && (EXTRAS_SUFFIX.test(baseName(name)) || /(^|[ ._-])sample([ ._-]|$)/i.test(baseName(name))));
  const loose = parts.length === 1;
  const folder = loose ? null : folderInfo(parts[0]!);

  if (section === 'movies') {
    if (folder) return { ext, type, title: folder.title, year: folder.year, season: null, episodes: [], air_date: null, extra };
    const parsed = type === 'video' ? parseReleaseName(name) : null;
    return { ext, type, title: parsed?.title ?? baseName(name), year: parsed?.year ?? null, season: null, episodes: [], air_date: null, extra };
  }

  let season: number | null = null;
  for (const d of inner) season = seasonOfFolder(d) ?? season;
  let episodes: number[] = [];
  let air_date: string | null = null;
  let title = folder?.title ?? null;
  let year = folder?.year ?? null;
  if (type === 'video' || type === 'subtitle' || type === 'nfo') {
    const fast = FAST_EPISODE.exec(name);
    // The fast path covers library-style names; the full parser is for the rest and for loose files,
    // whose series title can only come from the name.
    if (fast && folder) {
      season ??= Number(fast[1]);
      episodes = expandEpisodes(Number(fast[2]), fast[3] ?? '');
    } else if (type === 'video' || fast) {
      const parsed = parseReleaseName(parts.join('/'));
      if (parsed?.kind === 'episode') {
        season ??= parsed.season;
        episodes = parsed.episodes.length > 0 ? parsed.episodes : parsed.absolute_episodes;
        air_date = parsed.air_date;
      }
      if (!folder && parsed) {
        title = parsed.title;
        year = parsed.year;
      }
    }
  }
  return { ext, type, title, year, season, episodes, air_date, extra };
}

const TAG = (tag: string) => new RegExp(`<${tag}>\\s*([^<]*?)\\s*</${tag}>`, 'i');
const NFO_TITLE = TAG('title');
const NFO_SEASON = TAG('season');
const NFO_EPISODE = TAG('episode');
const NFO_AIRED = TAG('aired');
const NFO_PREMIERED = TAG('premiered');
const NFO_UNIQUE_ID = /<uniqueid\b[^>]*\btype\s*=\s*["']([A-Za-z0-9_-]+)["'][^>]*>\s*([^<]*?)\s*<\/uniqueid>/gi;

function decodeXml(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e]!);
}

/** The few facts a Kodi .nfo holds that the reports use; null for anything that is not Kodi XML. */
export function parseNfo(text: string): NfoInfo | null {
  const root = /<(tvshow|episodedetails|movie)[\s>]/i.exec(text);
  if (!root) return null;
  const kind = root[1]!.toLowerCase() === 'episodedetails' ? 'episode' : (root[1]!.toLowerCase() as 'tvshow' | 'movie');
  const num = (re: RegExp) => {
    const m = re.exec(text);
    return m && /^\d+$/.test(m[1]!) ? Number(m[1]) : null;
  };
  const str = (re: RegExp) => {
    const m = re.exec(text);
    return m && m[1] ? decodeXml(m[1]) : null;
  };
  const date = str(NFO_AIRED) ?? str(NFO_PREMIERED);
  const ids: Record<string, string> = {};
  for (const m of text.matchAll(NFO_UNIQUE_ID)) {
    const type = m[1]!.toLowerCase();
    if (m[2] && !(type in ids)) ids[type] = decodeXml(m[2]);
  }
  return {
    kind,
    title: str(NFO_TITLE),
    season: kind === 'episode' ? num(NFO_SEASON) : null,
    episode: kind === 'episode' ? num(NFO_EPISODE) : null,
    aired: date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null,
    ...(Object.keys(ids).length > 0 ? { ids } : {}),
  };
}
