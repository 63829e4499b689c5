import { lstat, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Config, JobResult } from '@mo/shared';
import { isInside, realPathOf } from '../fs/real-path.ts';
import type { HistoryLog } from '../history/history-log.ts';
import type { PlacedFile } from '../history/history-record.ts';
import type { PendingRenames, RenamedIdentity } from '../import-tx/organize-journal.ts';
import { renameInIndex, type IndexRename } from '../library/index-patch.ts';
import { streamItems } from '../library/index-store.ts';
import type { Logger } from '../logging/logger.ts';
import { organizeGroups, type Group, type OrganizeItem } from './organize-plan.ts';
import { renameState, settleGroup, unchangedNode, type SeenNode } from './organize-settle.ts';
import type { ScanStores } from './scan-stores.ts';

export type OrganizeResult = JobResult<'library-organize'>;

export interface OrganizeApplyOptions {
  config: Config;
  data: ScanStores;
  /** The `from` of renames GET /api/library/organize listed; absent: all. Checked again here. */
  paths?: readonly string[];
  /** The organize job: each group's history item names it as its `pass`. */
  jobId: string;
  log: Logger;
  signal?: AbortSignal;
  progress?: (p: { done: number; total: number }) => void;
  now?: () => number;
  /** How long to wait for a scanner pass or an undo to end. */
  lockWaitMs?: number;
}

/** The renames of a group as the index saw its files: what the disk is checked against before each one. */
type Indexed = OrganizeItem & { bytes: number; mtime_ms: number };

