import type { IndexItem } from '@mo/shared';
import { parseReleaseName } from '../parse/release-name.ts';
import { seasonOfFolder } from '../parse/season-folder.ts';
import { titleKey } from '../parse/title-key.ts';
import { namedForFolder } from './plan-placement.ts';
import { MAX_NAME_BYTES } from './safe-name.ts';
import { renderTemplate, type TemplateMedia } from './template.ts';
import { titleYearOfFolder } from '../library/classify.ts';
import { moviePart } from '../library/multi-part.ts';
import { withoutNameTags } from '../library/name-tags.ts';
import { folderTitleKey } from '../library/title-match.ts';

export interface OrganizeTemplates {
  movieTemplate: string;
  episodeTemplate: string;
}

export interface Rename {
  from: string;
  to: string;
  kind: 'movie' | 'episode' | 'folder';
  reason: string;
}

/** What the planner reads of an index item. */
export type OrganizeItem = Pick<
  IndexItem,
  'path' | 'section' | 'root' | 'folder' | 'ext' | 'type' | 'title' | 'year' | 'season' | 'episodes' | 'air_date' | 'extra'
>;

const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const dirOf = (path: string) => path.slice(0, path.lastIndexOf('/'));
const stemOf = (name: string, ext: string) => (ext !== '' && name.toLowerCase().endsWith(ext) ? name.slice(0, -ext.length) : name);

/** A rename and those that must go with it (a video's sidecars): all of them are listed, or none. */
export type Group = Rename[];

function mediaOf(item: OrganizeItem, folderName: string): TemplateMedia {
  const media: TemplateMedia = {
    kind: item.section === 'movies' ? 'movie' : 'episode',
    title: item.title!,
    year: item.year,
    season: item.season,
    episodes: item.episodes,
    air_date: item.air_date,
    edition: null,
    country: null,
  };
  // Named for its folder as the scanner names a file joining it: the folder's spelling, its country code.
  return namedForFolder(media, folderName);
}

/**
 * Whether `name` is the template's `rendered` name and more than a year (`Alien (1979) - Director's
 * Cut`, `Heat (1995) - 1080p`): an edition or version the user added, which the template cannot give
 * back. A year alone (`Heat (1995)` where the template gives `Heat`) is the template's to drop.
 */
