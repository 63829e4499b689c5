import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Alias, ManualAs } from '@mo/shared';
import { AppError } from '../errors.ts';
import { titleYearOfFolder } from '../library/classify.ts';
import { folderTitleKey } from '../library/title-match.ts';
import { identityOf, titleKey } from '../parse/title-key.ts';
import { parseRelease } from '../parse/release-name.ts';
import { readingsOf } from '../parse/readings.ts';
import { fileType, isSampleByName } from './download-rules.ts';
import { seriesOfFolderName } from './aliases.ts';
import type { DownloadFile, Skipped } from './plan-pass.ts';
import type { TemplateMedia } from './template.ts';

/** What a manual import takes: a video, or a folder of one season's videos, below the downloads folder. */
export interface ManualTarget {
  /** Below the downloads folder, `/`-separated, symlinks followed. */
  rel: string;
  folder: boolean;
}

export interface ManualImport {
  target: ManualTarget;
  as: ManualAs;
  /** The owner's word that its videos replace the library's files of them, whatever their qualities. */
  replace?: boolean;
}

const badPath = (message: string) => new AppError('bad_request', `path: ${message}`, { key: 'path' });
const outside = () => new AppError('forbidden', 'path: outside the downloads folder', { key: 'path' });

function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * Where `raw` lies in the downloads folder once symlinks are followed: a link inside that points
 * out is outside (403), as is a `..` that climbs out, and so is a library folder on a drive that lies
 * in the downloads folder, or a folder holding one; absent is 404 (outside it is 403 whether or not
 * it exists, so the answer says nothing of other folders).
 */
export async function resolveManualTarget(downloads: string, raw: string, libraryDirs: readonly string[] = []): Promise<ManualTarget> {
  if (raw.includes('\0')) throw badPath('must not contain NUL bytes');
  if (!isAbsolute(raw)) throw badPath('must be an absolute path');
  const requested = resolve(raw);
  const root = await realpath(downloads).catch(() => {
    throw new AppError('not_found', `path: the downloads folder ${downloads} does not exist`, { key: 'path' });
  });
  if (requested === resolve(downloads) || requested === root) throw badPath('must be a file or folder inside the downloads folder, not the folder itself');
  const nominallyInside = inside(requested, resolve(downloads)) || inside(requested, root);
  let real: string;
  try {
    real = await realpath(requested);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (!nominallyInside) throw outside();
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new AppError('not_found', `path: no such file or folder: ${requested}`, { key: 'path' });
    if (code === 'ELOOP') throw badPath('too many levels of symbolic links');
    throw new AppError('forbidden', `path: cannot be read (${code ?? 'error'})`, { key: 'path' });
  }
  if (!inside(real, root)) throw outside();
  // A drive inside the downloads folder: its library is no download, whatever a request names it.
  for (const dir of libraryDirs) {
    const lib = await realpath(dir).catch(() => null);
    if (lib !== null && (real === lib || inside(real, lib) || inside(lib, real))) {
      throw new AppError('forbidden', `path: ${requested} is or holds the library folder ${dir}, not a download`, { key: 'path' });
    }
  }
  const info = await stat(real).catch(() => {
    throw new AppError('not_found', `path: no such file or folder: ${requested}`, { key: 'path' });
  });
  if (!info.isFile() && !info.isDirectory()) throw badPath('must be a file or a folder');
  return { rel: relative(root, real).split(sep).join('/'), folder: info.isDirectory() };
}

const badAs = (key: string, message: string) => new AppError('bad_request', `as.${key}: ${message}`, { key: `as.${key}` });

