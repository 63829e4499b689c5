import type { IndexItem } from '@mo/shared';
import { readSubtitleTags, type SubtitleTags } from '../languages/subtitle-tags.ts';
import { parseReleaseName } from '../parse/release-name.ts';

// ---------------------------------------------------------------------------------------------
// Subtitle file names

export interface SubtitleName extends SubtitleTags {
  /** The name before its language and flag tags: a sidecar's video base name; '' for a bare language name (`English.srt`, `2_English.srt`). */
  base: string;
  ext: string;
}

/** A subtitle file name read as the scanner reads it when it renames one (`readSubtitleTags`). */
export function parseSubtitleName(name: string): SubtitleName {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot).toLowerCase() : '';
  const { base, tags } = readSubtitleTags(dot > 0 ? name.slice(0, dot) : name);
  return { base, ext, ...tags };
}

// ---------------------------------------------------------------------------------------------
// The audit

export interface MissingSubtitle {
  path: string;
  kind: 'movie' | 'episode';
  title: string | null;
  season: number | null;
  episode: number | null;
}

export interface SubtitleAudit {
  /** Media files audited: every video in the index that is not an extra or a sample. */
  total: number;
  missing: MissingSubtitle[];
}

/** An audited video and the sidecar subtitles it has. */
export interface CoveredVideo {
  entry: MissingSubtitle;
  sidecars: SubtitleName[];
}

export interface SubtitleCoverage {
  /** In path order. */
  videos: CoveredVideo[];
  /** The languages of full (not forced) sidecars, with and without region: what a language filter can find. */
  languages: Set<string>;
}

/** What a subtitle's owner is told by: the season and episodes of an item, without the rest of it. */
type Episodes = Pick<IndexItem, 'season' | 'episodes'>;

interface Video extends CoveredVideo {
  item: Episodes;
  base: string;
}

interface Folder {
  videos: Video[];
  byBase: Map<string, Video>;
  /** Subtitles beside the videos, in `Subs/`, or in a per-video folder `Subs/<video base>/`. */
  subs: { item: Episodes; name: string; subfolder: string | null; inSubs: boolean }[];
}

const SUBS_FOLDER = /^(subs|subtitles)$/i;

const dirOf = (path: string) => path.slice(0, path.lastIndexOf('/'));
const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** The video a name belongs to: same base name, else the longest video base name the name starts with. */
function ownerByName(folder: Folder, name: string, base: string | null): Video | undefined {
  const lower = name.toLowerCase();
  const exact = base ? folder.byBase.get(base.toLowerCase()) : undefined;
  if (exact) return exact;
  for (let i = lower.length - 1; i > 0; i--) {
    if (/[a-z0-9]/.test(lower[i]!)) continue;
    const v = folder.byBase.get(lower.slice(0, i));
    if (v) return v;
  }
  return undefined;
}

/**
 * A subtitle named after its video has the tags that follow the video's name, as the scanner reads
 * them when it renames one: `Heat (1995) English.srt` is English, `Now.You.See.It.srt` has no language.
 */
function afterVideoName(name: string, base: string, ext: string): SubtitleName {
  const stem = name.slice(0, name.length - ext.length);
  return { base: name.slice(0, base.length), ext, ...readSubtitleTags(stem.slice(base.length)).tags };
}

/** The videos a subtitle in a `Subs/` folder belongs to when its names match none. */
function ownersInSubs(folder: Folder, sub: Folder['subs'][number]): Video[] {
  // A release name of the download, after the video was renamed: the episode it names decides.
  const release = sub.subfolder !== null ? parseReleaseName(sub.subfolder) : null;
  const target =
    release?.kind === 'episode'
      ? { season: release.season ?? sub.item.season, episodes: release.episodes }
      : sub.item.episodes.length > 0
        ? sub.item
        : null;
  if (!target) return folder.videos;
  return folder.videos.filter((v) => v.item.season === target.season && v.item.episodes.some((e) => target.episodes.includes(e)));
}

/**
 * Every indexed media file with its sidecar subtitles (CONTRACT.md): a subtitle beside the video
 * whose name starts with the video's base name, or one in a `Subs` / `Subtitles` folder beside it.
 * In a `Subs` folder shared by several videos (a season folder), a subtitle named after one video,
 * in a folder named after it, or naming its episode, belongs to that one; any other belongs to all.
 * Subtitles are told by `library.subtitle_extensions` as it is now, not as the scan typed them.
 */
