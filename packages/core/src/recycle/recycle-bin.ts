import type { Stats } from 'node:fs';
import { link, lstat, mkdir, readdir, realpath, rename, rmdir, stat, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { AppError } from '../errors.ts';
import { realPathOf, UnresolvablePathError } from '../fs/real-path.ts';
import { RECYCLE_FOLDER, below, binPathFor, dayFolderName, dayOfFolder, isDue, isRecyclable, readBinPath } from './bin-layout.ts';

export interface Drive {
  name: string;
  path: string;
}

export interface RecycledItem {
  /** Where it lies in the bin, under the drive's path as configured. */
  path: string;
  /** Where it came from and where a restore puts it. */
  original: string;
  bytes: number;
  recycled_at: string;
  drive: string;
}

export interface RecycleTotals {
  files: number;
  bytes: number;
}

/** A drive as found on disk: its real path, and its bin's (null when it has none, or the bin is no plain folder). */
interface DriveBin {
  drive: Drive;
  real: string;
  bin: string | null;
}

async function driveBins(drives: readonly Drive[]): Promise<DriveBin[]> {
  const found: DriveBin[] = [];
  for (const drive of drives) {
    const real = await realpath(drive.path).catch(() => null);
    if (!real) continue;
    // A bin that is a symbolic link could lead anywhere: it is no bin of this drive.
    const st = await lstat(join(real, RECYCLE_FOLDER)).catch(() => null);
    found.push({ drive, real, bin: st?.isDirectory() ? join(real, RECYCLE_FOLDER) : null });
  }
  return found;
}

const errno = (err: unknown) => (err as NodeJS.ErrnoException).code;

/** Errors of a filesystem that keeps no hard links: there a checked rename stands in for link + unlink. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * Puts `from` at `to` without ever writing over `to`: a hard link fails with EEXIST where `to` is
 * taken, and the source goes only once the link stands, so a kill between the two leaves the file
 * in both places, never in neither. Across filesystems (EXDEV) nothing moves: the bin never copies.
 */
async function placeWithoutOverwrite(from: string, to: string, within: string, opts: { linkOnly?: boolean } = {}): Promise<'placed' | 'taken'> {
  // A folder on the way that is a symbolic link (the drive's content is not ours to trust) could
  // lead anywhere: checked before any folder is made, and again once they stand.
  const stays = (real: string) => real === within || below(real, within) !== null;
  const refuse = () => new AppError('forbidden', `${dirname(to)} leads out of ${within} through a symbolic link; nothing was moved`);
  const before = await realPathOf(dirname(to)).catch(() => null);
  if (before === null || !stays(before)) throw refuse();
  await mkdir(dirname(to), { recursive: true }).catch((err: unknown) => {
    // A file appeared where a folder on the way must be (between the caller's checks and now).
    if (errno(err) === 'EEXIST' || errno(err) === 'ENOTDIR')
      throw new AppError('conflict', `a file stands where ${dirname(to)} needs a folder; nothing was moved`);
    throw err;
  });
  if (!stays(await realpath(dirname(to)))) throw refuse();
  try {
    await link(from, to);
  } catch (err) {
    if (errno(err) === 'EEXIST') return 'taken';
    if (errno(err) === 'EXDEV')
      throw new AppError('conflict', `${from} and ${to} lie on different filesystems; the recycle bin only renames, so nothing was moved`);
    if (!NO_LINKS.has(errno(err) ?? '')) throw err;
    // The caller keeps the source at its name (it replaces it itself): a rename would take it away.
    if (opts.linkOnly)
      throw new AppError(
        'conflict',
        `${dirname(to)} keeps no hard links, so ${from} cannot be kept in the recycle bin while it is replaced; nothing was changed`,
      );
    if (
      await lstat(to).then(
        () => true,
        () => false,
      )
    )
      return 'taken';
    await rename(from, to);
    return 'placed';
  }
  return 'placed';
}

/** Removes the folders `from` leaves empty, up to (not including) `stop`. */
async function pruneEmpty(from: string, stop: string): Promise<void> {
  for (let dir = from; below(dir, stop) !== null; dir = dirname(dir)) {
    try {
      await rmdir(dir);
    } catch {
      return;
    }
  }
}

async function driveOf(bins: DriveBin[], realFile: string): Promise<{ bin: DriveBin; rel: string } | null> {
  let best: { bin: DriveBin; rel: string } | null = null;
  for (const b of bins) {
    const rel = below(realFile, b.real);
    if (rel !== null && (!best || b.real.length > best.bin.real.length)) best = { bin: b, rel };
  }
  return best;
}

/**
 * Moves a library file, and the sidecars that go with it, into its drive's bin under today's day
 * folder, all in the same day folder so that they stay together: the first `<day>`, `<day>.2`, …
 * where none of their bin paths is taken. Every file must lie on one configured drive, outside its
 * bin; a file that cannot be linked into the bin leaves every file where it was. `ino`: the inode
 * `file` must still be (the one a caller checked), else nothing moves.
 */
export async function recycleFile(opts: {
  drives: readonly Drive[];
  file: string;
  sidecars?: readonly string[];
  now?: Date;
  ino?: number;
}): Promise<RecycledItem[]> {
  const now = opts.now ?? new Date();
  const bins = await driveBins(opts.drives);
  const files = [opts.file, ...(opts.sidecars ?? [])];
  const found: { source: string; rel: string; bytes: number }[] = [];
  let drive: DriveBin | null = null;
  for (const file of files) {
    const st = await lstat(file).catch(() => null);
    if (!st) throw new AppError('not_found', `${file} does not exist`);
    if (!st.isFile()) throw new AppError('bad_request', `${file} is not a plain file`);
    if (file === opts.file && opts.ino !== undefined && st.ino !== opts.ino) throw notTheFile(file);
    const real = await realPathOf(file);
    const at = await driveOf(bins, real);
    if (!at || !isRecyclable(at.rel)) throw new AppError('forbidden', `${file} lies on no drive, or in a recycle bin already`);
    if (drive && drive !== at.bin) throw new AppError('bad_request', `${file} lies on another drive than ${opts.file}`);
    drive = at.bin;
    found.push({ source: real, rel: at.rel, bytes: st.size });
  }
  if (!drive) return [];
  const bin = join(drive.real, RECYCLE_FOLDER);
  const st = await lstat(bin).catch(() => null);
  if (st && !st.isDirectory())
    throw new AppError('conflict', `${join(drive.drive.path, RECYCLE_FOLDER)} is not a folder (a symbolic link or a file): nothing was moved`);
  for (let copy = 1; ; copy++) {
    const placed: string[] = [];
    // Those placed now, bin path → source; the others were there already (see below) and are never undone here.
    const made = new Map<string, string>();
    const undo = () =>
      takeBack(
        [...made.values()].map((source) => ({ source })),
        [...made.keys()],
      );
    let taken = false;
    for (const f of found) {
      const to = binPathFor(drive.real, f.rel, now, copy);
      const outcome = await placeWithoutOverwrite(f.source, to, bin).catch(async (err: unknown) => {
        await undo();
        throw err;
      });
      // A recycle killed between its link and its unlink left this very file there: taken as it is.
      if (outcome === 'taken' && !(await sameInode(to, f.source))) {
        taken = true;
        break;
      }
      if (outcome === 'placed') made.set(to, f.source);
      placed.push(to);
    }
    if (taken) {
      // A link already made in this day folder is undone: the set moves to the next one whole.
      await undo();
      continue;
    }
    // Another file put at the name between the check and the link went to the bin instead: it goes back.
    if (opts.ino !== undefined && (await lstat(placed[0]!)).ino !== opts.ino) {
      await undo();
      throw notTheFile(opts.file);
    }
    const items: RecycledItem[] = [];
    for (const [i, f] of found.entries()) {
      // Gone after the rename fallback already; after a link the source still stands, and goes only
      // while its name is still that inode (another file put there since stays where it is).
      if (await sameInode(f.source, placed[i]!)) await unlink(f.source);
      const rel = relative(drive.real, placed[i]!);
      items.push({
        path: join(drive.drive.path, rel),
        original: join(drive.drive.path, f.rel),
        bytes: f.bytes,
        recycled_at: recycledAt(await lstat(placed[i]!), dayFolderName(now, copy)),
        drive: drive.drive.name,
      });
    }
    return items;
  }
}

async function sameInode(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([lstat(a).catch(() => null), lstat(b).catch(() => null)]);
  return x !== null && y !== null && x.dev === y.dev && x.ino === y.ino;
}

const notTheFile = (file: string) => new AppError('conflict', `${file} is not the file that was checked (another took its name); nothing was moved`);

/** Undoes a set just placed: a link goes, a file the rename fallback moved goes back to its name. */
async function takeBack(found: readonly { source: string }[], placed: readonly string[]): Promise<void> {
  for (const [i, to] of placed.entries()) {
    const source = found[i]!.source;
    const [at, there] = await Promise.all([lstat(source).catch(() => null), lstat(to).catch(() => null)]);
    if (!there) continue;
    // Still at its name too (a hard link): the bin's link goes. Renamed into the bin (a filesystem
    // without hard links): it is renamed back, unless another file took its name since, when it
    // stays in the bin rather than be lost or put over that file.
    if (at && at.dev === there.dev && at.ino === there.ino) await unlink(to);
    else if (!at) await rename(to, source);
  }
}

/**
 * Hard-links a library file into its drive's bin where recycleFile would put it, and leaves it at
 * its name: for a caller about to replace that name by a rename of its own (a remux), so that the
 * old inode lives on in the bin whatever follows. A try killed before its rename left the same
 * inode in today's bin already: that entry is taken as it is, not linked a second time. Null when
 * the file lies on no drive (nothing of the library). A bin on another filesystem, or one that keeps
 * no hard links, is a conflict: nothing is linked, and the caller must not replace the file.
 */
export async function keepInBin(opts: { drives: readonly Drive[]; file: string; ino: number; now?: Date }): Promise<RecycledItem | null> {
  const now = opts.now ?? new Date();
  const st = await lstat(opts.file).catch(() => null);
  if (!st) throw new AppError('not_found', `${opts.file} does not exist`);
  if (!st.isFile()) throw new AppError('bad_request', `${opts.file} is not a plain file`);
  if (st.ino !== opts.ino) throw notTheFile(opts.file);
  const real = await realPathOf(opts.file);
  const at = await driveOf(await driveBins(opts.drives), real);
  if (!at) return null;
  if (!isRecyclable(at.rel)) throw new AppError('forbidden', `${opts.file} lies in a recycle bin`);
  const bin = join(at.bin.real, RECYCLE_FOLDER);
  const binSt = await lstat(bin).catch(() => null);
  if (binSt && !binSt.isDirectory())
    throw new AppError('conflict', `${join(at.bin.drive.path, RECYCLE_FOLDER)} is not a folder (a symbolic link or a file): nothing was changed`);
  for (let copy = 1; ; copy++) {
    const to = binPathFor(at.bin.real, at.rel, now, copy);
    const outcome = await placeWithoutOverwrite(real, to, bin, { linkOnly: true });
    const there = await lstat(to);
    const same = there.dev === st.dev && there.ino === st.ino;
    if (outcome === 'taken' && !same) continue;
    if (!same) {
      // Another file took the name between the check and the link.
      await unlink(to);
      throw notTheFile(opts.file);
    }
    return {
      path: join(at.bin.drive.path, relative(at.bin.real, to)),
      original: join(at.bin.drive.path, at.rel),
      bytes: there.size,
      recycled_at: recycledAt(there, dayFolderName(now, copy)),
      drive: at.bin.drive.name,
    };
  }
}

/**
 * Every path in the bin of the drive holding library file `path` where a file recycled from `path`
 * stands, whichever day folder holds it: what recovery checks, by inode, to find a file a killed
 * upgrade recycled before it could note where.
 */
export async function binCopiesOf(drives: readonly Drive[], path: string): Promise<string[]> {
  const drive = drives.filter((d) => below(path, d.path) !== null).sort((a, b) => b.path.length - a.path.length)[0];
  if (!drive) return [];
  const rel = below(path, drive.path)!;
  if (!isRecyclable(rel)) return [];
  const bin = join(drive.path, RECYCLE_FOLDER);
  const days = await readdir(bin, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const d of days) {
    if (!d.isDirectory() || !dayOfFolder(d.name)) continue;
    const p = join(bin, d.name, rel);
    if (
      await lstat(p).then(
        (st) => st.isFile(),
        () => false,
      )
    )
      out.push(p);
  }
  return out;
}

/**
 * When a bin file came in: moving it there set its ctime, unless something touched it since (a
 * ctime on another day than its day folder's); then the start of that day, all the layout says.
 */
function recycledAt(st: Stats, day: string): string {
  const start = dayOfFolder(day)!;
  return (st.ctime.toISOString().slice(0, 10) === start.toISOString().slice(0, 10) ? st.ctime : start).toISOString();
}

async function walkFiles(dir: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const p = join(dir, e.name);
    // Symbolic links are never followed nor listed: the bin holds only what a rename put there.
    if (e.isDirectory()) await walkFiles(p, out);
    else if (e.isFile()) out.push(p);
  }
}