/** The request's `as` against what the path is: a folder's episodes come from each file's name. */
export function checkManualRequest(target: ManualTarget, as: ManualAs, videoExtensions: readonly string[]): void {
  if (!target.folder && fileType(target.rel, { videoExtensions: new Set(videoExtensions), subtitleExtensions: new Set() }) !== 'video') {
    throw badPath(`not a video (videos end in ${videoExtensions.join(', ')}); its subtitles and .nfo go with their video`);
  }
  if (as.kind !== 'episode') return;
  if (target.folder && as.episodes !== undefined) throw badAs('episodes', "leave it out for a folder: each file's episodes are read from its own name");
  if (target.folder && as.air_date !== undefined) throw badAs('air_date', 'not for a folder: import a daily show file by file');
  if (!target.folder && as.air_date === undefined && as.episodes === undefined)
    throw badAs('episodes', 'is required for a file (or air_date, for a daily show)');
  const named = titleYearOfFolder(as.title);
  if (named.year !== null && as.year != null && named.year !== as.year) throw badAs('year', `${as.year} differs from the year the title names (${named.year})`);
}

/** A title as a library folder spells it (`Doctor Who (2005)`, `The Office (US)`), split as the template wants it. */
function spelledTitle(title: string, year: number | null): { title: string; year: number | null; country: string | null } {
  const named = seriesOfFolderName(title);
  return { ...named, year: named.year ?? year };
}

/** What the owner said, as the planner names files; for a folder, with the episodes of one file. */
export function forcedMedia(as: ManualAs, episodes?: readonly number[]): TemplateMedia {
  if (as.kind === 'movie') {
    const t = spelledTitle(as.title, as.year);
    return { kind: 'movie', title: t.title, year: t.year, season: null, episodes: [], air_date: null, edition: null, country: null };
  }
  const t = spelledTitle(as.title, as.year ?? null);
  const dated = as.air_date !== undefined;
  return {
    kind: 'episode',
    title: t.title,
    year: t.year,
    season: dated ? null : as.season!,
    episodes: dated ? [] : [...(episodes ?? as.episodes ?? [])],
    air_date: as.air_date ?? null,
    edition: null,
    country: t.country,
  };
}

/** A file's episode numbers as its own name gives them, in the season said, or why they cannot be taken. */
function episodesOfName(rel: string, season: number): { ok: true; episodes: number[] } | { ok: false; detail: string } {
  const parsed = parseRelease(rel);
  // A pack folder may hold another season's episode, or another show's: its own name says so.
  if (parsed.ok && parsed.media.season !== null && parsed.media.season !== season) {
    return { ok: false, detail: `its name gives season ${parsed.media.season}, not season ${season}; import it on its own` };
  }
  if (parsed.ok && parsed.media.episodes.length > 0) return { ok: true, episodes: parsed.media.episodes };
  // Anime numbers run across seasons (episode 25 may be the first of season 3): a guess would misfile it.
  if (parsed.ok && parsed.media.absolute_episodes.length > 0) {
    return {
      ok: false,
      detail: `its name gives only an absolute episode number (${parsed.media.absolute_episodes.join(', ')}); import it on its own, naming its episode`,
    };
  }
  return { ok: false, detail: 'no episode number could be read from its name; import it on its own, naming its episode' };
}

export interface ManualChoice {
  only(video: DownloadFile): boolean;
  forced(video: DownloadFile): TemplateMedia | null;
  replace(video: DownloadFile): boolean;
  /** Videos of a folder whose episodes their names do not give: left behind, with why. */
  unread: Skipped[];
}

/** The videos a manual import takes from the walked files, and what each is. */
export function manualChoice(files: readonly DownloadFile[], m: ManualImport, videoExtensions: readonly string[]): ManualChoice {
  const types = { videoExtensions: new Set(videoExtensions), subtitleExtensions: new Set<string>() };
  const within = (f: DownloadFile) => (m.target.folder ? f.rel.startsWith(`${m.target.rel}/`) : f.rel === m.target.rel);
  const media = new Map<string, TemplateMedia>();
  const unread: Skipped[] = [];
  const videos = files.filter((f) => within(f) && fileType(f.rel, types) === 'video');
  // `Heat.1995/CD1.avi` and `CD2.avi`: one of them would become the movie and the other stay behind.
  if (m.target.folder && m.as.kind === 'movie' && videos.filter((f) => !isSampleByName(f.rel.split('/'))).length > 1) {
    throw badPath('holds several videos, and a movie is one file: import the one that is the movie');
  }
  for (const f of videos) {
    if (!m.target.folder || m.as.kind === 'movie') {
      media.set(f.path, forcedMedia(m.as));
      continue;
    }
    const read = episodesOfName(f.rel, m.as.season ?? 0);
    if (read.ok) media.set(f.path, forcedMedia(m.as, read.episodes));
    else unread.push({ source: f.path, reason: 'unrecognized', detail: read.detail });
  }
  return { only: (v) => media.has(v.path), forced: (v) => media.get(v.path) ?? null, replace: (v) => m.replace === true && media.has(v.path), unread };
}

