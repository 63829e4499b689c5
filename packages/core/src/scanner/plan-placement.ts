import { join } from 'node:path';
import { chooseDrive, type DriveChoice, type ExistingFolder, type Section } from './choose-drive.ts';
import { extensionOf } from './download-rules.ts';
import { seasonOfFolder } from '../parse/season-folder.ts';
import { titleYearOfFolder } from '../library/classify.ts';
import { folderTitleKey } from '../library/title-match.ts';
import { titleKey } from '../parse/title-key.ts';
import { parseQuality } from '../parse/quality.ts';
import { episodeOfFile } from '../library/episode-file.ts';
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
 * The video of an existing movie or season folder that holds this download's movie or episode
 * already under another name, or null: the same name in another container (`Movie (2010).mp4`, as
 * the transcoder leaves it, for a new `.mkv`), or for an episode any name that says the same
 * episode (an earlier download spelled the series otherwise, `Law and Order` for `Law & Order`, or
 * an older template named it; only names that carry their season or air date are read). The
 * destination's own name is left to `world.destination`, which knows a move cut short.
 */
export function heldVideo(media: TemplateMedia, name: string, stem: string, files: readonly string[], videoExtensions: ReadonlySet<string>): string | null {
  for (const other of files) {
    const ext = extensionOf(other);
    if (other === name || !videoExtensions.has(ext)) continue;
    const otherStem = other.slice(0, -ext.length);
    if (otherStem.toLowerCase() === stem.toLowerCase()) return other;
    // A sample or featurette named for the episode (`Show - S01E05 - sample.mkv`) does not hold it.
    if (media.kind !== 'episode' || isExtraFile(otherStem, media.title)) continue;
    const held = episodeOfFile(otherStem, null);
    if (!held) continue;
    const same =
      media.episodes.length > 0
        ? held.season === media.season && held.episodes.some((e) => media.episodes.includes(e))
        : held.air_date !== null && held.air_date === media.air_date;
    if (same) return other;
  }
  return null;
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