/** Every file in every drive's bin laid out as this service lays it out, newest first. */
export async function listRecycle(drives: readonly Drive[]): Promise<RecycledItem[]> {
  const items: RecycledItem[] = [];
  for (const b of await driveBins(drives)) {
    if (!b.bin) continue;
    const files: string[] = [];
    await walkFiles(b.bin, files);
    for (const file of files) {
      const rel = relative(b.bin, file);
      const entry = readBinPath(rel);
      if (!entry) continue;
      const st = await lstat(file).catch(() => null);
      if (!st?.isFile()) continue;
      items.push({
        path: join(b.drive.path, RECYCLE_FOLDER, rel),
        original: join(b.drive.path, entry.original),
        bytes: st.size,
        recycled_at: recycledAt(st, entry.day),
        drive: b.drive.name,
      });
    }
  }
  return items.sort((a, z) => z.recycled_at.localeCompare(a.recycled_at) || a.path.localeCompare(z.path));
}

export function totalsOf(items: readonly RecycledItem[]): RecycleTotals {
  return { files: items.length, bytes: items.reduce((n, i) => n + i.bytes, 0) };
}

/** A bin file named by the API: real-path inside a drive's bin, a plain file, laid out as this service lays it out. */
async function binFile(bins: DriveBin[], path: string): Promise<{ bin: DriveBin & { bin: string }; file: string; original: string }> {
  if (typeof path !== 'string' || !isAbsolute(path)) throw new AppError('bad_request', 'path must be an absolute path');
  const st = await lstat(path).catch(() => null);
  if (!st) throw new AppError('not_found', `${path} is not in the recycle bin`);
  if (!st.isFile()) throw new AppError('not_found', `${path} is not a file in the recycle bin`);
  const real = await realPathOf(path);
  for (const b of bins) {
    if (!b.bin) continue;
    const rel = below(real, b.bin);
    const entry = rel === null ? null : readBinPath(rel);
    if (entry) return { bin: { ...b, bin: b.bin }, file: real, original: join(b.real, entry.original) };
  }
  throw new AppError('not_found', `${path} is not in a drive's recycle bin`);
}

