import { join } from 'node:path';
import { chooseDrive, type DriveChoice, type ExistingFolder, type Section } from './choose-drive.ts';
import { extensionOf, stemOf } from './download-rules.ts';
import { seasonOfFolder } from '../parse/season-folder.ts';
import { titleYearOfFolder } from '../library/classify.ts';
import { folderTitleKey } from '../library/title-match.ts';
import { titleKey } from '../parse/title-key.ts';
import { parseQuality } from '../parse/quality.ts';
import { episodeOfFile, type EpisodeNumbers } from '../library/episode-file.ts';
import { isExtraFile } from '../library/extras.ts';
import type { Reading } from './identify.ts';
import { toTemplateMedia } from './recognise.ts';
import { renderTemplate, type RenderedPath, type TemplateMedia } from './template.ts';
import type { Candidate, DownloadFile, PlanOptions, PlanWorld } from './plan-pass.ts';

/** Where a movie or episode goes: the drive and library folder chosen, and the folders and name under it. */
export interface Placement {
  section: Section;
  choice: DriveChoice;
  /** The folder the file goes in. */
  dir: string;
  rendered: RenderedPath;
  /** The rendered folders, the first and second (a season) as the library already spells them. */
  folders: string[];
  destination: string;
}

/** What placing needs of the pass's options and world. */
export type PlacementOptions = Pick<PlanOptions, 'movieTemplate' | 'episodeTemplate'>;
export type PlacementWorld = Pick<PlanWorld, 'drives' | 'subfolders'>;

/**
 * The season folder the series already has for the season `rendered` names, under its own spelling
 * (`Season 1`, as Sonarr makes it by default, `S01`, `Specials`), so that an episode joins its
 * season rather than a `Season 01` beside it; `rendered` itself where none fits or it is there.
 */
function existingSeasonFolder(rendered: string, existing: readonly string[]): string {
  const season = seasonOfFolder(rendered);
  if (season === null || existing.includes(rendered)) return rendered;
  return existing.find((name) => seasonOfFolder(name) === season) ?? rendered;
}

/**
 * The videos of an existing movie or season folder that hold this download's movie or episode
 * already: the same name in another container (`Movie (2010).mp4`, as the transcoder leaves it,
 * for a new `.mkv`), or for an episode any name that says one of its episodes (an earlier download
 * spelled the series otherwise, `Law and Order` for `Law & Order`, or an older template named it;
 * only names that carry their season or air date are read). The destination's own name counts
 * only with `exact`: a file there may be this very download, a move cut short, which
 * `world.destination` knows.
 */
export function heldVideos(
  media: TemplateMedia,
  name: string,
  stem: string,
  files: readonly string[],
  videoExtensions: ReadonlySet<string>,
  exact: boolean,
): string[] {
  const held: string[] = [];
  for (const other of files) {
    const ext = extensionOf(other);
    if ((other === name && !exact) || !videoExtensions.has(ext)) continue;
    const otherStem = other.slice(0, -ext.length);
    if (otherStem.toLowerCase() === stem.toLowerCase()) {
      held.push(other);
      continue;
    }
    // A sample or featurette named for the episode (`Show - S01E05 - sample.mkv`) does not hold it.
    if (media.kind !== 'episode' || isExtraFile(otherStem, media.title)) continue;
    const numbers = episodeOfFile(otherStem, null);
    if (!numbers) continue;
    const same =
      media.episodes.length > 0
        ? numbers.season === media.season && numbers.episodes.some((e) => media.episodes.includes(e))
        : numbers.air_date !== null && numbers.air_date === media.air_date;
    if (same) held.push(other);
  }
  return held;
}

/** The season and episodes (or air date) a library video's name gives, read as heldVideos reads it. */
export function heldEpisodes(name: string): EpisodeNumbers | null {
  return episodeOfFile(stemOf(name), null);
}

/**
 * A held video's sidecars: the subtitles and .nfo beside it named for its stem (`Heat (1995).en.srt`,
 * `Heat (1995).nfo`), none of which a video of a longer stem there (`Heat (1995).part2.mkv`) names.
 */
