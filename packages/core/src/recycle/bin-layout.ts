import { isAbsolute, join, normalize, relative, sep } from 'node:path';

/** The bin's folder directly under each drive; the library index never enters a dot-folder. */
export const RECYCLE_FOLDER = '.recycle';

const DAY_MS = 86_400_000;

/**
 * A day folder: the UTC date a file was recycled, and a number after a dot where that day's plain
 * folder already held a file of the same path (`2026-11-28.2`), so that nothing in the bin is ever
 * written over and the original path stays readable from the bin path alone.
 */
const DAY_FOLDER = /^(\d{4})-(\d{2})-(\d{2})(?:\.([2-9]|[1-9]\d+))?$/;

export function dayFolderName(now: Date, copy: number): string {
  const day = now.toISOString().slice(0, 10);
  return copy <= 1 ? day : `${day}.${copy}`;
}

/** The UTC midnight a day folder names, or null for a name that is no day folder. */
export function dayOfFolder(name: string): Date | null {
  const m = DAY_FOLDER.exec(name);
  if (!m) return null;
  const [, y, mo, d] = m;
  const at = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  // 2026-02-31 rolls over into March: not a date this service wrote.
  return at.toISOString().slice(0, 10) === `${y}-${mo}-${d}` ? at : null;
}

/** Where `file` (relative to its drive) goes in the bin on a given day, as the `copy`-th of that path that day. */
export function binPathFor(drive: string, relativePath: string, now: Date, copy: number): string {
  return join(drive, RECYCLE_FOLDER, dayFolderName(now, copy), relativePath);
}

/** A path relative to its drive that names a library file the bin may take: inside, and not in the bin itself. */
export function isRecyclable(relativePath: string): boolean {
  if (relativePath === '' || isAbsolute(relativePath)) return false;
  const parts = normalize(relativePath).split(sep);
  return parts[0] !== '..' && parts[0] !== RECYCLE_FOLDER;
}

export interface BinEntry {
  /** Its day folder's name. */
  day: string;
  /** Where it came from, relative to the drive. */
  original: string;
}

/**
 * Reads a path relative to the drive's bin folder (`2026-11-28/Movies/Heat (1995)/Heat (1995).mkv`):
 * its day folder and the original path below the drive; null for anything this service did not lay
 * out (no day folder, nothing below it, a climb out).
 */
export function readBinPath(relativeToBin: string): BinEntry | null {
  if (isAbsolute(relativeToBin)) return null;
  const parts = normalize(relativeToBin).split(sep);
  const [day, ...rest] = parts;
  if (!day || rest.length === 0 || !dayOfFolder(day)) return null;
  const original = rest.join(sep);
  return isRecyclable(original) ? { day, original } : null;
}

/**
 * Whether an entry of a day folder is due for the purge: kept `days` whole days after its day, so
 * that 30 keeps a file recycled on 1 November until the purge of 1 December; 0 purges at the next run.
 */
export function isDue(day: string, days: number, now: Date): boolean {
  const at = dayOfFolder(day);
  if (!at) return false;
  return now.getTime() >= at.getTime() + days * DAY_MS;
}

/** `path` relative to `root` when it lies strictly below it, else null. */
export function below(path: string, root: string): string | null {
  const rel = relative(root, path);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return rel;
}