export function subtitleCoverage(items: Iterable<IndexItem>, opts: { subtitleExtensions: readonly string[] }): SubtitleCoverage {
  const acc = subtitleCoverageAccumulator(opts);
  for (const item of items) acc.add(item);
  return acc.coverage();
}

/** `subtitleCoverage` fed one item at a time; it keeps the videos' and subtitles' names, not the items. */
export function subtitleCoverageAccumulator(opts: { subtitleExtensions: readonly string[] }): { add(item: IndexItem): void; coverage(): SubtitleCoverage } {
  const subtitleExts = new Set(opts.subtitleExtensions);
  const folders = new Map<string, Folder>();
  const folderOf = (dir: string) => {
    let f = folders.get(dir);
    if (!f) folders.set(dir, (f = { videos: [], byBase: new Map(), subs: [] }));
    return f;
  };
  const videos: Video[] = [];
  const add = (item: IndexItem) => {
    const episodes: Episodes = { season: item.season, episodes: item.episodes };
    if (item.type === 'video' && !item.extra) {
      const dir = dirOf(item.path);
      const name = nameOf(item.path);
      const dot = name.lastIndexOf('.');
      const movie = item.section === 'movies';
      const entry: MissingSubtitle = {
        path: item.path,
        kind: movie ? 'movie' : 'episode',
        title: item.title,
        season: movie ? null : item.season,
        episode: movie ? null : (item.episodes[0] ?? null),
      };
      const v: Video = { entry, sidecars: [], item: episodes, base: dot > 0 ? name.slice(0, dot) : name };
      const f = folderOf(dir);
      f.videos.push(v);
      f.byBase.set(v.base.toLowerCase(), v);
      videos.push(v);
    } else if (subtitleExts.has(item.ext)) {
      const name = nameOf(item.path);
      const dir = dirOf(item.path);
      const parent = dirOf(dir);
      if (SUBS_FOLDER.test(nameOf(dir))) folderOf(parent).subs.push({ item: episodes, name, subfolder: null, inSubs: true });
      else if (SUBS_FOLDER.test(nameOf(parent))) folderOf(dirOf(parent)).subs.push({ item: episodes, name, subfolder: nameOf(dir), inSubs: true });
      else folderOf(dir).subs.push({ item: episodes, name, subfolder: null, inSubs: false });
    }
  };
  return { add, coverage: () => coverageOf(folders, videos) };
}

function coverageOf(folders: Map<string, Folder>, videos: Video[]): SubtitleCoverage {
  const languages = new Set<string>();
  for (const folder of folders.values()) {
    if (folder.videos.length === 0) continue;
    for (const sub of folder.subs) {
      const parsed = parseSubtitleName(sub.name);
      const named = sub.subfolder !== null ? ownerByName(folder, sub.subfolder, sub.subfolder) : ownerByName(folder, sub.name, parsed.base);
      const owners = named ? [named] : sub.inSubs ? ownersInSubs(folder, sub) : [];
      const sidecar = named && sub.subfolder === null ? afterVideoName(sub.name, named.base, parsed.ext) : parsed;
      for (const v of owners) v.sidecars.push(sidecar);
      if (owners.length > 0 && sidecar.language && !sidecar.forced) languages.add(sidecar.language).add(sidecar.language.split('-')[0]!);
    }
  }
  videos.sort((a, b) => (a.entry.path < b.entry.path ? -1 : a.entry.path > b.entry.path ? 1 : 0));
  return { videos, languages };
}

/**
 * The media files without a sidecar subtitle. With a language (as `normalizeLanguage` gives it),
 * only a full subtitle in it counts: a forced one covers foreign dialogue alone, and an untagged
 * one cannot be told.
 */
export function subtitleAudit(coverage: SubtitleCoverage, language: string | null = null): SubtitleAudit {
  const counts = (s: SubtitleName) =>
    language === null || (!s.forced && s.language !== null && (s.language === language || s.language.startsWith(`${language}-`)));
  const missing: MissingSubtitle[] = [];
  for (const v of coverage.videos) if (!v.sidecars.some(counts)) missing.push(v.entry);
  return { total: coverage.videos.length, missing };
}
