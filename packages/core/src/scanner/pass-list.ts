import type { z } from 'zod';
import { PASS_ENTRIES_MAX, type scanPassSchema } from '@mo/shared';
import { listPassFiles, readPassFile, summarisePass } from './pass-file.ts';
import type { ScanResult } from './run-pass.ts';
import { dataDir as dataFolder } from '../data-dir/data-dir.ts';

export type ScanPass = z.infer<typeof scanPassSchema>;

/**
 * A pass as GET /api/scan/passes answers it: its counts from the whole result, each list cut to
 * `max` entries, and how many each cut left out. A pass over a folder of thousands of unrecognised
 * files would otherwise answer megabytes, twenty passes at a time.
 */
export function boundedPass(id: string, result: ScanResult, max = PASS_ENTRIES_MAX): ScanPass {
  const cut = <T>(list: readonly T[]) => list.slice(0, max);
  const left = (list: readonly unknown[]) => Math.max(0, list.length - max);
  return {
    id,
    dry_run: result.dry_run,
    started_at: result.started_at,
    finished_at: result.finished_at,
    counts: summarisePass(result, '').counts,
    plans: cut(result.plans),
    moves: cut(result.moves),
    skipped: cut(result.skipped),
    truncated: { plans: left(result.plans), moves: left(result.moves), skipped: left(result.skipped) },
  };
}

/**
 * The newest `limit` passes kept under <dataDir>/passes, newest first. A file that is not a pass
 * (damaged, or a name no job id makes) is passed over, and the next one taken in its place.
 */
export async function readRecentPasses(dataDir: string, limit: number, max = PASS_ENTRIES_MAX): Promise<ScanPass[]> {
  const passes: ScanPass[] = [];
  for (const { name } of await listPassFiles(dataFolder(dataDir).path('passes'))) {
    if (passes.length >= limit) break;
    const id = name.slice(0, -'.json'.length);
    const result = await readPassFile(dataDir, id);
    if (result) passes.push(boundedPass(id, result, max));
  }
  return passes;
}
