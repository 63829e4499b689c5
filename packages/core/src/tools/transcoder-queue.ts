import type { IndexItem, State, transcodeItemSchema } from '@mo/shared';
import type { z } from 'zod';

export type TranscodeItem = z.infer<typeof transcodeItemSchema>;
/** A queue entry before its status is known; what the index alone decides. */
export type TranscodeEntry = Omit<TranscodeItem, 'status'>;

/**
 * Indexed video not yet in MP4, ordered by path: the order does not depend on the walk, so "the
 * next one" is the same on every call until the index or the statuses change.
 */
export function transcodeQueue(items: readonly IndexItem[]): TranscodeEntry[] {
  return items
    .filter((i) => i.type === 'video' && i.ext !== '.mp4')
    .map((i) => ({
      path: i.path,
      ext: i.ext,
      bytes: i.bytes,
      kind: i.section === 'movies' ? ('movie' as const) : ('episode' as const),
      title: i.title,
    }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The queue with what became of each entry; entries nobody has started are `queued`. */
export function withStatus(queue: readonly TranscodeEntry[], transcodes: State['transcodes']): TranscodeItem[] {
  return queue.map((e) => ({ ...e, status: Object.hasOwn(transcodes, e.path) ? transcodes[e.path]!.status : 'queued' }));
}

export function firstQueued(queue: readonly TranscodeEntry[], transcodes: State['transcodes']): TranscodeEntry | null {
  return queue.find((e) => !Object.hasOwn(transcodes, e.path)) ?? null;
}
