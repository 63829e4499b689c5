import type { IndexItem, State, transcodeItemSchema, transcodeListingSchema, TranscodeProgress } from '@mo/shared';
import type { z } from 'zod';

export type TranscodeItem = z.infer<typeof transcodeItemSchema>;
export type TranscodeListing = z.infer<typeof transcodeListingSchema>;
/** A queue entry before its status is known; what the index alone decides. */
export type TranscodeEntry = Omit<TranscodeItem, 'status'>;
type Records = State['transcodes'];

/**
 * Indexed video not yet in MP4, ordered by path: the order does not depend on the walk, so "the
 * next one" is the same on every call until the index or the statuses change.
 */
export function transcodeQueue(items: Iterable<IndexItem>): TranscodeEntry[] {
  const acc = transcodeQueueAccumulator();
  for (const item of items) acc.add(item);
  return acc.queue();
}

/** `transcodeQueue` fed one item at a time. */
export function transcodeQueueAccumulator(): { add(item: IndexItem): void; queue(): TranscodeEntry[] } {
  const entries: TranscodeEntry[] = [];
  return {
    add(i) {
      if (i.type !== 'video' || i.ext === '.mp4') return;
      entries.push({ path: i.path, ext: i.ext, bytes: i.bytes, kind: i.section === 'movies' ? 'movie' : 'episode', title: i.title });
    },
    queue: () => entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
  };
}

const record = (records: Records, path: string) => (Object.hasOwn(records, path) ? records[path] : undefined);

/**
 * The entries still to run (`queued`, with or without a job waiting), in the order they run:
 * higher priority first, as BullMQ takes their jobs. Among equal priorities BullMQ takes jobs in
 * the order they were queued or last given a priority (both stamp `updated_at`), and an entry
 * without a job yet joins behind them when run-next or run-all queues it, in path order.
 */
export function runOrder(queue: readonly TranscodeEntry[], records: Records): TranscodeEntry[] {
  // Each entry's keys looked up once, not in every comparison: 445,000 entries at 1,000,000 files.
  const keyed: { e: TranscodeEntry; priority: number; queuedAt: string | null }[] = [];
  for (const e of queue) {
    const r = record(records, e.path);
    if ((r?.status ?? 'queued') === 'queued') keyed.push({ e, priority: r?.priority ?? 0, queuedAt: r?.job_id ? r.updated_at : null });
  }
  // Array.prototype.sort is stable: what is still equal keeps the queue's path order.
  keyed.sort((a, b) => {
    if (a.priority !== b.priority) return b.priority - a.priority;
    const [ta, tb] = [a.queuedAt, b.queuedAt];
    if (ta === null || tb === null) return ta === tb ? 0 : ta === null ? 1 : -1;
    return ta < tb ? -1 : ta > tb ? 1 : 0;
  });
  return keyed.map((k) => k.e);
}

/** The next entries to claim, in run order: queued ones without a job. */
export function claimable(queue: readonly TranscodeEntry[], records: Records): TranscodeEntry[] {
  return runOrder(queue, records).filter((e) => (record(records, e.path)?.job_id ?? null) === null);
}

export function withStatus(queue: readonly TranscodeEntry[], records: Records): TranscodeItem[] {
  return queue.map((e) => ({ ...e, status: record(records, e.path)?.status ?? 'queued' }));
}

/**
 * The queue as GET /api/tools/transcoder lists it: each entry's record, place in line and
 * progress. Each listed entry is made as it is reached: at 1,000,000 indexed files the queue is
 * 445,000 entries, and the answer is written from them one at a time, never holding them all.
 */
export function listing(queue: readonly TranscodeEntry[], records: Records, progress: ReadonlyMap<string, TranscodeProgress>): Iterable<TranscodeListing> {
  const position = new Map(runOrder(queue, records).map((e, i) => [e.path, i + 1]));
  return {
    *[Symbol.iterator]() {
      for (const e of queue) yield listed(e, records, progress, position);
    },
  };
}

/** One entry of `listing`, or undefined where `path` is not in the queue. */
export function listingOf(path: string, queue: readonly TranscodeEntry[], records: Records): TranscodeListing | undefined {
  for (const e of listing(queue, records, new Map())) if (e.path === path) return e;
  return undefined;
}

function listed(
  e: TranscodeEntry,
  records: Records,
  progress: ReadonlyMap<string, TranscodeProgress>,
  position: ReadonlyMap<string, number>,
): TranscodeListing {
  const r = record(records, e.path);
  const running = r?.status === 'running' && r.job_id !== null ? progress.get(r.job_id) : undefined;
  // Spelled out rather than spread: adding fields to a copy grows its property store once per
  // field, which at tens of thousands of entries was 100 MB of garbage per listing.
  return {
    path: e.path,
    ext: e.ext,
    bytes: e.bytes,
    kind: e.kind,
    title: e.title,
    status: r?.status ?? 'queued',
    position: position.get(e.path) ?? null,
    priority: r?.priority ?? 0,
    job_id: r?.job_id ?? null,
    progress: running ?? null,
    error: r?.status === 'failed' ? r.error : null,
    output: r?.status === 'done' ? r.output : null,
    original: r?.status === 'done' ? r.original : null,
    original_recycled_to: r?.status === 'done' ? r.original_recycled_to : null,
    result: r?.status === 'done' && r.before && r.after ? { before: r.before, after: r.after, seconds: r.seconds } : null,
  };
}