/**
 * The series name a download gives, as an alias names it (`Doctor Who`, `The Office (US)`), or null
 * where the parser reads no title: what `remember` saves.
 */
export function downloadSeriesName(rel: string): string | null {
  const { primary, alternatives } = readingsOf(rel);
  const reading = primary.ok ? primary.media : alternatives[0];
  if (!reading || reading.title.trim() === '') return null;
  return [reading.title, reading.year !== null ? `(${reading.year})` : '', reading.country !== null ? `(${reading.country})` : ''].filter(Boolean).join(' ');
}

/** The series folder an episode's destination lies in: `<drive>/<TV folder>/<series>/…`. */
export function seriesFolderOf(destination: string, drives: readonly { path: string }[], tvFolders: readonly string[]): string | null {
  for (const d of drives) {
    const rel = relative(d.path, destination);
    if (rel.startsWith('..') || isAbsolute(rel)) continue;
    const [root, series] = rel.split(sep);
    if (root !== undefined && series !== undefined && tvFolders.includes(root)) return series;
  }
  return null;
}

/**
 * The aliases after `add`: the owner's latest word for a name replaces an older one of the same
 * name; a name the folder's own title already files there (`Doctor Who (2005)` for
 * `Doctor.Who.2005`) needs none.
 */
export function withAliases(existing: readonly Alias[], add: readonly Alias[]): { aliases: Alias[]; added: Alias[] } {
  let aliases = [...existing];
  const added: Alias[] = [];
  for (const a of add) {
    const name = identityOf(titleKey(a.name));
    if (name === identityOf(folderTitleKey(a.series))) continue;
    if (aliases.some((x) => identityOf(titleKey(x.name)) === name && x.series === a.series)) continue;
    aliases = aliases.filter((x) => identityOf(titleKey(x.name)) !== name);
    aliases.push(a);
    added.push(a);
  }
  return { aliases, added };
}

const WHY: Partial<Record<Skipped['reason'], string>> = {
  exists: 'the library holds it already',
  settling: 'it is still being written; try again once it has settled',
  partial: 'it is an unfinished download',
  sample: 'it is a sample',
  imported: 'it was imported already',
  no_drive: 'no drive has a library folder for it with room to spare',
  undone: 'its import was undone',
};

/**
 * Why a manual import would import nothing, as the answer's error; null when it imports something.
 * Several library folders fitting the title is the request's fault (name one, year included); the
 * rest is the state of the files.
 */
export function nothingImported(plans: readonly unknown[], skipped: readonly Skipped[], videoExtensions: readonly string[]): AppError | null {
  if (plans.length > 0) return null;
  const types = { videoExtensions: new Set(videoExtensions), subtitleExtensions: new Set<string>() };
  const first = skipped.find((s) => fileType(s.source, types) === 'video');
  if (!first) return new AppError('not_found', 'path: holds no video to import', { key: 'path' });
  const details = { reason: first.reason, path: first.source, ...(first.detail ? { detail: first.detail } : {}) };
  if (first.reason === 'ambiguous') {
    return new AppError('bad_request', `as.title: several library folders fit this title (${first.detail ?? ''}); name one as it is spelled, year included`, {
      key: 'as.title',
      ...details,
    });
  }
  if (first.reason === 'unrecognized')
    return new AppError('conflict', `${first.source} cannot be imported: ${first.detail ?? 'its name could not be read'}`, details);
  const why = WHY[first.reason] ?? first.reason;
  return new AppError('conflict', `${first.source} cannot be imported: ${why}${first.detail ? ` (${first.detail})` : ''}`, details);
}
