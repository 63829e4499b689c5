import { RECENT_LIMIT, type RecentEntry } from '@mo/shared';

/**
 * Adds a pass's entries (newest first) in front of the recent list. A source's older plans go:
 * a dry-run pass every few minutes would otherwise fill the list with the same plan, and a plan
 * whose file has since moved says nothing the move does not.
 */
export function mergeRecent(current: readonly RecentEntry[], added: readonly RecentEntry[], limit = RECENT_LIMIT): RecentEntry[] {
  const sources = new Set(added.map((e) => e.source));
  const kept = current.filter((e) => !(e.type === 'plan' && sources.has(e.source)));
  return [...added, ...kept].slice(0, limit);
}
