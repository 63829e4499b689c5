import { lstat, rmdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Config, TransferMode } from '@mo/shared';
import { AppError } from '../errors.ts';
import { fsyncPath } from '../fs/fsync.ts';
import { isInside } from '../fs/real-path.ts';
import type { Ownership } from '../fs/ownership.ts';
import { LinkOnTheWayError } from '../fs/real-folder.ts';
import { keepAndPlace, moveFile, throughFolder, type MoveOptions, type PlaceMethod, type TransferJournal } from '../fs/transfer.ts';
import type { HistoryLog } from '../history/history-log.ts';
import type { FileIdentity, ImportRecord, PlacedFile, Replaced } from '../history/history-record.ts';
import { planUndo, replacedFiles, type UndoStep } from '../history/undo-plan.ts';
import type { Logger } from '../logging/logger.ts';
import type { ImportTicket, PendingImport } from './import-journal.ts';
import type { JournalsStore } from './journals.ts';
import { nextStep, type HeldFile, type HeldOnDisk, type PlannedFile, type SidecarOnDisk } from './next-step.ts';
import { binCopiesOf, recycleFile, restoreRecycled } from '../recycle/recycle-bin.ts';
import { seenAt, seenForUndo } from './seen.ts';

/**
 * The one way files get into the library and out of it again: the effects around the decisions of
 * next-step.ts. Its order is what keeps a killed process safe, so it is kept here and nowhere else:
 *
 *   import: import record ─▶ video placed (a copy's inode noted first) ─▶ sidecars placed ─▶
 *           history ─▶ record dropped
 *   upgrade: import record naming the held files and their inodes ─▶ held files to the recycle bin
 *           (linked there, then unlinked: a kill leaves both names) ─▶ their bin paths noted ─▶ the
 *           import as above, its history line naming them. Until the new video got away, a failure
 *           or a kill takes it all back: the held files return from the bin, the download stays.
 *   undo:   copies in flight settled ─▶ planUndo on the disk ─▶ carry out its last step (sidecars
 *           before their video) ─▶ plan again, until no step is left ─▶ the folders the import made
 *           removed while empty ─▶ history. A killed undo is completed by the same loop when asked again.
 *   recovery (under the pass lock, before anything else moves): copies in flight settled (the
 *           copy journal) ─▶ legacy sidecar notes migrated ─▶ each import record: look at the disk
 *           ─▶ nextStep ─▶ carry out that one step (place a sidecar left behind, record) ─▶ look
 *           again, until it says drop (or keep: a sidecar waits for the next pass)
 *   undo of an upgrade: as undo, the new files first, then the replaced ones back from the bin.
 */

/** A file in the downloads, as the plan saw it. */
export interface SourceFile {
  path: string;
  size: number;
  mtimeMs: number;
  dev: number;
  ino: number;
}

export interface ImportPlan {
  video: SourceFile;
  destination: string;
  /** The drive's name, from the config; null: none, so no link anywhere on the way. */
  drive: string | null;
  sidecars: { file: SourceFile; destination: string }[];
  /** An upgrade: the library's video of this movie or episode and its sidecars (absolute paths), recycled first. */
  replaces?: { video: string; sidecars: string[] };
}

/** Every file an import placed or could not, for the pass's recent list. */
export type RecordMove = (source: string, destination: string, error: string | null) => void;

export type Placed = { ok: true; method: PlaceMethod; file: PlacedFile } | { ok: false; error: string };

export interface Imported {
  video: Placed;
  /** Why sidecars were not placed; the video and the other sidecars were. */
  sidecarErrors: string[];
  /** An upgrade carried out: where the held video went in the recycle bin. */
  replaced: { path: string; recycled_to: string } | null;
}

export interface ImportTxOptions {
  journals: JournalsStore;
  mode: TransferMode;
  drives: Config['drives'];
  owner: Ownership;
  history: HistoryLog;
  log: Logger;
  record: RecordMove;
  now: () => number;
  /** A download whose mtime is this recent is still being written, and waits. */
  settled: (mtimeMs: number) => boolean;
}

export interface ImportTx {
  /** Finishes or takes back what a killed pass, undo or manual import left; call it first, under the pass lock. */
  recover(): Promise<void>;
  /** Places one planned video and its sidecars, and records the import; never throws for one file. */
  importOne(plan: ImportPlan, pass: string): Promise<Imported>;
}

