import { join } from 'node:path';
import type { z } from 'zod';
import type { candidateSchema, planSchema, skippedSchema } from '@mo/shared';
import { chooseDrive, type DriveSpace, type ExistingFolder, type Section } from './choose-drive.ts';
import { extensionOf, fileType, isInExtrasFolder, isPartial, isSampleByName, isSampleSize, isSettled } from './download-rules.ts';
import type { FolderLookup } from './folder-lookup.ts';
import { seasonOfFolder } from '../parse/season-folder.ts';
import { titleYearOfFolder } from '../library/classify.ts';
import { folderTitleKey } from '../library/title-match.ts';
import { titleKey } from '../parse/title-key.ts';
import { episodeOfFile } from '../library/episode-file.ts';
import { isExtraFile } from '../library/extras.ts';
import { identify, type Identified, type ProviderAnswers, type Reading } from './identify.ts';
import { toTemplateMedia } from './recognise.ts';
import type { AliasTable } from './aliases.ts';
import { attachSidecars } from './sidecars.ts';
import { tagSuffix } from '../languages/subtitle-tags.ts';
import { checkTemplate, renderTemplate, type TemplateMedia } from './template.ts';

export type Plan = z.infer<typeof planSchema>;
/** `detail` says why where the reason alone does not: the parser's refusal, the folders that fit. */
export type Skipped = z.infer<typeof skippedSchema>;
export type SkipReason = Skipped['reason'];
export type Candidate = z.infer<typeof candidateSchema>;

/** A regular file under the downloads folder, as the walk found it. */
export interface DownloadFile {
  /** Absolute path. */
  path: string;
  /** Path below the downloads folder, `/`-separated. */
  rel: string;
  size: number;
  mtimeMs: number;
  dev: number;
  ino: number;
}

export interface PlanOptions {
  nowMs: number;
  settleSeconds: number;
  sampleMaxBytes: number;
  movieTemplate: string;
  episodeTemplate: string;
  videoExtensions: readonly string[];
  subtitleExtensions: readonly string[];
}

/**
 * `same`: the destination is the source itself, a move cut short between its link and unlink.
 * `link`: a folder on the way from the drive is a symbolic link, which nothing is placed through.
 */
export type DestinationState = 'free' | 'taken' | 'same' | { link: string };

/** What the planner may ask of the filesystem, gathered or answered by the caller. */
export interface PlanWorld {
  drives: readonly DriveSpace[];
  folders: FolderLookup;
  /** `drive`: the path of the drive the destination lies on. */
  destination(path: string, source: DownloadFile, drive: string): DestinationState;
  /** Whether the import history holds this download as imported (hardlink or copy mode); absent: none is. */
  imported?(file: DownloadFile): boolean;
  /** Whether this download is the file of an import the owner undid; absent: none is. */
  undone?(file: DownloadFile): boolean;
  /** The folders inside an existing series folder; absent: none. */
  subfolders?(dir: string): readonly string[];
  /** The files inside an existing season folder; absent: none. */
  files?(dir: string): readonly string[];
  /** `[library] aliases`; absent: none. */
  aliases?: AliasTable;
  /** The metadata provider's answers, where it is enabled. */
  provider?: ProviderAnswers;
  /** The videos to plan (a manual import's); absent: every one. Others and their sidecars are left out, not skipped. */
  only?(video: DownloadFile): boolean;
  /** What the owner said a video is (a manual import), instead of what its name reads as; null: its name decides. */
  forced?(video: DownloadFile): TemplateMedia | null;
}

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

export interface PlannedMove {
  plan: Plan;
  video: DownloadFile;
  sidecars: { file: DownloadFile; destination: string }[];
}

export interface PassPlan {
  plans: PlannedMove[];
  skipped: Skipped[];
}

function dirOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '' : rel.slice(0, slash);
}

function nameOf(rel: string): string {
  return rel.slice(rel.lastIndexOf('/') + 1);
}

/**
 * The video of an existing movie or season folder that holds this download's movie or episode
 * already under another name, or null: the same name in another container (`Movie (2010).mp4`, as
 * the transcoder leaves it, for a new `.mkv`), or for an episode any name that says the same
 * episode (an earlier download spelled the series otherwise, `Law and Order` for `Law & Order`, or
 * an older template named it; only names that carry their season or air date are read). The
 * destination's own name is left to `world.destination`, which knows a move cut short.
 */
