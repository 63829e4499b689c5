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
  /** In path order; each entry is made as it is reached, so a large library's list never exists whole. */
  missing: Iterable<MissingSubtitle>;
}

/** An audited video and the sidecar subtitles it has. */
export interface CoveredVideo {
  entry: MissingSubtitle;
  sidecars: readonly SubtitleName[];
}

export interface SubtitleCoverage {
  /** How many videos were audited. */
  total: number;
  /** The videos in path order, each entry made as it is reached. */
  videos(): Generator<CoveredVideo>;
  /** The languages of full (not forced) sidecars, with and without region: what a language filter can find. */
  languages: Set<string>;
}

/** A subtitle file waiting for the end of the pass, when every video of its folder is known. */
interface Sub {
  /** The folder of the videos it may belong to. */
  folder: number;
  season: number | null;
  episodes: readonly number[];
  name: string;
  subfolder: string | null;
  inSubs: boolean;
}

/** The videos of a folder that has subtitles, by id, and its subtitles: beside the videos, in `Subs/`, or in a per-video folder `Subs/<video base>/`. */
interface Folder {
  videos: number[];
  subs: Sub[];
}

/**
 * The audited videos as columns indexed by id, not an object each: at 1,000,000 indexed files
 * (470,000 videos) objects per video held ~350 MB of heap until the answer was built, and V8 kept
 * the heap it had grown to.
 */
interface Videos {
  paths: string[];
  /** Which folder each video is in, by the folder's number. */
  folders: number[];
  titles: (string | null)[];
  movie: boolean[];
  seasons: (number | null)[];
  /** The first episode; `more` holds the whole list of the few files with several. */
  firstEpisodes: (number | null)[];
  more: Map<number, readonly number[]>;
}

const SUBS_FOLDER = /^(subs|subtitles)$/i;

const dirOf = (path: string) => path.slice(0, path.lastIndexOf('/'));
const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const baseOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
};

