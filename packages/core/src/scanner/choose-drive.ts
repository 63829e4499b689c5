export type Section = 'movies' | 'tv';

/** A media drive as the planner sees it: statfs numbers and which library folders it has. */
export interface DriveSpace {
  name: string;
  path: string;
  /** st_dev of the drive folder; null when it cannot be read. */
  dev: number | null;
  /** Bytes an unprivileged writer may still use; null when the drive is unavailable. */
  free_bytes: number | null;
  total_bytes: number | null;
  /** The first configured library folder of each section that exists on the drive. */
  roots: Partial<Record<Section, string>>;
}

/** A movie's or series' folder already in the library. */
export interface ExistingFolder {
  drive: string;
  /** Library folder name on that drive (`Movies`, `TV Shows`). */
  root: string;
  /** The folder's own name, kept as it is so that nothing is split over two spellings. */
  name: string;
}

export interface DriveRequest {
  section: Section;
  bytes: number;
  /** st_dev of the download: on the same device a move is a rename and needs no room. */
  sourceDev: number;
  existing: readonly ExistingFolder[];
}

export interface DriveChoice {
  drive: DriveSpace;
  root: string;
  /** The existing folder to use instead of the rendered one, or null for a new folder. */
  folder: string | null;
}

const GIB = 1024 ** 3;

/** Free space kept back on every drive: a full disk breaks more than the move that filled it. */
export function marginBytes(totalBytes: number): number {
  return Math.min(GIB, Math.floor(totalBytes * 0.02));
}

/** `reserved` holds bytes already promised to earlier plans of the same pass, by drive name. */
export function hasRoom(drive: DriveSpace, bytes: number, sourceDev: number, reserved: ReadonlyMap<string, number>): boolean {
  if (drive.free_bytes === null || drive.total_bytes === null) return false;
  if (drive.dev !== null && drive.dev === sourceDev) return true;
  return drive.free_bytes - (reserved.get(drive.name) ?? 0) >= bytes + marginBytes(drive.total_bytes);
}

function freeAfter(drive: DriveSpace, reserved: ReadonlyMap<string, number>): number {
  return (drive.free_bytes ?? 0) - (reserved.get(drive.name) ?? 0);
}

/**
 * The drive that already holds the folder, when it has room; otherwise the drive with the most
 * free space among those with the section's library folder and room for the file plus the margin.
 * null: no drive can take it.
 */
export function chooseDrive(req: DriveRequest, drives: readonly DriveSpace[], reserved: ReadonlyMap<string, number>): DriveChoice | null {
  for (const ex of req.existing) {
    const drive = drives.find((d) => d.name === ex.drive);
    if (drive && hasRoom(drive, req.bytes, req.sourceDev, reserved)) return { drive, root: ex.root, folder: ex.name };
  }
  let best: DriveSpace | null = null;
  for (const d of drives) {
    if (d.roots[req.section] === undefined || !hasRoom(d, req.bytes, req.sourceDev, reserved)) continue;
    if (!best || freeAfter(d, reserved) > freeAfter(best, reserved)) best = d;
  }
  return best ? { drive: best, root: best.roots[req.section]!, folder: null } : null;
}