function heldVideo(media: TemplateMedia, name: string, stem: string, files: readonly string[], videoExtensions: ReadonlySet<string>): string | null {
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
function namedForFolder(media: TemplateMedia, folder: string): TemplateMedia {
  const named = titleYearOfFolder(folder);
  const year = named.year ?? (media.kind === 'movie' ? media.year : null);
  const code = media.kind === 'episode' ? folderTitleKey(folder).country : null;
  const country = code !== null && titleKey(named.title).country === null ? code : null;
  return { ...media, title: named.title, year, country };
}

/**
 * Every file gets a plan (a video, with the subtitles and .nfo that travel with it) or a skip
 * reason. Pure apart from `world.destination`: nothing is read or written here.
 */
export function planPass(files: readonly DownloadFile[], opts: PlanOptions, world: PlanWorld): PassPlan {
  checkTemplate(opts.movieTemplate, 'movie', 'library.movie_template');
  checkTemplate(opts.episodeTemplate, 'episode', 'library.episode_template');
  const types = { videoExtensions: new Set(opts.videoExtensions), subtitleExtensions: new Set(opts.subtitleExtensions) };
  const skipped: Skipped[] = [];
  const skip = (f: DownloadFile, reason: SkipReason, detail?: string) =>
    skipped.push(detail === undefined ? { source: f.path, reason } : { source: f.path, reason, detail });

  const siblings = new Map<string, Set<string>>();
  for (const f of files) {
    const dir = dirOf(f.rel);
    let set = siblings.get(dir);
    if (!set) siblings.set(dir, (set = new Set()));
    set.add(nameOf(f.rel));
  }

  const videos: DownloadFile[] = [];
  const sidecarFiles: DownloadFile[] = [];
  for (const f of files) {
    if (isPartial(f.rel.split('/'), siblings.get(dirOf(f.rel))!)) {
      skip(f, 'partial');
      continue;
    }
    const type = fileType(nameOf(f.rel), types);
    if (type === 'video') videos.push(f);
    else if (type === 'subtitle' || type === 'nfo') sidecarFiles.push(f);
    else skip(f, 'unrecognized', 'not a video, subtitle or .nfo file');
  }
  const { attached, orphans } = attachSidecars(videos, sidecarFiles);
  for (const o of orphans) skip(o, 'unrecognized', 'no video it belongs to');
  // A manual import plans its own videos and their sidecars, and says nothing of the other files.
  const chosen = world.only ? videos.filter((v) => world.only!(v)) : videos;
  const kept = world.only ? new Set(chosen.flatMap((v) => [v.path, ...(attached.get(v) ?? []).map((s) => s.file.path)])) : null;

  // Largest first: when two downloads want one destination the bigger (better) copy wins, and the
  // big files get the pick of the drives.
  const order = [...chosen].sort((a, b) => b.size - a.size || (a.rel < b.rel ? -1 : 1));
  const reserved = new Map<string, number>();
  const claimed = new Set<string>();
  const claim = (p: string) => claimed.add(p.toLowerCase());
  const isClaimed = (p: string) => claimed.has(p.toLowerCase());
  const plans: PlannedMove[] = [];
  const folderPath = (f: ExistingFolder) => join(world.drives.find((d) => d.name === f.drive)?.path ?? f.drive, f.root, f.name);
  const identifyContext = { folders: world.folders, aliases: world.aliases ?? (() => null), provider: world.provider, folderName: folderPath };

  /** The drive, folder and file name a movie or episode gets; null when no drive has room. */
  const placement = (
    media: TemplateMedia,
    existing: readonly ExistingFolder[],
    video: DownloadFile,
    bytes: number,
    reservedBytes: ReadonlyMap<string, number>,
  ) => {
    const section: Section = media.kind === 'movie' ? 'movies' : 'tv';
    const choice = chooseDrive({ section, bytes, sourceDev: video.dev, existing }, world.drives, reservedBytes);
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
  };

  /** The readings as `Import as…` offers them, each with where it would go (nothing reserved for it). */
  const candidatesOf = (readings: readonly Reading[], video: DownloadFile, bytes: number): Candidate[] =>
    readings.map(({ media: m, folder }) => {
      const template = toTemplateMedia(m);
      const place = template.ok ? placement(template.media, folder ? [folder] : [], video, bytes, new Map()) : null;
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
        folder: folder ? folderPath(folder) : null,
        destination: place ? place.destination : null,
      };
    });

  /** The owner's word (a manual import): the library folder of that title, if the library has one. */
  const forcedAs = (media: TemplateMedia): Identified => {
    const fit = world.folders.find(media.kind === 'movie' ? 'movies' : 'tv', media);
    if (fit.kind === 'ambiguous')
      return { ok: false, reason: 'ambiguous', detail: `library folders that fit: ${fit.folders.map(folderPath).join(', ')}`, readings: [] };
    return { ok: true, media, folders: fit.folders, readings: [] };
  };

  for (const video of order) {
    const sidecars = attached.get(video) ?? [];
    const members = [video, ...sidecars.map((s) => s.file)];
    const reject = (reason: SkipReason, detail?: string) => members.forEach((m) => skip(m, reason, detail));
    // The readings go with the video alone: sidecars follow it, in a pass and in `Import as…`.
    const rejectWith = (reason: SkipReason, detail: string, candidates: Candidate[]) => {
      skipped.push({ source: video.path, reason, detail, candidates });
      sidecars.forEach((s) => skip(s.file, reason, detail));
    };
    // Before any other rule: a seeding download already in the library is no news each pass.
    if (world.imported?.(video)) {
      for (const m of members) skip(m, 'imported', world.imported(m) ? undefined : 'its video was imported already');
      continue;
    }
    if (world.undone?.(video)) {
      reject('undone', 'its import was undone; rename or change it to import it again');
      continue;
    }
    const parts = video.rel.split('/');
    if (isSampleByName(parts)) {
      reject('sample');
      continue;
    }
    if (!members.every((m) => isSettled(m.mtimeMs, opts.nowMs, opts.settleSeconds))) {
      reject('settling');
      continue;
    }
    if (isSampleSize(video.size, opts.sampleMaxBytes)) {
      reject('sample');
      continue;
    }
    const forced = world.forced?.(video) ?? null;
    const found: Identified = isInExtrasFolder(parts)
      ? { ok: false, reason: 'unrecognized', detail: 'in an extras folder', readings: [] }
      : forced !== null
        ? forcedAs(forced)
        : identify(video.rel, identifyContext);
    const bytes = members.reduce((n, m) => n + m.size, 0);
    if (!found.ok) {
      rejectWith(found.reason, found.detail, candidatesOf(found.readings, video, bytes));
      continue;
    }
    const media = found.media;
    const place = placement(media, found.folders, video, bytes, reserved);
    if (!place) {
      reject('no_drive');
      continue;
    }
    const { choice, dir, destination, rendered, section, folders } = place;
    const held = choice.folder !== null ? heldVideo(media, rendered.name, rendered.stem, world.files?.(dir) ?? [], types.videoExtensions) : null;
    if (held !== null) {
      reject('exists', `the library holds this ${media.kind} already: ${join(dir, held)}`);
      continue;
    }
    const state = isClaimed(destination) ? 'taken' : world.destination(destination, video, choice.drive.path);
    // `exists`, as for a file where a folder should be: something the scanner never writes through
    // stands on the way, and the owner settles it (a real folder there, or `Import as…` elsewhere).
    if (typeof state === 'object') {
      reject('exists', `${state.link} is a symbolic link: files are placed only through real folders`);
      continue;
    }
    if (state === 'taken') {
      reject('exists');
      continue;
    }
    claim(destination);
    const moves: PlannedMove['sidecars'] = [];
    for (const s of sidecars) {
      const suffix = (s.tags ? tagSuffix(s.tags) : '') + extensionOf(s.file.rel);
      let target = join(dir, rendered.stem + suffix);
      // Two subtitles of one language in one release (`Subs/2_English.srt`, `3_English.srt`): the
      // second is numbered, as Radarr names it, rather than left behind. Only this plan can have
      // claimed a name that starts with its video's.
      for (let n = 1; s.tags !== null && n < 10 && isClaimed(target); n++) {
        target = join(dir, `${rendered.stem}.${n}${suffix}`);
      }
      // Its video's folder, checked for links above.
      if (isClaimed(target) || world.destination(target, s.file, choice.drive.path) === 'taken') {
        skip(s.file, 'exists');
        continue;
      }
      claim(target);
      moves.push({ file: s.file, destination: target });
    }
    if (choice.drive.dev !== video.dev) {
      const used = video.size + moves.reduce((n, m) => n + m.file.size, 0);
      reserved.set(choice.drive.name, (reserved.get(choice.drive.name) ?? 0) + used);
    }
    if (choice.folder === null && folders.length > 0) {
      world.folders.add({ drive: choice.drive.name, section, root: choice.root, name: folders[0]! });
    }
    const numbered = media.kind === 'episode' && media.episodes.length > 0;
    plans.push({
      video,
      sidecars: moves,
      plan: {
        source: video.path,
        destination,
        kind: media.kind,
        title: media.title,
        year: media.year,
        season: numbered ? media.season : null,
        episodes: numbered ? [...media.episodes] : null,
        air_date: numbered ? null : media.air_date,
        drive: choice.drive.name,
        sidecars: moves.map((m) => ({ source: m.file.path, destination: m.destination })),
        ...(found.readings.length > 1 ? { candidates: candidatesOf(found.readings, video, bytes) } : {}),
      },
    });
  }

  plans.sort((a, b) => (a.video.rel < b.video.rel ? -1 : 1));
  const reported = kept ? skipped.filter((e) => kept.has(e.source)) : skipped;
  reported.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  return { plans, skipped: reported };
}