/** The deepest existing part of `folder` (below `root`) if it is no folder, else null; missing parts are made later. */
async function firstNonFolder(folder: string, root: string): Promise<string | null> {
  for (let p = folder; p.length >= root.length; p = dirname(p)) {
    const st = await stat(p).catch(() => null);
    if (st) return st.isDirectory() ? null : p;
    if (p === dirname(p)) break;
  }
  return null;
}

/**
 * Puts a recycled file back where it came from. The original path must still lie on the drive (no
 * symbolic link on the way leads elsewhere) and be free: a taken one is a conflict and nothing
 * moves. A restore killed half-way leaves the file in both places; the next one finishes it.
 */
export async function restoreRecycled(opts: { drives: readonly Drive[]; path: string; dryRun?: boolean }): Promise<{ path: string; original: string }> {
  const bins = await driveBins(opts.drives);
  const { bin, file, original } = await binFile(bins, opts.path);
  const shown = join(bin.drive.path, relative(bin.real, original));
  const realParent = await realPathOf(dirname(original)).catch((err: unknown) => {
    // A dangling or looping link where its folder was: nowhere the file could safely go back to.
    if (err instanceof UnresolvablePathError) throw new AppError('conflict', `${dirname(shown)} is now a broken or looping link; nothing was moved`);
    throw err;
  });
  if (realParent !== bin.real && below(realParent, bin.real) === null) throw new AppError('forbidden', `${shown} no longer lies on drive ${bin.drive.name}`);
  if (below(realParent, bin.bin) !== null || realParent === bin.bin) throw new AppError('forbidden', `${shown} lies in the recycle bin`);
  // A file now standing where a folder on the way was: the file cannot go back (and dry run must say so too).
  const onTheWay = await firstNonFolder(realParent, bin.real);
  if (onTheWay !== null) throw new AppError('conflict', `${onTheWay} is a file where ${dirname(shown)} needs a folder; nothing was moved`);
  const target = join(realParent, original.slice(original.lastIndexOf(sep) + 1));
  const [src, dst] = await Promise.all([lstat(file), lstat(target).catch(() => null)]);
  if (dst && !(dst.ino === src.ino && dst.dev === src.dev)) throw new AppError('conflict', `${shown} is taken: move that file away first, then restore`);
  if (opts.dryRun) return { path: opts.path, original: shown };
  if (!dst && (await placeWithoutOverwrite(file, target, bin.real)) === 'taken')
    throw new AppError('conflict', `${shown} is taken: move that file away first, then restore`);
  await unlink(file).catch((err: unknown) => {
    if (errno(err) !== 'ENOENT') throw err;
  });
  await pruneEmpty(dirname(file), bin.bin);
  return { path: opts.path, original: shown };
}