const identity = (st: { dev: number; ino: number; size: number; mtimeMs: number }): FileIdentity => ({
  dev: st.dev,
  ino: st.ino,
  size: st.size,
  mtime_ms: st.mtimeMs,
});

/** Placed now or by an earlier delivery of this job, with both files' identities; else why not. */
async function placeOne(file: SourceFile, destination: string, mode: TransferMode, opts: MoveOptions): Promise<Placed> {
  try {
    // Its identity too: a folder on the way swapped for a link since the walk leads to another file.
    const o = { ...opts, expect: { size: file.size, mtimeMs: file.mtimeMs, dev: file.dev, ino: file.ino } };
    const r = mode === 'move' ? await moveFile(file.path, destination, o) : await keepAndPlace(file.path, destination, mode, o);
    if (r.status === 'exists') return { ok: false, error: `${destination} already exists` };
    if (r.status === 'gone' && !r.destination_exists) return { ok: false, error: `${file.path} is gone` };
    const to = await lstat(destination);
    return { ok: true, method: r.status === 'moved' ? r.method : 'rename', file: { source: file.path, destination, from: identity(file), to: identity(to) } };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

/**
 * The drive a library path lies on (the deepest, should one drive hold another): no folder below it
 * on the way to a destination may be a link. undefined: none, so no link anywhere on the way.
 */
function driveHolding(drives: Config['drives'], path: string): string | undefined {
  return drives
    .map((d) => d.path)
    .filter((d) => isInside(path, d))
    .sort((a, b) => b.length - a.length)[0];
}

/** The folders above `dir` that do not exist yet, outermost first: the ones an import creates. */
async function missingDirs(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (
    let d = dir;
    !(await lstat(d).then(
      () => true,
      () => false,
    ));
    d = dirname(d)
  ) {
    out.unshift(d);
    if (dirname(d) === d) break;
  }
  return out;
}

/**
 * The transfer journal, also telling the import's note the inode each copy is made on: the only
 * proof, after a kill, that the file at a destination is this import's copy and not another file
 * of the same size and mtime.
 */
function notingCopies(journal: TransferJournal, noted: ImportTicket): TransferJournal {
  return {
    async begin(transfer) {
      const ticket = await journal.begin(transfer);
      return {
        end: async () => ticket.end(),
        tempMade: async (id) => {
          await ticket.tempMade(id);
          await noted.made(transfer.destination, id);
        },
      };
    },
  };
}

/** What this recovery did to a sidecar left behind, by its destination: what the disk alone cannot tell. */
type Since = Pick<SidecarOnDisk, 'placedSince' | 'tried'>;

/** An upgrade's held files as its record notes them (before anything moves); a sidecar gone since is left out. */
async function heldFiles(r: NonNullable<ImportPlan['replaces']>): Promise<{ video: HeldFile; sidecars: HeldFile[] } | string> {
  const video = await lstat(r.video).catch(() => null);
  if (!video?.isFile()) return `${r.video}, the file this download replaces, is gone or no plain file; nothing was replaced`;
  const sidecars: HeldFile[] = [];
  for (const path of r.sidecars) {
    const st = await lstat(path).catch(() => null);
    if (st?.isFile()) sidecars.push({ path, held: identity(st) });
  }
  return { video: { path: r.video, held: identity(video) }, sidecars };
}

const same = (a: { dev: number; ino: number } | null, b: { dev: number; ino: number }) => a !== null && a.dev === b.dev && a.ino === b.ino;

/** The steps recovery takes at most for an import of `files` files (each placed, finished or put back once), with room to spare. */
const MAX_STEPS = (files: number) => 3 * files + 4;

export function openImportTx(o: ImportTxOptions): ImportTx {
  const transfers = o.journals.copies();
  const legacySidecars = o.journals.legacySidecars();
  const importNotes = o.journals.imports();
  const at = () => new Date(o.now()).toISOString();
  const place = (source: string, destination: string, opts: MoveOptions) =>
    o.mode === 'move' ? moveFile(source, destination, opts) : keepAndPlace(source, destination, o.mode, opts);

  /** Places a sidecar a killed pass left behind beside its video. */
  async function placeLeftBehind(s: { source: string; destination: string }): Promise<Since> {
    // Not held to its planned size and mtime: whatever it is now, it belongs beside its video.
    // But one still being written waits, like any download.
    const st = await lstat(s.source).catch(() => null);
    if (st && !o.settled(st.mtimeMs)) return { tried: 'waits' };
    try {
      const r = await place(s.source, s.destination, { owner: o.owner, journal: transfers, within: driveHolding(o.drives, s.destination) });
      const error = r.status === 'exists' ? `${s.destination} already exists` : null;
      o.log.warn({ source: s.source, destination: s.destination, error }, 'moved a sidecar an interrupted pass left behind');
      if (r.status !== 'gone') o.record(s.source, s.destination, error);
      const placed = r.status === 'moved' ? await lstat(s.destination).catch(() => null) : null;
      return placed ? { placedSince: { dev: placed.dev, ino: placed.ino } } : { tried: 'failed' };
    } catch (err) {
      o.log.warn(
        { source: s.source, destination: s.destination, err: (err as Error).message },
        'a sidecar an interrupted pass left behind could not be moved; the next pass tries again',
      );
      return { tried: 'waits' };
    }
  }

  /** One import record, a step at a time (next-step.ts) until it is dropped or kept; whether it recorded the import. */
  async function settle(r: PendingImport, since: Map<string, Since>): Promise<{ keep: boolean; recorded: boolean }> {
    const onDisk = async (f: PlannedFile): Promise<SidecarOnDisk> => ({
      source: await seenAt(f.source),
      destination: await seenAt(f.destination),
      ...since.get(f.destination),
    });
    const held = r.replaces ? [r.replaces.video, ...r.replaces.sidecars] : [];
    const stuck = new Set<number>();
    const heldOnDisk = async (h: HeldFile, i: number): Promise<HeldOnDisk> => {
      const paths = new Set([...(h.recycled_to ? [h.recycled_to] : []), ...(await binCopiesOf(o.drives, h.path))]);
      const bin = await Promise.all([...paths].map(async (path) => ({ path, seen: await seenAt(path) })));
      return {
        original: await seenAt(h.path),
        bin: bin.flatMap((b) => (b.seen ? [{ path: b.path, seen: b.seen }] : [])),
        ...(stuck.has(i) ? { tried: true } : {}),
      };
    };
    let recorded = false;
    for (let steps = 0; steps < MAX_STEPS(1 + r.sidecars.length + held.length); steps++) {
      const step = nextStep(r, {
        // An undone record of the same download (imported, undone, imported again) is not this import.
        recorded: o.history
          .records()
          .some(
            (h) =>
              h.undone_at === null &&
              h.source === r.source &&
              h.destination === r.destination &&
              h.from.dev === r.from.dev &&
              h.from.ino === r.from.ino &&
              h.from.size === r.from.size,
          ),
        video: await onDisk(r),
        sidecars: await Promise.all(r.sidecars.map(onDisk)),
        held: await Promise.all(held.map(heldOnDisk)),
      });
      switch (step.step) {
        case 'unrecycle': {
          const h = held[step.index]!;
          await restoreRecycled({ drives: o.drives, path: step.from }).then(
            () => o.log.warn({ path: h.path, from: step.from }, 'put back a file an upgrade that did not get through had sent to the recycle bin'),
            (err: unknown) => {
              // It stays in the bin, listed there for the owner: never lost, never written over.
              o.log.error(
                { path: h.path, from: step.from, err: (err as Error).message },
                'a replaced file could not go back from the recycle bin; it stays there',
              );
              stuck.add(step.index);
            },
          );
          break;
        }
        case 'finish-move': {
          const s = r.sidecars[step.index]!;
          // moveFile finds the one inode under both names and unlinks the download's.
          await moveFile(s.source, s.destination, { owner: o.owner, within: driveHolding(o.drives, s.destination) }).catch((err: unknown) =>
            o.log.warn({ source: s.source, err: (err as Error).message }, 'a sidecar moved but still linked in the downloads could not be unlinked there'),
          );
          since.set(s.destination, { ...since.get(s.destination), tried: 'failed' });
          break;
        }
        case 'unplace': {
          // The download's own inode under both names: the library's name goes, the download stays whole.
          const st = await lstat(r.destination);
          await throughFolder(r.destination, st, (name) => unlink(name));
          await fsyncPath(dirname(r.destination));
          break;
        }
        case 'place-sidecar': {
          const s = r.sidecars[step.index]!;
          since.set(s.destination, await placeLeftBehind(s));
          break;
        }
        case 'record':
          await o.history.recordImport({
            ...step.video,
            at: at(),
            mode: r.mode,
            method: step.method,
            sidecars: step.sidecars,
            created_dirs: r.created_dirs,
            pass: r.pass,
            replaced: step.replaced,
          });
          recorded = true;
          break;
        case 'keep':
        case 'drop':
          return { keep: step.step === 'keep', recorded };
      }
    }
    o.log.error({ source: r.source, destination: r.destination }, 'an interrupted import did not settle; its record stays for the next pass');
    return { keep: true, recorded };
  }

  return {
    async recover() {
      for (const r of await transfers.recover()) {
        o.log.warn({ ...r }, 'settled a copy left by an interrupted pass');
        if (r.outcome === 'completed') o.record(r.source, r.destination, null);
      }
      const since = new Map<string, Since>();
      await legacySidecars.recover(async (s) => {
        const r = await placeLeftBehind(s);
        since.set(s.destination, r);
        return r.tried === 'waits' ? 'keep' : 'done';
      });
      let recovered = 0;
      for (const note of await importNotes.list()) {
        const settled = note.value && (await settle(note.value, since));
        if (settled && settled.recorded) recovered++;
        if (!settled || !settled.keep) await note.drop();
      }
      if (recovered > 0) o.log.warn({ recovered }, 'recorded imports an interrupted pass carried out');
    },

    async importOne(p, pass) {
      const held = p.replaces ? await heldFiles(p.replaces) : null;
      if (typeof held === 'string') {
        o.record(p.video.path, p.destination, held);
        return { video: { ok: false, error: held }, sidecarErrors: [], replaced: null };
      }
      const created_dirs = await missingDirs(dirname(p.destination));
      // The one record of the import, dropped once it is in the history: a kill in between leaves
      // it to the next pass's recovery, which also places the sidecars the kill left behind.
      const importNoted = await importNotes.begin({
        source: p.video.path,
        destination: p.destination,
        from: identity(p.video),
        mode: o.mode,
        sidecars: p.sidecars.map((s) => ({ source: s.file.path, destination: s.destination, from: identity(s.file) })),
        created_dirs,
        pass,
        ...(held ? { replaces: held } : {}),
      });
      // Anything short of the new video in place takes the upgrade back (next-step.ts): the held files return.
      const takeBack = async (why: string): Promise<Imported> => {
        // Settled as recovery would; where that fails, the note stays for the next pass's recovery.
        const settled = await settle(importNoted.current(), new Map()).catch((err: unknown) => {
          o.log.error({ source: p.video.path, err: (err as Error).message }, 'an upgrade that did not get through could not be taken back yet');
          return { keep: true };
        });
        if (!settled.keep) await importNoted();
        const back = held && same(await seenAt(held.video.path), held.video.held);
        const error = `${why}; ${held?.video.path} ${back ? 'is back in its place' : 'is in the recycle bin (see GET /api/recycle)'}`;
        o.record(p.video.path, p.destination, error);
        return { video: { ok: false, error }, sidecarErrors: [], replaced: null };
      };
      let replaced: Replaced | null = null;
      if (held) {
        try {
          const items = await recycleFile({ drives: o.drives, file: held.video.path, sidecars: held.sidecars.map((s) => s.path), now: new Date(o.now()) });
          await importNoted.recycled(items.map((i) => i.path));
          const [video, ...sidecars] = [held.video, ...held.sidecars].map((h, i) => ({ path: h.path, recycled_to: items[i]!.path, held: h.held }));
          replaced = { ...video!, sidecars };
        } catch (err) {
          return takeBack(`the file it replaces could not go to the recycle bin: ${(err as Error).message}`);
        }
      }
      const opts: MoveOptions = { owner: o.owner, journal: notingCopies(transfers, importNoted), within: o.drives.find((d) => d.name === p.drive)?.path };
      const video = await placeOne(p.video, p.destination, o.mode, opts);
      if (!video.ok && held) return takeBack(video.error);
      o.record(p.video.path, p.destination, video.ok ? null : video.error);
      const sidecarErrors: string[] = [];
      const sidecars: PlacedFile[] = [];
      // Only after the video: sidecars without their video would be orphans in the library.
      if (video.ok) {
        for (const s of p.sidecars) {
          const r = await placeOne(s.file, s.destination, o.mode, opts);
          o.record(s.file.path, s.destination, r.ok ? null : r.error);
          if (r.ok) sidecars.push(r.file);
          else sidecarErrors.push(r.error);
        }
        await o.history.recordImport({ ...video.file, at: at(), mode: o.mode, method: video.method, sidecars, created_dirs, pass, replaced });
      }
      await importNoted();
      return { video, sidecarErrors, replaced: replaced && { path: replaced.path, recycled_to: replaced.recycled_to } };
    },
  };
}

export interface UndoTxOptions {
  journals: JournalsStore;
  /** paths.downloads: a file goes back only through real folders below it, no symbolic link on the way. */
  downloads: string;
  owner?: Ownership;
  history: HistoryLog;
  now: () => number;
  /** The drives, whose recycle bins an upgrade's replaced files come back from. */
  drives: Config['drives'];
}

export interface UndoTx {
  /** Settles the copies a killed undo or pass left in flight, as a pass's recovery does first; call it under the pass lock. */
  recover(): Promise<void>;
  /** Takes `record` back, a step at a time as planUndo says, and records the undo once every file is back. */
  undoOne(record: ImportRecord): Promise<void>;
}

export const linkConflict = (source: string, link: string) =>
  new AppError('conflict', `${link}, on the way to ${source}, is a symbolic link now; nothing is moved through one`, { reason: 'source_taken', path: source });

/** What undo's plan sees of each file of `record`: the video first, then each sidecar in the record's order. */
export async function undoSeen(record: ImportRecord) {
  return Promise.all([record, ...record.sidecars].map(async (f) => ({ destination: await seenForUndo(f.destination), source: await seenForUndo(f.source) })));
}

/** What undo's plan sees of each file an upgrade replaced: at its library path, and in the bin. */
export async function undoHeldSeen(record: ImportRecord) {
  return Promise.all(replacedFiles(record).map(async (r) => ({ original: await seenForUndo(r.path), bin: await seenForUndo(r.recycled_to) })));
}

/** Removes the folders the import made, deepest first, while they are empty. */
async function removeEmptyDirs(dirs: readonly string[]): Promise<void> {
  for (const dir of [...dirs].reverse()) {
    try {
      await rmdir(dir);
      await fsyncPath(dirname(dir));
    } catch {
      return;
    }
  }
}

export function openUndoTx(o: UndoTxOptions): UndoTx {
  const transfers = o.journals.copies();

  async function carryOut(step: UndoStep): Promise<void> {
    if (step.action === 'restore') {
      await restoreRecycled({ drives: o.drives, path: step.held.recycled_to });
      return;
    }
    const { action, file } = step;
    if (action === 'remove') {
      // Through its folder held open, as the very file the plan checked: a library folder swapped for
      // a link meanwhile would have the unlink remove another file of the same name.
      await throughFolder(file.destination, file.to, (name) => unlink(name));
      await fsyncPath(dirname(file.destination));
      return;
    }
    // The download's folder may have gone since: moveFile makes it again, as the import made the library's.
    const r = await moveFile(file.destination, file.source, {
      owner: o.owner,
      expect: { size: file.to.size, mtimeMs: file.to.mtime_ms, dev: file.to.dev, ino: file.to.ino },
      journal: transfers,
      within: o.downloads,
    }).catch((err: unknown) => {
      // A link put on the way since the caller's check: refused as that check refuses it.
      if (err instanceof LinkOnTheWayError) throw linkConflict(file.source, err.link);
      throw err;
    });
    if (r.status === 'exists') throw new AppError('conflict', `${file.source} is taken by another file`, { path: file.source });
  }

  return {
    async recover() {
      await transfers.recover();
    },

    async undoOne(record) {
      // Each step takes one file back, so the plan runs out within one look per file.
      for (let looks = 0; looks <= record.sidecars.length + 1 + replacedFiles(record).length; looks++) {
        const plan = planUndo(record, await undoSeen(record), await undoHeldSeen(record));
        if (!plan.ok) throw new AppError('conflict', plan.message, { reason: plan.reason, path: plan.path });
        // Sidecars first: a video back in the downloads without them would be planned alone.
        const step = plan.steps.at(-1);
        if (!step) {
          await removeEmptyDirs(record.created_dirs);
          await o.history.recordUndo(record.id, new Date(o.now()).toISOString());
          return;
        }
        await carryOut(step);
      }
      throw new Error(`import ${record.id}: a step of its undo did not take its file back`);
    },
  };
}
