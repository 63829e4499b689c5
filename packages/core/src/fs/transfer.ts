import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { copyFile, link, lstat, open, rename, rm, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { NO_OWNERSHIP, type Ownership } from './ownership.ts';
import { openRealFolder, type RealFolder } from './real-folder.ts';
import { fsyncPath } from './fsync.ts';

/** Temp files of cross-filesystem copies start with this, in the destination's folder. */
export const PARTIAL_PREFIX = '.mo-partial-';

/** A copy in flight, as the journal keeps it until the move is complete or undone. */
export interface Transfer {
  source: string;
  destination: string;
  temp: string;
  size: number;
  mtime_ms: number;
  /** The source's identity, as planned. */
  source_dev?: number;
  source_ino?: number;
  /** The temp file's identity, noted once it is made: only that file, placed, is the copy. */
  temp_dev?: number;
  temp_ino?: number;
  /** A copy for `copy` or `hardlink` mode: the source stays once the copy is in place. */
  keep_source?: boolean;
}

export interface TransferTicket {
  /** Drops the note: the copy is complete or undone. */
  end(): Promise<void>;
  /** Notes the temp file's identity, before anything is written into it. */
  tempMade(id: { dev: number; ino: number }): Promise<void>;
}

/**
 * Records a cross-filesystem copy before its temp file exists, so that a process killed halfway
 * leaves a note of what to clean up.
 */
export interface TransferJournal {
  begin(transfer: Transfer): Promise<TransferTicket>;
}

/** How a file got to its destination: `link` (hardlink mode), `copy` (a verified copy). */
export type PlaceMethod = 'rename' | 'link' | 'copy';

export type MoveResult =
  | { status: 'moved'; method: PlaceMethod }
  /** Another file holds the destination; the source is untouched. */
  | { status: 'exists' }
  /** The source is not there (any more). */
  | { status: 'gone'; destination_exists: boolean };

export interface MoveOptions {
  owner?: Ownership;
  /**
   * The source as planned: one that changed since is not moved. With its identity, another file of
   * the same size and mtime is not moved either (a folder on the way swapped for a link to it).
   */
  expect?: { size: number; mtimeMs: number; dev?: number; ino?: number };
  journal?: TransferJournal;
  /**
   * The folder (a drive; the downloads folder for an undo) from which every folder on the way to
   * the destination must be a real folder, no link: see openRealFolder. Absent: the filesystem's
   * root, so that no link anywhere on the way is followed.
   */
  within?: string;
}

// Filesystems without hard links (exFAT, FAT, some FUSE and network mounts) answer with one of these.
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'ENOSYS']);

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch (err) {
    if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') return null;
    throw err;
  }
}

/**
 * Gives `from` the name `to` unless `to` exists: link + unlink cannot overwrite, where rename
 * would. Where hard links are not supported, a check and a rename (a small race, on such disks only).
 * false: `to` exists. Throws EXDEV across filesystems.
 */
export async function placeNoReplace(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
  } catch (err) {
    if (code(err) === 'EEXIST') return false;
    if (!NO_HARD_LINKS.has(code(err) ?? '')) throw err;
    if (await lstatOrNull(to)) return false;
    await rename(from, to);
    return true;
  }
  try {
    await unlink(from);
  } catch (err) {
    await unlink(to).catch(() => {});
    throw err;
  }
  return true;
}

/** Same size and mtime (to the millisecond: copies keep mtime through a double of seconds). */
export function sameStamp(a: { size: number; mtimeMs: number }, b: { size: number; mtimeMs: number }): boolean {
  return a.size === b.size && Math.abs(a.mtimeMs - b.mtimeMs) < 1;
}

/** `st` is the source as planned: its size and mtime, and its identity when the plan has it. */
function asPlanned(st: Stats, expect: NonNullable<MoveOptions['expect']>): boolean {
  if (!sameStamp(st, expect)) return false;
  return (expect.dev === undefined || st.dev === expect.dev) && (expect.ino === undefined || st.ino === expect.ino);
}

/**
 * Copies into a temp file beside the destination, flushes and checks it, gives it the source's
 * mode, times and the configured owner, then puts it in place and only then removes the source.
 * Any failure removes the temp file and leaves the source as it was.
 */
