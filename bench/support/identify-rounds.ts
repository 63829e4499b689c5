// The libraries and verdicts of the identification benchmark (bench/identify.bench.ts).
import type { CaseExpect } from '@mo/core/parse';
import { folderTitleKey } from '@mo/core';
import { type Plan, type Skipped, safeName } from '@mo/core/scanner';

export type Verdict = 'right' | 'refused' | 'wrong';

/** What a pass made of one download: a plan, or the reason it was left alone. */
export type Outcome = { plan: Plan } | { skipped: Skipped };

/** The library folder of a labelled series, valid on every filesystem as the app makes its own. */
export function seriesFolder(label: { title: string; year?: number | null }): string {
  return safeName(label.year == null ? label.title : `${label.title} (${label.year})`);
}

/**
 * Whole libraries in which folders whose names compare alike (`Doctor Who` and `Doctor Who (2005)`,
 * `Show Name` and `Show name`) are never together: round i holds the i-th spelling of each title
 * key that has one and the first spelling of every other key. A name is planned in the round of
 * its series' folder, so that it has one folder it belongs in, and the matcher still picks among
 * all the other series.
 */
export function buildRounds(folders: Iterable<string>): { rounds: string[][]; roundOf: ReadonlyMap<string, number> } {
  const byKey = new Map<string, string[]>();
  for (const folder of new Set(folders)) {
    const key = folderTitleKey(folder).key;
    const spellings = byKey.get(key);
    if (spellings) spellings.push(folder);
    else byKey.set(key, [folder]);
  }
  const keys = [...byKey.values()];
  const count = Math.max(0, ...keys.map((spellings) => spellings.length));
  const rounds = Array.from({ length: count }, (_, i) => keys.map((spellings) => spellings[i] ?? spellings[0]!));
  const roundOf = new Map(keys.flatMap((spellings) => spellings.map((folder, i) => [folder, i] as const)));
  return { rounds, roundOf };
}

function sameSorted(a: readonly number[], b: readonly number[]): boolean {
  const x = [...a].sort((m, n) => m - n);
  const y = [...b].sort((m, n) => m - n);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/**
 * A numbered plan is judged by season and episodes, a dated one by its air date; a label that gives
 * both is met by either. A season pack (`episodes: []`) is one file for many episodes: planned into
 * its own season it is in the right place, though a pass ought to refuse it.
 */
function sameNumbers(plan: Plan, label: CaseExpect): boolean {
  if (plan.air_date !== null) return plan.air_date === label.air_date;
  if (plan.episodes === null || plan.season !== label.season) return false;
  const episodes = label.episodes ?? [];
  return episodes.length === 0 ? label.episodes !== undefined && label.air_date == null : sameSorted(plan.episodes, episodes);
}

/** `folderPath`: the absolute path of the series' library folder. */
export function judgeCase(outcome: Outcome, label: CaseExpect, folderPath: string): Verdict {
  if ('skipped' in outcome) return 'refused';
  const inFolder = outcome.plan.destination.startsWith(`${folderPath}/`);
  return inFolder && sameNumbers(outcome.plan, label) ? 'right' : 'wrong';
}
