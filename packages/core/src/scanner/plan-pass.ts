import { join } from 'node:path';
import type { z } from 'zod';
import { qualityWords, type candidateSchema, type planSchema, type skippedSchema } from '@mo/shared';
import type { DriveSpace, ExistingFolder } from './choose-drive.ts';
import { extensionOf, fileType, type FileTypeOptions, isInExtrasFolder, isPartial, isSampleByName, isSampleSize, isSettled } from './download-rules.ts';
import type { FolderLookup } from './folder-lookup.ts';
import { identify, type IdentifyContext, type Identified, type ProviderAnswers } from './identify.ts';
import type { AliasTable } from './aliases.ts';
import { attachSidecars, type Attached } from './sidecars.ts';
import { tagSuffix } from '../languages/subtitle-tags.ts';
import { parseQuality } from '../parse/quality.ts';
import { checkTemplate, type TemplateMedia } from './template.ts';
import { candidatesOf, folderPathOf, heldVideo, placement, type Placement } from './plan-placement.ts';

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

export interface PlannedMove {
  plan: Plan;
  video: DownloadFile;
  sidecars: { file: DownloadFile; destination: string }[];
  /** An upgrade: the library's video of this movie or episode and its sidecars (absolute paths), to the recycle bin first. */
  replaces?: { video: string; sidecars: string[] };
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

function skipEntry(f: DownloadFile, reason: SkipReason, detail?: string): Skipped {
  return detail === undefined ? { source: f.path, reason } : { source: f.path, reason, detail };
}

/** The names in each folder below the downloads folder: a partial download is told by its siblings too. */
function namesByFolder(files: readonly DownloadFile[]): Map<string, Set<string>> {
  const siblings = new Map<string, Set<string>>();
  for (const f of files) {
    const dir = dirOf(f.rel);
    let set = siblings.get(dir);
    if (!set) siblings.set(dir, (set = new Set()));
    set.add(nameOf(f.rel));
  }
  return siblings;
}

/** A pass's downloads as videos with the sidecars that travel with each, and the skips of every other file. */
function groupDownloads(
  files: readonly DownloadFile[],
  types: FileTypeOptions,
): { videos: DownloadFile[]; attached: Map<DownloadFile, Attached<DownloadFile>[]>; skipped: Skipped[] } {
  const siblings = namesByFolder(files);
  const skipped: Skipped[] = [];
  const videos: DownloadFile[] = [];
  const sidecarFiles: DownloadFile[] = [];
  for (const f of files) {
    if (isPartial(f.rel.split('/'), siblings.get(dirOf(f.rel))!)) {
      skipped.push(skipEntry(f, 'partial'));
      continue;
    }
    const type = fileType(nameOf(f.rel), types);
    if (type === 'video') videos.push(f);
    else if (type === 'subtitle' || type === 'nfo') sidecarFiles.push(f);
    else skipped.push(skipEntry(f, 'unrecognized', 'not a video, subtitle or .nfo file'));
  }
  const { attached, orphans } = attachSidecars(videos, sidecarFiles);
  for (const o of orphans) skipped.push(skipEntry(o, 'unrecognized', 'no video it belongs to'));
  return { videos, attached, skipped };
}

/**
 * The skips of a video and its sidecars (`members`, the video first) decided before its name is
 * read: imported already, undone, a sample, still settling; null when it goes on to be identified.
 */
export function refusedUnread(
  video: DownloadFile,
  members: readonly DownloadFile[],
  opts: Pick<PlanOptions, 'nowMs' | 'settleSeconds' | 'sampleMaxBytes'>,
  world: Pick<PlanWorld, 'imported' | 'undone'>,
): Skipped[] | null {
  // Before any other rule: a seeding download already in the library is no news each pass.
  if (world.imported?.(video)) return members.map((m) => skipEntry(m, 'imported', world.imported?.(m) ? undefined : 'its video was imported already'));
  const all = (reason: SkipReason, detail?: string) => members.map((m) => skipEntry(m, reason, detail));
  if (world.undone?.(video)) return all('undone', 'its import was undone; rename or change it to import it again');
  if (isSampleByName(video.rel.split('/'))) return all('sample');
  if (!members.every((m) => isSettled(m.mtimeMs, opts.nowMs, opts.settleSeconds))) return all('settling');
  if (isSampleSize(video.size, opts.sampleMaxBytes)) return all('sample');
  return null;
}

/** One pass's planning: what it was given, and what it has handed out so far. */
interface Planner {
  opts: PlanOptions;
  world: PlanWorld;
  videoExtensions: ReadonlySet<string>;
  identifyContext: IdentifyContext;
  skipped: Skipped[];
  /** Destinations (videos' and sidecars') given out in this pass, lower-cased. */
  claimed: Set<string>;
  /** Bytes promised on each drive by the moves planned so far that cross devices. */
  reserved: Map<string, number>;
}

const claim = (p: Planner, path: string) => p.claimed.add(path.toLowerCase());
const isClaimed = (p: Planner, path: string) => p.claimed.has(path.toLowerCase());

/** The owner's word (a manual import): the library folder of that title, if the library has one. */
function forcedAs(world: PlanWorld, media: TemplateMedia): Identified {
  const fit = world.folders.find(media.kind === 'movie' ? 'movies' : 'tv', media);
  if (fit.kind === 'ambiguous') {
    const paths = fit.folders.map((f) => folderPathOf(world, f));
    return { ok: false, reason: 'ambiguous', detail: `library folders that fit: ${paths.join(', ')}`, readings: [] };
  }
  return { ok: true, media, folders: fit.folders, readings: [] };
}

/** What the video is: nothing in an extras folder, else the owner's word for it, else what its name reads as. */
function identifyVideo(p: Planner, video: DownloadFile): Identified {
  const forced = p.world.forced?.(video) ?? null;
  if (isInExtrasFolder(video.rel.split('/'))) return { ok: false, reason: 'unrecognized', detail: 'in an extras folder', readings: [] };
  return forced !== null ? forcedAs(p.world, forced) : identify(video.rel, p.identifyContext);
}

const inWords = (name: string) => qualityWords(parseQuality(name)) ?? 'quality unknown';

/** An `exists` detail that names the held file and both qualities, so the owner sees why it stays. */
function heldDetail(kind: TemplateMedia['kind'], path: string, held: string, download: string): string {
  return `the library holds this ${kind} already: ${path} (${inWords(held)}); this download: ${inWords(download)}`;
}

/**
 * Why the video may not go to its placement, as the detail of an `exists` skip (none where absent),
 * or null when it may: the library holds it already, the destination is taken, or on the way to it.
 */
function destinationBlocked(p: Planner, media: TemplateMedia, place: Placement, video: DownloadFile): { detail?: string } | null {
  const { choice, dir, rendered, destination } = place;
  const held = choice.folder !== null ? heldVideo(media, rendered.name, rendered.stem, p.world.files?.(dir) ?? [], p.videoExtensions) : null;
  if (held !== null) return { detail: heldDetail(media.kind, join(dir, held), held, video.rel) };
  const state = isClaimed(p, destination) ? 'taken' : p.world.destination(destination, video, choice.drive.path);
  // `exists`, as for a file where a folder should be: something the scanner never writes through
  // stands on the way, and the owner settles it (a real folder there, or `Import as…` elsewhere).
  if (typeof state === 'object') return { detail: `${state.link} is a symbolic link: files are placed only through real folders` };
  return state === 'taken' ? {} : null;
}

/** The sidecars' destinations beside their video, named for its stem; one that finds its name taken is skipped. */
function placeSidecars(p: Planner, sidecars: readonly Attached<DownloadFile>[], place: Placement): PlannedMove['sidecars'] {
  const { dir, rendered, choice } = place;
  const moves: PlannedMove['sidecars'] = [];
  for (const s of sidecars) {
    const suffix = (s.tags ? tagSuffix(s.tags) : '') + extensionOf(s.file.rel);
    let target = join(dir, rendered.stem + suffix);
    // Two subtitles of one language in one release (`Subs/2_English.srt`, `3_English.srt`): the
    // second is numbered, as Radarr names it, rather than left behind. Only this plan can have
    // claimed a name that starts with its video's.
    for (let n = 1; s.tags !== null && n < 10 && isClaimed(p, target); n++) {
      target = join(dir, `${rendered.stem}.${n}${suffix}`);
    }
    // Its video's folder, checked for links above.
    if (isClaimed(p, target) || p.world.destination(target, s.file, choice.drive.path) === 'taken') {
      p.skipped.push(skipEntry(s.file, 'exists'));
      continue;
    }
    claim(p, target);
    moves.push({ file: s.file, destination: target });
  }
  return moves;
}

/** Holds what a planned move takes for the rest of the pass: room on another device's drive, a new library folder. */
function holdPlacement(p: Planner, video: DownloadFile, place: Placement, moves: PlannedMove['sidecars']): void {
  const { choice, folders, section } = place;
  if (choice.drive.dev !== video.dev) {
    const used = video.size + moves.reduce((n, m) => n + m.file.size, 0);
    p.reserved.set(choice.drive.name, (p.reserved.get(choice.drive.name) ?? 0) + used);
  }
  if (choice.folder === null && folders.length > 0) {
    p.world.folders.add({ drive: choice.drive.name, section, root: choice.root, name: folders[0]! });
  }
}

function planOf(video: DownloadFile, media: TemplateMedia, place: Placement, moves: PlannedMove['sidecars'], candidates: Candidate[] | null): Plan {
  const numbered = media.kind === 'episode' && media.episodes.length > 0;
  return {
    source: video.path,
    destination: place.destination,
    kind: media.kind,
    title: media.title,
    year: media.year,
    season: numbered ? media.season : null,
    episodes: numbered ? [...media.episodes] : null,
    air_date: numbered ? null : media.air_date,
    drive: place.choice.drive.name,
    sidecars: moves.map((m) => ({ source: m.file.path, destination: m.destination })),
    quality: parseQuality(video.rel),
    ...(candidates !== null ? { candidates } : {}),
  };
}

/** The move of one video and its sidecars; null when it is skipped, its skips (and theirs) noted. */
function planVideo(p: Planner, video: DownloadFile, sidecars: readonly Attached<DownloadFile>[]): PlannedMove | null {
  const members = [video, ...sidecars.map((s) => s.file)];
  const refused = refusedUnread(video, members, p.opts, p.world);
  if (refused) {
    p.skipped.push(...refused);
    return null;
  }
  const reject = (reason: SkipReason, detail?: string) => {
    for (const m of members) p.skipped.push(skipEntry(m, reason, detail));
    return null;
  };
  const found = identifyVideo(p, video);
  const bytes = members.reduce((n, m) => n + m.size, 0);
  if (!found.ok) {
    // The readings go with the video alone: sidecars follow it, in a pass and in `Import as…`.
    const candidates = candidatesOf(found.readings, video, bytes, p.opts, p.world);
    p.skipped.push({ source: video.path, reason: found.reason, detail: found.detail, candidates });
    for (const s of sidecars) p.skipped.push(skipEntry(s.file, found.reason, found.detail));
    return null;
  }
  const place = placement(found.media, found.folders, video, bytes, p.reserved, p.opts, p.world);
  if (!place) return reject('no_drive');
  const blocked = destinationBlocked(p, found.media, place, video);
  if (blocked) return reject('exists', blocked.detail);
  claim(p, place.destination);
  const moves = placeSidecars(p, sidecars, place);
  holdPlacement(p, video, place, moves);
  const candidates = found.readings.length > 1 ? candidatesOf(found.readings, video, bytes, p.opts, p.world) : null;
  return { video, sidecars: moves, plan: planOf(video, found.media, place, moves, candidates) };
}

/**
 * Every file gets a plan (a video, with the subtitles and .nfo that travel with it) or a skip
 * reason. Pure apart from `world.destination`: nothing is read or written here.
 */
export function planPass(files: readonly DownloadFile[], opts: PlanOptions, world: PlanWorld): PassPlan {
  checkTemplate(opts.movieTemplate, 'movie', 'library.movie_template');
  checkTemplate(opts.episodeTemplate, 'episode', 'library.episode_template');
  const types = { videoExtensions: new Set(opts.videoExtensions), subtitleExtensions: new Set(opts.subtitleExtensions) };
  const { videos, attached, skipped } = groupDownloads(files, types);
  // A manual import plans its own videos and their sidecars, and says nothing of the other files.
  const chosen = world.only ? videos.filter((v) => world.only!(v)) : videos;
  const kept = world.only ? new Set(chosen.flatMap((v) => [v.path, ...(attached.get(v) ?? []).map((s) => s.file.path)])) : null;

  const identifyContext = {
    folders: world.folders,
    aliases: world.aliases ?? (() => null),
    provider: world.provider,
    folderName: (f: ExistingFolder) => folderPathOf(world, f),
  };
  const p: Planner = { opts, world, videoExtensions: types.videoExtensions, identifyContext, skipped, claimed: new Set(), reserved: new Map() };
  // Largest first: when two downloads want one destination the bigger (better) copy wins, and the
  // big files get the pick of the drives.
  const order = [...chosen].sort((a, b) => b.size - a.size || (a.rel < b.rel ? -1 : 1));
  const plans: PlannedMove[] = [];
  for (const video of order) {
    const planned = planVideo(p, video, attached.get(video) ?? []);
    if (planned) plans.push(planned);
  }

  plans.sort((a, b) => (a.video.rel < b.video.rel ? -1 : 1));
  const reported = kept ? skipped.filter((e) => kept.has(e.source)) : skipped;
  reported.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  return { plans, skipped: reported };
}