export function heldSidecars(video: string, files: readonly string[], videoExtensions: ReadonlySet<string>, sidecarExtensions: ReadonlySet<string>): string[] {
  const lowerStem = (f: string) => stemOf(f).toLowerCase();
  const own = lowerStem(video);
  const longer = files.filter((f) => f !== video && videoExtensions.has(extensionOf(f)) && lowerStem(f).startsWith(`${own}.`)).map(lowerStem);
  return files.filter((f) => {
    if (!sidecarExtensions.has(extensionOf(f))) return false;
    const lower = f.toLowerCase();
    return lower.startsWith(`${own}.`) && !longer.some((l) => lower.startsWith(`${l}.`));
  });
}

/**
 * As Sonarr and Radarr name a file for the series or movie it joins, not for the download: one
 * spelling per folder (`Law & Order - S01E01.mkv`, not `Law and Order - …`; no year the folder
 * lacks; a country code the folder carries beside its year, `The Office (2005) (US)`, once).
 */
export function namedForFolder(media: TemplateMedia, folder: string): TemplateMedia {
  const named = titleYearOfFolder(folder);
  const year = named.year ?? (media.kind === 'movie' ? media.year : null);
  const code = media.kind === 'episode' ? folderTitleKey(folder).country : null;
  const country = code !== null && titleKey(named.title).country === null ? code : null;
  return { ...media, title: named.title, year, country };
}

/** The drive, folder and file name a movie or episode gets; null when no drive has room. */
export function placement(
  media: TemplateMedia,
  existing: readonly ExistingFolder[],
  video: Pick<DownloadFile, 'rel' | 'dev'>,
  bytes: number,
  reserved: ReadonlyMap<string, number>,
  opts: PlacementOptions,
  world: PlacementWorld,
): Placement | null {
  const section: Section = media.kind === 'movie' ? 'movies' : 'tv';
  const choice = chooseDrive({ section, bytes, sourceDev: video.dev, existing }, world.drives, reserved);
  if (!choice) return null;
  const template = media.kind === 'movie' ? opts.movieTemplate : opts.episodeTemplate;
  const rendered = renderTemplate(template, choice.folder === null ? media : namedForFolder(media, choice.folder), extensionOf(video.rel));
  const folders = [...rendered.folders];
  if (choice.folder !== null && folders.length > 0) {
    folders[0] = choice.folder;
    if (section === 'tv' && folders.length > 1) {
      folders[1] = existingSeasonFolder(folders[1]!, world.subfolders?.(join(choice.drive.path, choice.root, choice.folder)) ?? []);
    }
  }
  const dir = join(choice.drive.path, choice.root, ...folders);
  return { section, choice, dir, rendered, folders, destination: join(dir, rendered.name) };
}

/** The absolute path of a library folder, on its drive where the pass knows the drive. */
export function folderPathOf(world: Pick<PlanWorld, 'drives'>, f: ExistingFolder): string {
  return join(world.drives.find((d) => d.name === f.drive)?.path ?? f.drive, f.root, f.name);
}

/** The readings as `Import as…` offers them, each with where it would go (nothing reserved for it). */
export function candidatesOf(
  readings: readonly Reading[],
  video: Pick<DownloadFile, 'rel' | 'dev'>,
  bytes: number,
  opts: PlacementOptions,
  world: PlacementWorld,
): Candidate[] {
  const quality = parseQuality(video.rel);
  return readings.map(({ media: m, folder }) => {
    const template = toTemplateMedia(m);
    const place = template.ok ? placement(template.media, folder ? [folder] : [], video, bytes, new Map(), opts, world) : null;
    // The folder's spelling and year, as a manual import of this reading would name it.
    const named = folder ? titleYearOfFolder(folder.name) : m;
    return {
      kind: m.kind,
      title: named.title,
      year: folder ? named.year : m.year,
      season: m.season,
      episodes: [...m.episodes],
      absolute_episodes: [...m.absolute_episodes],
      air_date: m.air_date,
      folder: folder ? folderPathOf(world, folder) : null,
      destination: place ? place.destination : null,
      quality,
    };
  });
}