export async function seenNode(path: string): Promise<SeenNode | null> {
  try {
    const s = await lstat(path, { bigint: false });
    return { dev: s.dev, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, isFile: s.isFile(), isDir: s.isDirectory() };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}

const identityOf = (seen: SeenNode): RenamedIdentity => ({
  dev: seen.dev,
  ino: seen.ino,
  // A folder's own size and mtime say nothing of it; 0 keeps the history's byte counts to files.
  size: seen.isDir ? 0 : seen.size,
  mtime_ms: seen.isDir ? 0 : seen.mtimeMs,
  dir: seen.isDir,
});

const placed = (r: { from: string; to: string; id: RenamedIdentity }): PlacedFile => {
  const id = { dev: r.id.dev, ino: r.id.ino, size: r.id.size, mtime_ms: r.id.mtime_ms };
  return { source: r.from, destination: r.to, from: id, to: id };
};

/** The history item of a group's renames carried out (`done`, in the order they ran): the first is the video or the folder. */
async function recordGroup(history: HistoryLog, job: string, done: PendingRenames['renames'], at: string): Promise<number> {
  const [main, ...sidecars] = done;
  const record = await history.recordImport({
    at,
    mode: 'rename',
    method: 'rename',
    ...placed(main!),
    sidecars: sidecars.map(placed),
    created_dirs: [],
    pass: job,
  });
  return record.id;
}

const asIndexRenames = (renames: PendingRenames['renames']): IndexRename[] => renames.map((r) => ({ from: r.from, to: r.to, folder: r.id.dir }));

/**
 * Settles what a killed organize job left (see settleGroup): each group noted but not recorded is
 * finished (every rename done: recorded now) or taken back (renames undone, last first); then the
 * index gets every group's new names and the notes go. Run holding the scanner's pass lock.
 */
export async function recoverOrganizeLocked(data: ScanStores, log: Logger, now: () => number = Date.now): Promise<{ groups: number }> {
  const journal = data.journals().organize();
  const notes = await journal.list();
  if (notes.length === 0) return { groups: 0 };
  const history = await data.history().open();
  const patch: IndexRename[] = [];
  for (const note of notes) {
    const group = note.value;
    if (group === null) continue;
    if (group.recorded !== null) {
      patch.push(...asIndexRenames(group.renames));
      continue;
    }
    const states = await Promise.all(group.renames.map(async (r) => renameState(r.id, { from: await seenNode(r.from), to: await seenNode(r.to) })));
    const settle = settleGroup(states);
    if (settle.action === 'record') {
      const [main] = group.renames;
      // The history line may be written already: the kill came before the note said so.
      const known = history
        .records()
        .find((r) => r.mode === 'rename' && r.pass === group.job && r.source === main!.from && r.destination === main!.to && r.to.ino === main!.id.ino);
      const id = known?.id ?? (await recordGroup(history, group.job, group.renames, new Date(now()).toISOString()));
      log.info({ id, from: main!.from, to: main!.to }, 'organize: a rename group a killed job carried out is recorded');
      patch.push(...asIndexRenames(group.renames));
      continue;
    }
    const stuck: PendingRenames['renames'] = [];
    for (const i of settle.indexes) {
      const r = group.renames[i]!;
      if ((await seenNode(r.from)) === null) {
        await rename(r.to, r.from);
        log.info({ from: r.to, to: r.from }, 'organize: a rename of a group a killed job left half done is taken back');
      } else {
        stuck.push(r);
      }
    }
    if (stuck.length > 0) {
      // The old name was taken meanwhile: the file keeps its new name, recorded so that it can be found and undone.
      stuck.reverse();
      await recordGroup(history, group.job, stuck, new Date(now()).toISOString());
      patch.push(...asIndexRenames(stuck));
      log.warn({ files: stuck.map((r) => r.to) }, 'organize: renames a killed job left could not be taken back (their old names are taken); recorded as done');
    }
  }
  await renameInIndex(data.index(), patch);
  for (const note of notes) await note.drop();
  return { groups: notes.length };
}

/** The library folders of every drive by real path: a rename is carried out only inside one. */
async function libraryRoots(cfg: Config): Promise<string[]> {
  const roots: string[] = [];
  for (const d of cfg.drives) {
    for (const f of [...cfg.library.movie_folders, ...cfg.library.tv_folders]) {
      const root = await realPathOf(join(d.path, f)).catch(() => null);
      if (root !== null) roots.push(root);
    }
  }
  return roots;
}

/** Why a rename cannot be carried out now, or null: checked against the disk right before it runs. */
async function refusal(
  r: { from: string; to: string },
  item: Indexed | undefined,
  noted: RenamedIdentity | undefined,
): Promise<{ reason: string; seen: SeenNode | null }> {
  const seen = await seenNode(r.from);
  if (seen === null) return { reason: `${r.from} is gone`, seen };
  if (!seen.isFile && !seen.isDir) return { reason: `${r.from} is no longer a plain file or folder`, seen };
  if (noted !== undefined && !unchangedNode(seen, noted)) return { reason: `${r.from} changed while it was being renamed`, seen };
  if (item !== undefined && (!seen.isFile || seen.size !== item.bytes || Math.abs(seen.mtimeMs - item.mtime_ms) >= 1)) {
    return { reason: `${r.from} changed since the library scan`, seen };
  }
  const target = await seenNode(r.to);
  // One file at both names: only the case changes, on a filesystem that ignores it.
  if (target !== null && !(target.dev === seen.dev && target.ino === seen.ino)) return { reason: `${r.to} is taken`, seen };
  return { reason: '', seen };
}

/**
 * Carries out the chosen renames of GET /api/library/organize (docs/scanner.md "Organizing the
 * library"), planned again here from the index: a path that is no longer proposed, that lies
 * outside a drive's library folders by its real path, or whose file changed since the scan is
 * skipped with why. Group by group (a video with its sidecars, or a folder), each noted before its
 * first rename and recorded as one history item of mode `rename` after its last; a rename that
 * fails takes the group's earlier ones back. Only rename(2) within a folder: never a copy, never
 * onto a path that is there (checked right before each). The index gets the new names at the end.
 */
export async function applyOrganize(opts: OrganizeApplyOptions): Promise<OrganizeResult> {
  const now = opts.now ?? Date.now;
  const { config: cfg, data, log } = opts;
  const journals = data.journals();
  return journals.locked(
    async (held) => {
      await recoverOrganizeLocked(data, log, now);
      const items = new Map<string, Indexed>();
      const index = await data.index().open();
      if (index) {
        try {
          await streamItems(index, (i) =>
            items.set(i.path, {
              path: i.path,
              section: i.section,
              root: i.root,
              folder: i.folder,
              ext: i.ext,
              type: i.type,
              title: i.title,
              year: i.year,
              season: i.season,
              episodes: i.episodes,
              air_date: i.air_date,
              extra: i.extra,
              bytes: i.bytes,
              mtime_ms: i.mtime_ms,
            }),
          );
        } finally {
          await index.handle.close();
        }
      }
      const { movie_template: movieTemplate, episode_template: episodeTemplate } = cfg.library;
      const groups = organizeGroups([...items.values()], { movieTemplate, episodeTemplate });
      const renamed: OrganizeResult['renamed'] = [];
      const skipped: OrganizeResult['skipped'] = [];
      let chosen: Group[] = groups;
      if (opts.paths !== undefined) {
        const named = new Set(opts.paths);
        // A sidecar goes with its video: naming either carries out the group.
        chosen = groups.filter((g) => g.some((r) => named.has(r.from)));
        const proposed = new Set(chosen.flatMap((g) => g.map((r) => r.from)));
        for (const path of named) if (!proposed.has(path)) skipped.push({ from: path, reason: 'is no longer a rename GET /api/library/organize lists' });
      }
      const total = chosen.reduce((n, g) => n + g.length, 0) + skipped.length;
      let done = skipped.length;
      opts.progress?.({ done, total });
      const roots = await libraryRoots(cfg);
      const history = await data.history().open();
      const patch: IndexRename[] = [];
      const notes: (() => Promise<void>)[] = [];
      for (const group of chosen) {
        held();
        // Cancelled, or the worker is shutting down: what is done gets into the index, the rest waits for the retry.
        if (opts.signal?.aborted) break;
        const outcome = await applyGroup(group, { items, roots, job: opts.jobId, journals, history, at: () => new Date(now()).toISOString(), log });
        if (outcome.ok) {
          renamed.push(...group.map((r) => ({ from: r.from, to: r.to })));
          patch.push(...group.map((r) => ({ from: r.from, to: r.to, folder: r.kind === 'folder' })));
          notes.push(outcome.drop);
        } else {
          skipped.push(...group.map((r) => ({ from: r.from, reason: outcome.reason })));
        }
        done += group.length;
        opts.progress?.({ done, total });
      }
      await renameInIndex(data.index(), patch);
      // Dropped once the index holds the new names: a kill before this is patched by recovery.
      for (const drop of notes) await drop();
      opts.signal?.throwIfAborted();
      log.info({ renamed: renamed.length, skipped: skipped.length }, 'organize: renames carried out');
      return { renamed, skipped };
    },
    { waitMs: opts.lockWaitMs ?? 60_000 },
  );
}

interface GroupContext {
  items: ReadonlyMap<string, Indexed>;
  roots: readonly string[];
  job: string;
  journals: ReturnType<ScanStores['journals']>;
  history: HistoryLog;
  at: () => string;
  log: Logger;
}

/** One group's renames, all or none (see applyOrganize). */
async function applyGroup(group: Group, ctx: GroupContext): Promise<{ ok: true; drop: () => Promise<void> } | { ok: false; reason: string }> {
  const noted: PendingRenames['renames'] = [];
  for (const r of group) {
    const dir = await realPathOf(dirname(r.from)).catch(() => null);
    if (dir === null || !ctx.roots.some((root) => isInside(dir, root))) {
      return { ok: false, reason: `${r.from} lies outside the library folders by its real path` };
    }
    if (dirname(r.to) !== dirname(r.from)) return { ok: false, reason: `${r.to} is not in the folder of ${r.from}` };
    const why = await refusal(r, r.kind === 'folder' ? undefined : ctx.items.get(r.from), undefined);
    if (why.reason !== '') return { ok: false, reason: why.reason };
    if (r.kind === 'folder' ? !why.seen!.isDir : !why.seen!.isFile)
      return { ok: false, reason: `${r.from} is no longer a ${r.kind === 'folder' ? 'folder' : 'file'}` };
    noted.push({ from: r.from, to: r.to, id: identityOf(why.seen!) });
  }
  const note = await ctx.journals.organize().begin({ job: ctx.job, renames: noted, recorded: null });
  const back = async (count: number) => {
    for (let i = count - 1; i >= 0; i--) {
      const r = noted[i]!;
      if ((await seenNode(r.from)) === null) await rename(r.to, r.from);
    }
  };
  for (const [i, r] of noted.entries()) {
    const why = await refusal(r, undefined, r.id);
    let reason = why.reason;
    if (reason === '') {
      try {
        await rename(r.from, r.to);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        reason =
          code === 'EXDEV'
            ? `${r.to} is on another filesystem: a rename cannot reach it`
            : `${r.from} could not be renamed (${code ?? (err as Error).message})`;
      }
    }
    if (reason !== '') {
      await back(i);
      await note();
      ctx.log.warn({ from: r.from, to: r.to, reason }, 'organize: a rename group is skipped');
      return { ok: false, reason };
    }
  }
  const id = await recordGroup(ctx.history, ctx.job, noted, ctx.at());
  await note.rewrite({ job: ctx.job, renames: noted, recorded: id });
  return { ok: true, drop: note };
}