/**
 * Deletes the named bin files (each checked as a restore checks it), or every one when `paths` is
 * absent; `dryRun`: the same checks, and what it would delete.
 */
export async function emptyRecycle(opts: {
  drives: readonly Drive[];
  paths?: readonly string[];
  dryRun?: boolean;
}): Promise<{ removed: string[]; bytes: number }> {
  const bins = await driveBins(opts.drives);
  const chosen = opts.paths ? [...new Set(opts.paths)] : (await listRecycle(opts.drives)).map((i) => i.path);
  // Every named path is checked before any is deleted: one unknown path leaves the bin as it was.
  // Named: every one checked, one unknown path refuses all. Listed: one gone since (a restore, a
  // purge) is simply no longer there to delete.
  const check = (p: string) => binFile(bins, p).then((f) => ({ shown: p, ...f }));
  const files = opts.paths ? await Promise.all(chosen.map(check)) : await stillThere(chosen.map(check));
  if (opts.dryRun) {
    const sizes = await Promise.all(files.map(async (f) => (await lstat(f.file)).size));
    return { removed: files.map((f) => f.shown), bytes: sizes.reduce((n, b) => n + b, 0) };
  }
  return removeAll(files);
}

/** The listed bin files still there to delete: one gone since it was listed is left out, not an error. */
async function stillThere<T>(checks: Promise<T>[]): Promise<T[]> {
  const out: T[] = [];
  for (const r of await Promise.allSettled(checks)) {
    if (r.status === 'fulfilled') out.push(r.value);
    else if (!(r.reason instanceof AppError && r.reason.code === 'not_found')) throw r.reason;
  }
  return out;
}

async function removeAll(files: { shown: string; file: string; bin: { bin: string } }[]): Promise<{ removed: string[]; bytes: number }> {
  const removed: string[] = [];
  let bytes = 0;
  for (const f of files) {
    const st = await lstat(f.file).catch(() => null);
    if (!st?.isFile()) continue;
    await unlink(f.file);
    await pruneEmpty(dirname(f.file), f.bin.bin);
    removed.push(f.shown);
    bytes += st.size;
  }
  return { removed, bytes };
}

/** Deletes every bin file whose day folder is older than `days` days (see isDue), and the folders it empties. */
export async function purgeRecycle(opts: { drives: readonly Drive[]; days: number; now?: Date }): Promise<{ removed: string[]; bytes: number }> {
  const now = opts.now ?? new Date();
  const bins = await driveBins(opts.drives);
  const due = (await listRecycle(opts.drives)).filter((i) => {
    const day = relative(join(opts.drives.find((d) => d.name === i.drive)!.path, RECYCLE_FOLDER), i.path).split(sep)[0]!;
    return isDue(day, opts.days, now);
  });
  const files = await stillThere(due.map((i) => binFile(bins, i.path).then((f) => ({ shown: i.path, ...f }))));
  return removeAll(files);
}
