import type { TransferMode } from '@mo/shared';
import { sameStamp, type Transfer } from '../fs/transfer.ts';
import type { FileIdentity, PlacedFile, Replaced } from '../history/history-record.ts';

/**
 * The recovery rules of an import, stated once as pure decisions over what its notes say and what
 * is on disk now; the driver (driver.ts) reads the disk and carries each decision out.
 *
 * One import's record (the import journal's note) names its video, its sidecars, the folders it
 * made and, per file, how far it got:
 *
 *   planned ──(copy across drives)──▶ copying (the temp's inode noted) ──▶ placed ──▶ recorded
 *      └──────────(rename, link: the download's own inode)─────────────────┘
 *
 * `placed` is never taken from the note alone: only the download's own inode or the one its copy
 * was made on counts, so that another file of the same size and mtime (the owner's) is never
 * recorded as imported, nor removed by an undo. `recorded` is the history holding it.
 */

/** What stands at a path now; null where nothing does. */
export interface Seen {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  isFile: boolean;
}

export interface Inode {
  dev: number;
  ino: number;
}

/** One file of an import, as its record notes it. */
export interface PlannedFile {
  source: string;
  destination: string;
  from: FileIdentity;
  /** The inode a copy of this file was made on, noted before it is placed. */
  made?: Inode;
}

/** A library file an upgrade replaces, noted (with its identity) before it goes to the recycle bin. */
export interface HeldFile {
  path: string;
  held: FileIdentity;
  /** Its path in the bin, noted once it is there (a kill can come before: recovery looks for it by its inode). */
  recycled_to?: string;
}

export interface ImportTxRecord extends PlannedFile {
  mode: TransferMode;
  sidecars: PlannedFile[];
  created_dirs: string[];
  pass: string;
  /** An upgrade: the held video and its sidecars, recycled before the new video is placed. */
  replaces?: { video: HeldFile; sidecars: HeldFile[] };
}

export interface FileOnDisk {
  source: Seen | null;
  destination: Seen | null;
  /** The inode the recovery itself placed at the destination since the kill (a sidecar left behind). */
  placedSince?: Inode;
}

export type FilePhase = { phase: 'planned' } | { phase: 'copying'; made: Inode } | { phase: 'placed'; file: PlacedFile };

const same = (a: Inode, b: Inode | undefined) => b !== undefined && a.dev === b.dev && a.ino === b.ino;

/** How far one file of an import got, by its record and the disk. */
export function filePhase(file: PlannedFile, disk: FileOnDisk, move: boolean): FilePhase {
  const notPlaced: FilePhase = file.made ? { phase: 'copying', made: file.made } : { phase: 'planned' };
  const to = disk.destination;
  if (!to?.isFile || !sameStamp(to, { size: file.from.size, mtimeMs: file.from.mtime_ms })) return notPlaced;
  const own = same(to, file.from);
  if (!own && !same(to, file.made) && !same(to, disk.placedSince)) return notPlaced;
  // Moved, the download is gone from its path; its own inode still there means the copy did not get away.
  if (move && !own && disk.source !== null && same(disk.source, file.from)) return notPlaced;
  // Only the file's own fields: the video's is the whole record, whose other fields are no history's.
  const { source, destination, from } = file;
  return { phase: 'placed', file: { source, destination, from, to: { dev: to.dev, ino: to.ino, size: to.size, mtime_ms: to.mtimeMs } } };
}

export interface ImportOnDisk {
  /** The history holds this import already. */
  recorded: boolean;
  video: FileOnDisk;
  /** In the record's order. */
  sidecars: SidecarOnDisk[];
  /** An upgrade's held files, the video first, then its sidecars in the record's order. */
  held?: HeldOnDisk[];
}

/** Where a held file of an upgrade stands now. */
export interface HeldOnDisk {
  /** What stands at its library path. */
  original: Seen | null;
  /** What stands at each path of the drive's bin its copy could be at (any day folder). */
  bin: { path: string; seen: Seen }[];
  /** This recovery tried to put it back and could not: it stays in the bin, where the owner finds it. */
  tried?: boolean;
}

export interface SidecarOnDisk extends FileOnDisk {
  /** This recovery tried to place it and could not: `failed` for good (taken, gone), or it `waits` for a later pass. */
  tried?: 'failed' | 'waits';
}

export type ImportStep =
  /** A sidecar left behind once its video got away: placed beside it now, since nothing else would ever claim it. */
  | { step: 'place-sidecar'; index: number }
  /** Carried out but not recorded: recorded now, with the sidecars that got into place. */
  | { step: 'record'; video: PlacedFile; method: 'rename' | 'link' | 'copy'; sidecars: PlacedFile[]; replaced: Replaced | null }
  /** An upgrade whose new video did not get into place: a held file goes back from the bin (`from`) to its library path. */
  | { step: 'unrecycle'; index: number; from: string }
  /** An upgrade's move cut between link and unlink: the link at the destination goes, the download stays, the held file can come back. */
  | { step: 'unplace' }
  /** A sidecar's move cut between link and unlink once its video got away: its download name goes, as the move would have done. */
  | { step: 'finish-move'; index: number }
  /** Recorded, but a sidecar left behind waits (a file still being written, a drive refusing): the record stays for the next pass. */
  | { step: 'keep' }
  /** Nothing (more) to do: the next pass plans the download again, or the history has it. The record goes. */
  | { step: 'drop' };

const NOTHING: SidecarOnDisk = { source: null, destination: null };