async function copyAcross(source: string, destination: string, folder: RealFolder, st: Stats, opts: MoveOptions, keepSource = false): Promise<MoveResult> {
  const owner = opts.owner ?? NO_OWNERSHIP;
  const tempName = `${PARTIAL_PREFIX}${randomBytes(8).toString('hex')}`;
  // The journal's note names the paths; every step here goes through the folder held open.
  const temp = join(dirname(destination), tempName);
  const tempAt = folder.at(tempName);
  const to = folder.at(basename(destination));
  const ticket = await opts.journal?.begin({
    source,
    destination,
    temp,
    size: st.size,
    mtime_ms: st.mtimeMs,
    source_dev: st.dev,
    source_ino: st.ino,
    ...(keepSource ? { keep_source: true } : {}),
  });
  const end = ticket && (() => ticket.end());
  let placedIno: number | null = null;
  try {
    // The temp is made here (O_EXCL: never through a link) and written, given away and flushed
    // through this descriptor only: whoever may write the folder could swap its name for a link
    // (to /etc/shadow, of the same size) once it exists, and a root worker would chown what it names.
    const fh = await open(tempAt, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    let copied: Stats;
    try {
      // A recovery after a kill takes only this inode at the destination for the copy: a file of
      // the same size and mtime planted there meanwhile would otherwise cost the download.
      const made = await fh.stat();
      await ticket?.tempMade({ dev: made.dev, ino: made.ino });
      // Read from the very file that was checked: its folder swapped for a link and back while it
      // is copied would put another file's content in the library.
      const from = await open(source, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      try {
        const opened = await from.stat();
        if (opened.dev !== st.dev || opened.ino !== st.ino) throw new Error(`${source} changed while it was being copied`);
        await copyFile(`/proc/self/fd/${from.fd}`, `/proc/self/fd/${fh.fd}`);
      } finally {
        await from.close();
      }
      copied = await fh.stat();
      if (copied.size !== st.size) throw new Error(`the copy of ${source} has ${copied.size} bytes, expected ${st.size}`);
      // chown first: it clears set-id bits that chmod then restores.
      if (owner.uid !== null || owner.gid !== null) await fh.chown(owner.uid ?? -1, owner.gid ?? -1);
      await fh.chmod(st.mode & 0o7777);
      await fh.utimes(st.atimeMs / 1000, st.mtimeMs / 1000);
      await fh.sync();
      placedIno = copied.ino;
    } finally {
      await fh.close();
    }
    // The same file still: another one of the same size and mtime there now (its folder swapped
    // for a link) would be removed below in place of the one copied.
    const now = await lstatOrNull(source);
    if (!now || !sameStamp(now, st) || now.dev !== st.dev || now.ino !== st.ino) throw new Error(`${source} changed while it was being copied`);
    const ours = (f: Stats | null) => f !== null && f.dev === copied.dev && f.ino === copied.ino;
    if (!ours(await lstatOrNull(tempAt))) throw new Error(`${temp} was replaced while ${source} was copied into it`);
    if (!(await placeNoReplace(tempAt, to))) {
      await rm(tempAt, { force: true });
      await end?.();
      return { status: 'exists' };
    }
    // Swapped between that check and the link: what the link put in place is taken back.
    const placed = await lstatOrNull(to);
    if (!ours(placed)) {
      if (placed !== null && !placed.isFile()) await unlink(to);
      throw new Error(`${temp} was replaced while ${source} was copied into it`);
    }
    await folder.sync();
    if (keepSource) {
      await end?.();
      return { status: 'moved', method: 'copy' };
    }
  } catch (err) {
    // The note stays while the temp file does, so that the next pass removes what this one could not.
    if (
      await rm(tempAt, { force: true }).then(
        () => true,
        () => false,
      )
    )
      await end?.();
    throw err;
  }
  try {
    await unlink(source);
  } catch (err) {
    // Undo rather than leave two copies: the next pass tries again, the source is still whole.
    const placed = await lstatOrNull(to);
    if (placed && placed.ino === placedIno) await unlink(to).catch(() => {});
    await end?.();
    throw new Error(`copied ${source} but could not remove it, so the copy was taken back: ${(err as Error).message}`);
  }
  await fsyncPath(dirname(source));
  await end?.();
  return { status: 'moved', method: 'copy' };
}

/**
 * Runs `work` on `source` named through its folder held open, once that name is still the file
 * `st` describes: a folder on the way swapped for a link between the check and a link or unlink by
 * path would have them take another file of the same name (and remove its name where it was).
 */
export async function throughFolder<T>(source: string, st: Pick<Stats, 'dev' | 'ino'>, work: (name: string) => Promise<T>): Promise<T> {
  const dir = await open(dirname(source), constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    const name = `/proc/self/fd/${dir.fd}/${basename(source)}`;
    const now = await lstatOrNull(name);
    if (!now || now.dev !== st.dev || now.ino !== st.ino) throw new Error(`${source} changed since it was planned`);
    return await work(name);
  } finally {
    await dir.close();
  }
}

/**
 * Moves one file without ever overwriting or losing one: a rename on one filesystem, a verified
 * copy across filesystems. Safe to repeat: a source already gone or a move cut short between its
 * link and unlink (both names on one inode) are recognised, not retried blindly.
 */
export async function moveFile(source: string, destination: string, opts: MoveOptions = {}): Promise<MoveResult> {
  const st = await lstatOrNull(source);
  if (!st) return { status: 'gone', destination_exists: (await lstatOrNull(destination)) !== null };
  if (!st.isFile()) throw new Error(`${source} is not a regular file`);
  if (opts.expect && !asPlanned(st, opts.expect)) throw new Error(`${source} changed since it was planned`);
  const folder = await openRealFolder(opts.within ?? '/', dirname(destination), opts.owner ?? NO_OWNERSHIP);
  try {
    const to = folder.at(basename(destination));
    const existing = await lstatOrNull(to);
    if (existing) {
      // One inode under both names is a move cut short between link and unlink, but only with two
      // links: with one, both paths name the same entry (bind mounts, a library inside the
      // downloads) and unlinking the source would delete the file.
      if (existing.dev !== st.dev || existing.ino !== st.ino || st.nlink < 2) return { status: 'exists' };
      await throughFolder(source, st, (name) => unlink(name));
      await fsyncPath(dirname(source));
      return { status: 'moved', method: 'rename' };
    }
    try {
      if (!(await throughFolder(source, st, (name) => placeNoReplace(name, to)))) return { status: 'exists' };
    } catch (err) {
      if (code(err) === 'EXDEV') return await copyAcross(source, destination, folder, st, opts);
      throw err;
    }
    await folder.sync();
    await fsyncPath(dirname(source));
    return { status: 'moved', method: 'rename' };
  } finally {
    await folder.close();
  }
}

type Identity = Pick<Stats, 'dev' | 'ino' | 'nlink'>;

/**
 * Whether `existing` is the link an earlier, interrupted `keepAndPlace` of `source` made (one
 * inode, two names: with one link both paths name the same entry, not a link made here). A copy is
 * never known by its size and mtime: the owner's own file of the same ones would be taken for it,
 * recorded as an import, and removed by its undo. Only the inode the copy was made on proves it,
 * which the import journal notes (see import-tx/import-journal.ts). null: another file.
 */
export function alreadyPlaced(existing: Identity, source: Identity): 'link' | null {
  return existing.dev === source.dev && existing.ino === source.ino && source.nlink >= 2 ? 'link' : null;
}

/**
 * Puts a copy of `source` at `destination` and leaves the source where it is, for a torrent
 * client that keeps seeding it: `hardlink` makes a hard link, and where the filesystems differ
 * or have no hard links, a verified copy (`method: 'copy'`); `copy` always copies. Never
 * overwrites. Safe to repeat for a link (the destination is the source's inode); any other file
 * at the destination, a copy made before included, is `exists`.
 */
export async function keepAndPlace(source: string, destination: string, mode: 'hardlink' | 'copy', opts: MoveOptions = {}): Promise<MoveResult> {
  const st = await lstatOrNull(source);
  if (!st) return { status: 'gone', destination_exists: (await lstatOrNull(destination)) !== null };
  if (!st.isFile()) throw new Error(`${source} is not a regular file`);
  if (opts.expect && !asPlanned(st, opts.expect)) throw new Error(`${source} changed since it was planned`);
  const folder = await openRealFolder(opts.within ?? '/', dirname(destination), opts.owner ?? NO_OWNERSHIP);
  try {
    const to = folder.at(basename(destination));
    const existing = await lstatOrNull(to);
    if (existing) return existing.isFile() && alreadyPlaced(existing, st) ? { status: 'moved', method: 'link' } : { status: 'exists' };
    if (mode === 'hardlink') {
      try {
        await throughFolder(source, st, (name) => link(name, to));
        await folder.sync();
        return { status: 'moved', method: 'link' };
      } catch (err) {
        if (code(err) === 'EEXIST') return { status: 'exists' };
        if (code(err) !== 'EXDEV' && !NO_HARD_LINKS.has(code(err) ?? '')) throw err;
      }
    }
    return await copyAcross(source, destination, folder, st, opts, true);
  } finally {
    await folder.close();
  }
}