function addsTo(name: string, rendered: string): boolean {
  const lower = name.toLowerCase();
  const start = rendered.toLowerCase();
  if (lower.length <= start.length || !lower.startsWith(start) || !/[\s._([{-]/.test(lower.charAt(start.length))) return false;
  return (
    lower
      .slice(start.length)
      .replace(/[([]\d{4}[)\]]/g, '')
      .replace(/[\s._-]/g, '') !== ''
  );
}

/** Whether the index read this video as one movie or one episode, sure enough to name it. */
function sureVideo(item: OrganizeItem): boolean {
  if (item.type !== 'video' || item.extra || item.title === null || item.folder === item.root) return false;
  if (item.section === 'movies') return item.year !== null && moviePart(stemOf(nameOf(item.path), item.ext)) === null;
  return item.air_date !== null || (item.season !== null && item.episodes.length > 0);
}

/**
 * Whether a video lies where the template puts a file of its kind, below its movie or series
 * folder: in the movie folder itself; in the series folder or a season folder of its own season.
 * Anywhere else its name is left alone, since moving it is more than a rename.
 */
function inPlace(item: OrganizeItem): boolean {
  const below = item.path.slice(item.folder.length + 1).split('/');
  if (below.length === 1) return true;
  if (item.section === 'movies' || below.length !== 2) return false;
  const season = item.season ?? (item.air_date === null ? null : Number(item.air_date.slice(0, 4)));
  return seasonOfFolder(below[0]!) === season;
}

/**
 * Whether a video's own name says it is another movie or series than its folder's (`Heat.1995.mkv`
 * filed in `Ronin (1998)`): the template would name it for the folder, and a misfiled file under
 * its folder's name is harder to find. A name that says no title with a year (`movie.mkv`) or no
 * series (`S01E02.mkv`) is named for its folder, as media servers read it.
 */
function namesAnother(item: OrganizeItem): boolean {
  const folder = folderTitleKey(nameOf(item.folder));
  const stem = stemOf(nameOf(item.path), item.ext);
  if (item.section === 'movies') {
    const own = titleYearOfFolder(stem);
    return own.year !== null && (own.year !== item.year || titleKey(own.title).key !== folder.key);
  }
  const parsed = parseReleaseName(nameOf(item.path));
  return parsed !== null && parsed.title.trim() !== '' && titleKey(parsed.title).key !== folder.key;
}

/** The sidecars of each video in one folder: files starting with its stem and a separator, longest stem first. */
function sidecarsOf(videos: readonly OrganizeItem[], others: readonly OrganizeItem[]): Map<OrganizeItem, { item: OrganizeItem; rest: string }[]> {
  const out = new Map<OrganizeItem, { item: OrganizeItem; rest: string }[]>();
  for (const other of others) {
    const stem = stemOf(nameOf(other.path), other.ext);
    const lower = stem.toLowerCase();
    let best: { video: OrganizeItem; length: number } | null = null;
    for (const v of videos) {
      const vs = stemOf(nameOf(v.path), v.ext).toLowerCase();
      const next = lower.charAt(vs.length);
      if (!lower.startsWith(vs) || (next !== '' && !/[._ -]/.test(next))) continue;
      if (!best || vs.length > best.length) best = { video: v, length: vs.length };
    }
    if (!best) continue;
    let list = out.get(best.video);
    if (!list) out.set(best.video, (list = []));
    list.push({ item: other, rest: stem.slice(best.length) });
  }
  return out;
}

function describe(item: OrganizeItem, media: TemplateMedia): string {
  if (media.kind === 'movie') return `${media.title} (${media.year})`;
  const marker =
    item.episodes.length > 0
      ? `S${String(item.season).padStart(2, '0')}${item.episodes.map((e) => `E${String(e).padStart(2, '0')}`).join('')}`
      : item.air_date!;
  return `${media.title} ${marker}`;
}

/** The renames of one movie or series folder's files, video by video with its sidecars. */
function fileGroups(items: readonly OrganizeItem[], templates: OrganizeTemplates): Group[] {
  const byDir = new Map<string, OrganizeItem[]>();
  for (const item of items) {
    const dir = dirOf(item.path);
    let list = byDir.get(dir);
    if (!list) byDir.set(dir, (list = []));
    list.push(item);
  }
  const groups: Group[] = [];
  for (const here of byDir.values()) {
    const videos = here.filter((i) => i.type === 'video');
    const sure = videos.filter((v) => sureVideo(v) && inPlace(v) && !namesAnother(v));
    // Two main videos of one movie (versions, parts) would take one name.
    if (sure.length === 0 || (sure[0]!.section === 'movies' && videos.filter((v) => !v.extra).length > 1)) continue;
    const sidecars = sidecarsOf(
      videos,
      here.filter((i) => i.type !== 'video'),
    );
    for (const video of sure) {
      const folderName = nameOf(video.folder);
      const media = mediaOf(video, folderName);
      const template = media.kind === 'movie' ? templates.movieTemplate : templates.episodeTemplate;
      const { stem } = renderTemplate(template, media, video.ext);
      const oldStem = stemOf(nameOf(video.path), video.ext);
      // Provider ids and an edition in a file's name are the user's own marks, which no template gives back.
      if (stem === oldStem || addsTo(oldStem, stem) || withoutNameTags(oldStem) !== oldStem.trim()) continue;
      const dir = dirOf(video.path);
      const what = describe(video, media);
      const group: Group = [
        {
          from: video.path,
          to: `${dir}/${stem}${video.ext}`,
          kind: media.kind,
          reason: `the file name is not what the ${media.kind} template gives for ${what}`,
        },
      ];
      for (const { item, rest } of sidecars.get(video) ?? []) {
        // One named for the new name already (`Heat (1995).en.srt` beside `heat.mkv`) keeps what follows
        // that name, not what follows the old one (`Heat (1995) (1995).en.srt`).
        const own = stemOf(nameOf(item.path), item.ext);
        const next = own.charAt(stem.length);
        const after = own.toLowerCase().startsWith(stem.toLowerCase()) && (next === '' || /[._ -]/.test(next)) ? own.slice(stem.length) : rest;
        const to = `${dir}/${stem}${after}${item.ext}`;
        if (to !== item.path) group.push({ from: item.path, to, kind: media.kind, reason: `it goes with the video of ${what}` });
      }
      groups.push(group);
    }
  }
  return groups;
}

/** The rename of a movie or series folder, or null where its name is the template's or the index is unsure of it. */
function folderGroup(folder: string, items: readonly OrganizeItem[], templates: OrganizeTemplates): Group | null {
  const name = nameOf(folder);
  // Provider ids and editions are the user's own marks; a country code beside a year would be lost
  // (`The Office (2005) (US)` renders `The Office (US)`).
  if (withoutNameTags(name) !== name.trim() || folderTitleKey(name).country !== null) return null;
  const video = items.find(sureVideo);
  if (!video) return null;
  const media = mediaOf(video, name);
  const template = media.kind === 'movie' ? templates.movieTemplate : templates.episodeTemplate;
  const rendered = renderTemplate(template, media, video.ext).folders[0];
  if (rendered === undefined || rendered === name || addsTo(name, rendered)) return null;
  const what = media.kind === 'movie' ? `${media.title} (${media.year})` : media.title;
  return [
    { from: folder, to: `${dirOf(folder)}/${rendered}`, kind: 'folder', reason: `the folder name is not what the ${media.kind} template gives for ${what}` },
  ];
}

/** Every path the index knows, lower-case: its files and the folders between them and their library folder. */
function knownPaths(items: readonly OrganizeItem[]): Set<string> {
  const known = new Set<string>();
  for (const item of items) {
    known.add(item.path.toLowerCase());
    for (let dir = dirOf(item.path); dir.length > item.root.length && !known.has(dir.toLowerCase()); dir = dirOf(dir)) known.add(dir.toLowerCase());
  }
  return known;
}

/**
 * The renames that give each file and folder of the library the name the templates give for what
 * the index read of it (docs/scanner.md "Organizing the library"). Each changes only the last
 * segment of its path, so none leaves its folder, its library folder or its drive; they run in the
 * order listed, a folder's files (named under the folder's current name) before the folder itself.
 * A rename onto a path the index holds (any case, other than its own), or onto the target of
 * another, is left out with its video's whole group: wrong is worse than unknown.
 */
export function planOrganize(items: readonly OrganizeItem[], templates: OrganizeTemplates): Rename[] {
  return organizeGroups(items, templates).flat();
}

/** planOrganize's renames as the groups they are carried out in: a video with its sidecars, or a folder. */
export function organizeGroups(items: readonly OrganizeItem[], templates: OrganizeTemplates): Group[] {
  const byFolder = new Map<string, OrganizeItem[]>();
  for (const item of items) {
    if (item.folder === item.root) continue;
    let list = byFolder.get(item.folder);
    if (!list) byFolder.set(item.folder, (list = []));
    list.push(item);
  }
  const groups: Group[] = [];
  for (const [folder, here] of byFolder) {
    groups.push(...fileGroups(here, templates));
    const folderRename = folderGroup(folder, here, templates);
    if (folderRename) groups.push(folderRename);
  }
  const known = knownPaths(items);
  const targets = new Map<string, number>();
  for (const group of groups) for (const r of group) targets.set(r.to.toLowerCase(), (targets.get(r.to.toLowerCase()) ?? 0) + 1);
  const free = (r: Rename) => {
    const to = r.to.toLowerCase();
    const name = nameOf(r.to);
    // A sidecar keeps what followed its video's old name, so its new name can outgrow what a filesystem takes.
    const fits = Buffer.byteLength(name) <= MAX_NAME_BYTES;
    return fits && name !== '.' && name !== '..' && targets.get(to) === 1 && (to === r.from.toLowerCase() || !known.has(to));
  };
  return groups.filter((g) => g.every(free));
}
