import type { IndexItem } from '@mo/shared';
import { parseReleaseName } from '../parse/release-name.ts';
import { episodeOfFile } from './episode-file.ts';
import { isExtraFile, isExtrasFolder } from './extras.ts';
import { moviePart } from './multi-part.ts';
import { boundedName } from '../parse/name-bound.ts';
import { withoutNameTags } from './name-tags.ts';
import { readTaggedFolderName } from './tagged-folder-name.ts';
import { seasonOfFolder } from '../parse/season-folder.ts';

export type Section = 'movies' | 'tv';

export interface ClassifyOptions {
  videoExtensions: ReadonlySet<string>;
  subtitleExtensions: ReadonlySet<string>;
}

/**
 * `Title (Year)` and `Title [Year]` as Radarr, Sonarr, Plex and Jellyfin name folders; what follows
 * the year (`[1080p]`, `- 4K`) is not the title.
 */
const TITLE_YEAR = /^(.*?)[\s._-]*[([]((?:18|19|20)\d\d)[)\]]/;
/** What a release name has and a library name has not: a bare year, or dots for spaces. */
const RELEASE_LIKE = /(?<!\d)(?:18|19|20)\d\d(?!\d)|^[^\s]*[._][^\s]*$/;

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

function baseName(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * A movie or series as a library names it: `Title`, `Title (Year)`, with provider ids and a Plex
 * edition beside it, and release words, group tags and a season marker after it
 * (library/tagged-folder-name.ts). A name with a release name's marks and no year in brackets goes
 * to the release-name parser first, as `release` (a loose file passes its whole file name).
 */
function libraryTitle(name: string, release: string): FolderInfo {
  const s = withoutNameTags(name);
  const m = TITLE_YEAR.exec(s);
  if (m && m[1]) return readTaggedFolderName(s) ?? { title: m[1], year: Number(m[2]) };
  if (RELEASE_LIKE.test(s)) {
    const parsed = parseReleaseName(release);
    if (parsed) return { title: parsed.title, year: parsed.year };
  }
  return readTaggedFolderName(s) ?? { title: s || name.trim(), year: null };
}

/**
 * A movie or series folder's title and year; id tags (`[tvdbid-…]`, `{tmdb-…}`) and `{edition-…}`
 * are not part of the title.
 */
export function titleYearOfFolder(name: string): { title: string; year: number | null } {
  const bounded = boundedName(name);
  return libraryTitle(bounded, bounded);
}

interface InnerFolder {
  season: number | null;
  extras: boolean;
}

// Folder names inside series and movie folders repeat across the library (`Season 01`,
// `Featurettes`): read once each. The cap only bounds a pathological library.
const innerFolders = new Map<string, InnerFolder>();
const INNER_FOLDERS_MAX = 10_000;

function innerFolder(name: string): InnerFolder {
  let info = innerFolders.get(name);
  if (!info) {
    if (innerFolders.size >= INNER_FOLDERS_MAX) innerFolders.clear();
    innerFolders.set(name, (info = { season: seasonOfFolder(name), extras: isExtrasFolder(name) }));
  }
  return info;
}

export interface FolderInfo {
  title: string;
  year: number | null;
}

/**
 * One file under a library folder, from its path alone, read by the naming conventions Jellyfin,
 * Plex and Kodi document for libraries (README "Library names the index reads"); the release-name
 * parser only reads what none of them explains. `parts` is the path below the library folder
 * (`['Doctor Who (2005)', 'Season 01', 'Doctor Who - S01E01.mkv']`); `folderInfo` memoises the
 * title of the movie or series folder, shared by all the files inside it.
 */
export function classify(
  section: Section,
  parts: readonly string[],
  opts: ClassifyOptions,
  folderInfo: (name: string) => FolderInfo,
): Pick<IndexItem, 'ext' | 'type' | 'title' | 'year' | 'season' | 'episodes' | 'air_date' | 'extra'> {
  const name = boundedName(parts[parts.length - 1]!);
  const ext = extensionOf(name);
  const base = baseName(name);
  const type: IndexItem['type'] = opts.videoExtensions.has(ext) ? 'video' : opts.subtitleExtensions.has(ext) ? 'subtitle' : ext === '.nfo' ? 'nfo' : 'other';
  const folder = parts.length === 1 ? null : folderInfo(parts[0]!);
  let season: number | null = null;
  let extra = false;
  for (let i = 1; i < parts.length - 1; i++) {
    const inner = innerFolder(parts[i]!);
    season = inner.season ?? season;
    extra ||= inner.extras;
  }
  extra ||= type === 'video' && isExtraFile(base, folder?.title ?? null);

  if (section === 'movies') {
    if (folder) return { ext, type, title: folder.title, year: folder.year, season: null, episodes: [], air_date: null, extra };
    // A loose part (`Movie (2010) - cd2.mkv`) is named for the whole movie.
    const movie = type === 'video' ? libraryTitle(moviePart(base)?.name ?? base, name) : { title: base, year: null };
    return { ext, type, title: movie.title, year: movie.year, season: null, episodes: [], air_date: null, extra };
  }

  let episodes: number[] = [];
  let air_date: string | null = null;
  let title = folder?.title ?? null;
  let year = folder?.year ?? null;
  if (!extra && (type === 'video' || type === 'subtitle' || type === 'nfo')) {
    const named = episodeOfFile(base, title);
    if (named) {
      // The name's own season wins over the folder's; numbers without one lie in season 1 when no
      // season folder says otherwise, as Jellyfin and Kodi file them.
      season = named.season ?? season ?? (named.episodes.length > 0 ? 1 : null);
      episodes = named.episodes;
      air_date = named.air_date;
    }
    // A loose file's series can only come from its name; a video no library form reads may be a
    // release name dropped into the library.
    const loose = !folder && (type === 'video' || named !== null);
    const parsed = loose || (!named && type === 'video') ? parseReleaseName(parts.join('/')) : null;
    if (!named && parsed?.kind === 'episode') {
      season ??= parsed.season;
      episodes = parsed.episodes.length > 0 ? parsed.episodes : parsed.absolute_episodes;
      air_date = parsed.air_date;
    }
    if (!folder && parsed) {
      title = parsed.title;
      year = parsed.year;
    }
  }
  return { ext, type, title, year, season, episodes, air_date, extra };
}