/** The video a name belongs to: same base name, else the longest video base name the name starts with. */
function ownerByName(byBase: Map<string, number>, name: string, base: string | null): number | undefined {
  const lower = name.toLowerCase();
  const exact = base ? byBase.get(base.toLowerCase()) : undefined;
  if (exact !== undefined) return exact;
  for (let i = lower.length - 1; i > 0; i--) {
    if (/[a-z0-9]/.test(lower[i]!)) continue;
    const v = byBase.get(lower.slice(0, i));
    if (v !== undefined) return v;
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
function ownersInSubs(videos: Videos, folder: Folder, sub: Sub): number[] {
  // A release name of the download, after the video was renamed: the episode it names decides.
  const release = sub.subfolder !== null ? parseReleaseName(sub.subfolder) : null;
  const target = release?.kind === 'episode' ? { season: release.season ?? sub.season, episodes: release.episodes } : sub.episodes.length > 0 ? sub : null;
  if (!target) return folder.videos;
  return folder.videos.filter((v) => videos.seasons[v] === target.season && episodesOf(videos, v).some((e) => target.episodes.includes(e)));
}

function episodesOf(videos: Videos, v: number): readonly number[] {
  const first = videos.firstEpisodes[v];
  return videos.more.get(v) ?? (first === null || first === undefined ? [] : [first]);
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

/** `subtitleCoverage` fed one item at a time; it keeps the videos' paths and the subtitles' names, not the items. */
export function subtitleCoverageAccumulator(opts: { subtitleExtensions: readonly string[] }): { add(item: IndexItem): void; coverage(): SubtitleCoverage } {
  const subtitleExts = new Set(opts.subtitleExtensions);
  const folderIds = new Map<string, number>();
  const folderOf = (dir: string) => {
    let f = folderIds.get(dir);
    if (f === undefined) folderIds.set(dir, (f = folderIds.size));
    return f;
  };
  const subs: Sub[] = [];
  const videos: Videos = { paths: [], folders: [], titles: [], movie: [], seasons: [], firstEpisodes: [], more: new Map() };
  // Every episode of a series repeats its title, and each parsed line brings its own copy.
  const titles = new Map<string, string>();
  const title = (t: string | null) => {
    if (t === null) return null;
    const known = titles.get(t);
    if (known !== undefined) return known;
    titles.set(t, t);
    return t;
  };
  const add = (item: IndexItem) => {
    if (item.type === 'video' && !item.extra) {
      const id = videos.paths.length;
      videos.paths.push(item.path);
      videos.titles.push(title(item.title));
      videos.movie.push(item.section === 'movies');
      videos.seasons.push(item.season);
      videos.firstEpisodes.push(item.episodes[0] ?? null);
      if (item.episodes.length > 1) videos.more.set(id, item.episodes);
      videos.folders.push(folderOf(dirOf(item.path)));
    } else if (subtitleExts.has(item.ext)) {
      const name = nameOf(item.path);
      const dir = dirOf(item.path);
      const parent = dirOf(dir);
      const sub = (folder: string, subfolder: string | null, inSubs: boolean) =>
        subs.push({ folder: folderOf(folder), season: item.season, episodes: item.episodes, name, subfolder, inSubs });
      if (SUBS_FOLDER.test(nameOf(dir))) sub(parent, null, true);
      else if (SUBS_FOLDER.test(nameOf(parent))) sub(dirOf(parent), nameOf(dir), true);
      else sub(dir, null, false);
    }
  };
  let coverage: SubtitleCoverage | undefined;
  return {
    add,
    coverage: () => {
      if (!coverage) {
        folderIds.clear();
        coverage = coverageOf(subs.splice(0), videos);
      }
      return coverage;
    },
  };
}

function coverageOf(subs: Sub[], videos: Videos): SubtitleCoverage {
  const languages = new Set<string>();
  const folders = new Map<number, Folder>();
  for (const sub of subs) {
    let f = folders.get(sub.folder);
    if (!f) folders.set(sub.folder, (f = { videos: [], subs: [] }));
    f.subs.push(sub);
  }
  for (let v = 0; v < videos.folders.length; v++) folders.get(videos.folders[v]!)?.videos.push(v);
  // Holes for the videos without a sidecar, as most of a large library's may be.
  const sidecars = new Array<SubtitleName[] | undefined>(videos.paths.length);
  for (const folder of folders.values()) {
    if (folder.videos.length === 0) continue;
    const byBase = new Map<string, number>();
    for (const v of folder.videos) byBase.set(baseOf(nameOf(videos.paths[v]!)).toLowerCase(), v);
    for (const sub of folder.subs) {
      const parsed = parseSubtitleName(sub.name);
      const named = sub.subfolder !== null ? ownerByName(byBase, sub.subfolder, sub.subfolder) : ownerByName(byBase, sub.name, parsed.base);
      const owners = named !== undefined ? [named] : sub.inSubs ? ownersInSubs(videos, folder, sub) : [];
      const sidecar = named !== undefined && sub.subfolder === null ? afterVideoName(sub.name, baseOf(nameOf(videos.paths[named]!)), parsed.ext) : parsed;
      for (const v of owners) (sidecars[v] ??= []).push(sidecar);
      if (owners.length > 0 && sidecar.language && !sidecar.forced) languages.add(sidecar.language).add(sidecar.language.split('-')[0]!);
    }
  }
  const { paths } = videos;
  const order = Uint32Array.from(paths.keys()).sort((a, b) => (paths[a]! < paths[b]! ? -1 : paths[a]! > paths[b]! ? 1 : 0));
  const none: readonly SubtitleName[] = [];
  return {
    total: order.length,
    languages,
    *videos() {
      for (const v of order) {
        const movie = videos.movie[v]!;
        const entry: MissingSubtitle = {
          path: paths[v]!,
          kind: movie ? 'movie' : 'episode',
          title: videos.titles[v]!,
          season: movie ? null : videos.seasons[v]!,
          episode: movie ? null : videos.firstEpisodes[v]!,
        };
        yield { entry, sidecars: sidecars[v] ?? none };
      }
    },
  };
}

/**
 * The media files without a sidecar subtitle. With a language (as `normalizeLanguage` gives it),
 * only a full subtitle in it counts: a forced one covers foreign dialogue alone, and an untagged
 * one cannot be told.
 */
export function subtitleAudit(coverage: SubtitleCoverage, language: string | null = null): SubtitleAudit {
  const counts = (s: SubtitleName) =>
    language === null || (!s.forced && s.language !== null && (s.language === language || s.language.startsWith(`${language}-`)));
  return {
    total: coverage.total,
    missing: {
      *[Symbol.iterator]() {
        for (const v of coverage.videos()) if (!v.sidecars.some(counts)) yield v.entry;
      },
    },
  };
}