/**
 * What recovery does next with an import a killed process left; the driver carries it out, looks
 * again, and asks again until the record is dropped or kept. Sidecars left behind are placed
 * before the import is recorded, so that they are recorded with their video.
 */
export function nextStep(record: ImportTxRecord, disk: ImportOnDisk): ImportStep {
  const move = record.mode === 'move';
  const video = filePhase(record, disk.video, move);
  const held = record.replaces ? [record.replaces.video, ...record.replaces.sidecars] : [];
  // An upgrade goes forward only once its new video got away (or the history has it); else it is
  // taken back whole: the held files return from the bin, the download stays for the next pass.
  const { source, destination } = disk.video;
  const linkedNotMoved = move && source !== null && destination !== null && same(source, record.from) && same(destination, record.from);
  if (held.length > 0 && !disk.recorded && (video.phase !== 'placed' || linkedNotMoved)) {
    if (linkedNotMoved) return { step: 'unplace' };
    for (const [index, h] of held.entries()) {
      const d = disk.held?.[index];
      if (!d || d.tried) continue;
      const inBin = d.bin.find((b) => b.seen.isFile && same(b.seen, h.held));
      if (inBin && (d.original === null || same(d.original, h.held))) return { step: 'unrecycle', index, from: inBin.path };
    }
    return { step: 'drop' };
  }
  if (video.phase !== 'placed') return { step: 'drop' };
  const sidecars = record.sidecars.map((s, i) => ({ phase: filePhase(s, disk.sidecars[i] ?? NOTHING, move), disk: disk.sidecars[i] ?? NOTHING }));
  // Got away: moved (gone from the downloads), or placed where the download stays. A move cut
  // between link and unlink did not: the next plan takes the whole group again.
  const gotAway = !move || disk.video.source === null;
  const left = sidecars.findIndex((s) => s.phase.phase !== 'placed' && s.disk.source !== null && s.disk.tried === undefined);
  if (gotAway && left !== -1) return { step: 'place-sidecar', index: left };
  const halfMoved = sidecars.findIndex(
    (s) =>
      move &&
      s.phase.phase === 'placed' &&
      s.disk.tried === undefined &&
      s.disk.source !== null &&
      s.disk.destination !== null &&
      same(s.disk.source, s.disk.destination),
  );
  if (gotAway && halfMoved !== -1) return { step: 'finish-move', index: halfMoved };
  if (!disk.recorded) {
    const placed = sidecars.flatMap((s) => (s.phase.phase === 'placed' ? [s.phase.file] : []));
    const method = !same(video.file.to, record.from) ? 'copy' : move ? 'rename' : 'link';
    return { step: 'record', video: video.file, method, sidecars: placed, replaced: replacedOf(held, disk.held ?? []) };
  }
  return sidecars.some((s) => s.disk.tried === 'waits') ? { step: 'keep' } : { step: 'drop' };
}

/** What an upgrade carried out replaced, as the history records it: the held files found in the bin. */
export function replacedOf(held: readonly HeldFile[], disk: readonly HeldOnDisk[]): Replaced | null {
  const found = held.map((h, i) => {
    const bins = disk[i]?.bin.filter((b) => b.seen.isFile && same(b.seen, h.held)) ?? [];
    const bin = bins.find((b) => b.path === h.recycled_to) ?? bins[0];
    return bin ? { path: h.path, recycled_to: bin.path, held: h.held } : null;
  });
  const [video, ...sidecars] = found;
  if (!video) return null;
  return { ...video, sidecars: sidecars.filter((s) => s !== null) };
}

export interface CopySettled {
  /** A move's copy in place: its source, still as planned, goes now. */
  removeSource: boolean;
  /** `completed`: the copy is in place (its source gone, or kept); `undone`: the source stays, the copy is not. */
  outcome: 'completed' | 'undone';
}

/**
 * A copy across drives a killed process left (its temp file is removed whatever this says). The
 * copy is linked into place only once verified, so the temp's own inode at the destination with
 * the planned size and mtime is that copy; any other file there, or a note that never named its
 * temp, is not.
 */
export function settleCopy(t: Transfer, disk: { source: Seen | null; destination: Seen | null }): CopySettled {
  const planned = { size: t.size, mtimeMs: t.mtime_ms };
  const { source, destination } = disk;
  const placed =
    destination !== null && t.temp_ino !== undefined && destination.dev === t.temp_dev && destination.ino === t.temp_ino && sameStamp(destination, planned);
  const sourceAsPlanned =
    source !== null && sameStamp(source, planned) && (t.source_ino === undefined || (source.dev === t.source_dev && source.ino === t.source_ino));
  const removeSource = placed && !t.keep_source && sourceAsPlanned;
  return { removeSource, outcome: placed && (t.keep_source || removeSource || source === null) ? 'completed' : 'undone' };
}

export interface SidecarsLeft<S extends { source: string; destination: string }> {
  video: { source: string; destination: string };
  sidecars: S[];
  keep_source?: true;
}

/**
 * The sidecars a legacy sidecar note (see legacy-sidecar-notes.ts) names that its killed pass left
 * behind after the video got away (moved, or placed where the source stays), to be placed beside
 * it now: without this, nothing would ever claim them. None where the video did not get away: the
 * next plan takes the whole group again.
 */
export function sidecarsToPlace<S extends { source: string; destination: string }>(
  note: SidecarsLeft<S>,
  disk: { videoSource: boolean; videoDestination: boolean; sidecarSources: boolean[] },
): S[] {
  if (!disk.videoDestination || (!note.keep_source && disk.videoSource)) return [];
  return note.sidecars.filter((_, i) => disk.sidecarSources[i] === true);
}
