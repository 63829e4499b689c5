/**
 * The Organize view's decisions, kept pure: which movie or series each proposed rename belongs to,
 * which renames travel together (a video and its subtitles), what the ticks send, and what the
 * API's answer to an apply says.
 */

export interface Rename {
  from: string;
  to: string;
  kind: 'movie' | 'episode' | 'folder';
  reason: string;
}

/** A library folder of one drive (`/m/disk1/Movies`) and what its folders hold. */
export interface LibraryRoot {
  path: string;
  holds: 'movie' | 'series';
}

/** One tickable line: a video (with the subtitles and .nfo files whose names follow it) or a folder. */
export interface Line {
  rename: Rename;
  sidecars: Rename[];
}

/** The renames of one movie or series folder. */
export interface Group {
  /** The folder as it is named now. */
  folder: string;
  holds: 'movie' | 'series';
  lines: Line[];
}

const dirOf = (path: string) => path.slice(0, path.lastIndexOf('/'));

export const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** Each drive's movie and TV folders, as the config names them. */
export function libraryRoots(config: {
  drives: readonly { path: string }[];
  library: { movie_folders: readonly string[]; tv_folders: readonly string[] };
}): LibraryRoot[] {
  const join = (drive: string, folder: string) => `${drive.replace(/\/+$/, '')}/${folder.replace(/^\/+|\/+$/g, '')}`;
  return config.drives.flatMap((d) => [
    ...config.library.movie_folders.map((f) => ({ path: join(d.path, f), holds: 'movie' as const })),
    ...config.library.tv_folders.map((f) => ({ path: join(d.path, f), holds: 'series' as const })),
  ]);
}

/**
 * The movie or series folder a path lies in: the first folder below its library folder (the
 * longest that holds it). A path in none of them (the config changed since the scan) goes with its
 * own folder, or is that folder when the rename is of a folder.
 */
function folderOf(r: Rename, roots: readonly LibraryRoot[]): { folder: string; holds: 'movie' | 'series' } {
  const root = roots.filter((x) => r.from.startsWith(`${x.path}/`)).sort((a, b) => b.path.length - a.path.length)[0];
  const guess = r.kind === 'episode' ? 'series' : 'movie';
  if (!root) return { folder: r.kind === 'folder' ? r.from : dirOf(r.from), holds: guess };
  const first = r.from.slice(root.path.length + 1).split('/')[0]!;
  return { folder: `${root.path}/${first}`, holds: root.holds };
}

/**
 * The renames by movie or series folder, in the order the API lists them (a folder's files before
 * the folder). A subtitle or .nfo that follows its video in the list, in the same folder, is that
 * video's sidecar: ticked and unticked with it, as the API plans them together.
 */
export function groupRenames(renames: readonly Rename[], roots: readonly LibraryRoot[], isVideo: (path: string) => boolean): Group[] {
  const groups = new Map<string, Group>();
  let video: Line | null = null;
  for (const r of renames) {
    const { folder, holds } = folderOf(r, roots);
    let group = groups.get(folder);
    if (!group) groups.set(folder, (group = { folder, holds, lines: [] }));
    if (r.kind !== 'folder' && !isVideo(r.from) && video && dirOf(video.rename.from) === dirOf(r.from)) {
      video.sidecars.push(r);
      continue;
    }
    const line: Line = { rename: r, sidecars: [] };
    video = r.kind === 'folder' ? null : line;
    group.lines.push(line);
  }
  return [...groups.values()];
}

/** Every path a line renames: its own and its sidecars'. */
export const pathsOf = (line: Line): string[] => [line.rename.from, ...line.sidecars.map((s) => s.from)];

/**
 * What `Apply` sends: the `from` of each ticked line and its sidecars, or undefined (all of them)
 * when nothing is unticked, so that the body stays small for a library of thousands of renames.
 */
export function chosenPaths(groups: readonly Group[], unticked: ReadonlySet<string>): string[] | undefined {
  const lines = groups.flatMap((g) => g.lines);
  if (lines.every((l) => !unticked.has(l.rename.from))) return undefined;
  return lines.filter((l) => !unticked.has(l.rename.from)).flatMap(pathsOf);
}

/** How many files and folders the ticked lines rename, sidecars counted as files. */
export function chosenCounts(groups: readonly Group[], unticked: ReadonlySet<string>): { files: number; folders: number } {
  let files = 0;
  let folders = 0;
  for (const line of groups.flatMap((g) => g.lines)) {
    if (unticked.has(line.rename.from)) continue;
    if (line.rename.kind === 'folder') folders += 1;
    else files += 1 + line.sidecars.length;
  }
  return { files, folders };
}

/** A group's box: ticked, unticked, or some of each (shown as indeterminate). */
export function groupState(group: Group, unticked: ReadonlySet<string>): 'all' | 'none' | 'some' {
  const off = group.lines.filter((l) => unticked.has(l.rename.from)).length;
  return off === 0 ? 'all' : off === group.lines.length ? 'none' : 'some';
}

/** The unticked set after the group's box is clicked: a full group is emptied, anything else filled. */
export function toggleGroup(group: Group, unticked: ReadonlySet<string>): Set<string> {
  const next = new Set(unticked);
  const fill = groupState(group, unticked) !== 'all';
  for (const l of group.lines) {
    if (fill) next.delete(l.rename.from);
    else next.add(l.rename.from);
  }
  return next;
}

export interface Renamed {
  renamed: { from: string; to: string }[];
  skipped: { from: string; reason: string }[];
}

export type ApplyAnswer =
  { kind: 'dry_run'; renames: Rename[] } | { kind: 'done'; result: Renamed } | { kind: 'queued'; job: { queue: string; id: string } } | { kind: 'unknown' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A finished apply's result (`{renamed, skipped}`), or null when `value` is not one. */
export function readRenamed(value: unknown): Renamed | null {
  if (!isObject(value) || !Array.isArray(value.renamed) || !Array.isArray(value.skipped)) return null;
  const renamed = value.renamed.filter((r): r is { from: string; to: string } => isObject(r) && typeof r.from === 'string' && typeof r.to === 'string');
  const skipped = value.skipped.filter((s): s is { from: string; reason: string } => isObject(s) && typeof s.from === 'string' && typeof s.reason === 'string');
  return { renamed, skipped };
}

/**
 * What `POST /api/library/organize` answered: the dry run's list, the job's result (it finished
 * within the wait), or the job to follow (202). Read from the body itself, since the answer's type
 * depends on dry run and on how long the renames take.
 */
export function readApplyAnswer(answer: unknown): ApplyAnswer {
  if (!isObject(answer)) return { kind: 'unknown' };
  if (answer.dry_run === true && Array.isArray(answer.renames)) return { kind: 'dry_run', renames: answer.renames as Rename[] };
  const done = readRenamed(answer);
  if (done) return { kind: 'done', result: done };
  const job = answer.job;
  if (isObject(job) && typeof job.queue === 'string' && typeof job.id === 'string') return { kind: 'queued', job: { queue: job.queue, id: job.id } };
  return { kind: 'unknown' };
}

/** A `library` job's `{done, total}` progress, or null before its first report. */
export function readCount(progress: unknown): { done: number; total: number } | null {
  if (!isObject(progress) || typeof progress.done !== 'number' || typeof progress.total !== 'number') return null;
  return { done: progress.done, total: progress.total };
}
