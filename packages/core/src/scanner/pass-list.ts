import type { z } from 'zod';
import { PASS_ENTRIES_MAX, type scanPassSchema } from '@mo/shared';
import { fullPassResult, listPassFiles, readPassFile, summarisePass, writePassFile, type PassSummary } from './pass-file.ts';
import type { ScanResult } from './run-pass.ts';
import { dataDir as dataFolder, type DataDir } from '../data-dir/data-dir.ts';

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

/** The passes' files as the data folder hands them out (`DataStores.passes()`). */
export interface PassesStore {
  readonly dir: string;
  write(jobId: string, result: ScanResult, keep?: number): Promise<PassSummary>;
  read(jobId: string): Promise<ScanResult | null>;
  /** A scan job's result as the API answers it (see fullPassResult). */
  full(jobId: string, result: unknown): Promise<unknown>;
  recent(limit: number, max?: number): Promise<ScanPass[]>;
}

export function passesStore(data: DataDir): PassesStore {
  return {
    dir: data.path('passes'),
    write: (jobId, result, keep) => writePassFile(data.root, jobId, result, keep),
    read: (jobId) => readPassFile(data.root, jobId),
    full: (jobId, result) => fullPassResult(data.root, jobId, result),
    recent: (limit, max) => readRecentPasses(data.root, limit, max),
  };
}
