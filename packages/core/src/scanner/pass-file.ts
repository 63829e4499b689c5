import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { PASS_FILES_KEPT, passSummarySchema, scanResultSchema } from '@mo/shared';
import { removeStaleTempsIn, writeFileAtomic } from '../fs/atomic-write.ts';
import { readdirIfExists } from '../fs/read-dir.ts';
import type { ScanResult } from './run-pass.ts';
import { dataDir as dataFolder } from '../data-dir/data-dir.ts';

export type PassSummary = z.infer<typeof passSummarySchema>;

/** Relative to paths.data: the full results of the last PASS_FILES_KEPT scanner passes, one file a job. */
export const PASSES_DIR = dataFolder('').path('passes');

/** BullMQ's own ids (digits) and the scan schedule's (`repeat:periodic-scan-pass:<ms>`). */
const JOB_ID = /^[A-Za-z0-9][A-Za-z0-9:_-]{0,199}$/;

/** Where a pass job's full result lives, relative to paths.data; throws for an id that could name another file. */
export function passFileName(jobId: string): string {
  if (!JOB_ID.test(jobId)) throw new Error(`a scan job id cannot name a pass file: ${JSON.stringify(jobId)}`);
  return `${PASSES_DIR}/${jobId}.json`;
}

/**
 * The dry run and counts of a finished pass job's result: the summary it keeps in Redis, or a full
 * result that an older version kept there; null for anything else.
 */
export function passOutline(result: unknown): Omit<PassSummary, 'pass_file'> | null {
  const summary = passSummarySchema.safeParse(result);
  const full = summary.success ? null : scanResultSchema.safeParse(result);
  const found = summary.success ? summary.data : full?.success ? summarisePass(full.data, '') : null;
  if (!found) return null;
  const { pass_file: _, ...outline } = found;
  return outline;
}

export function summarisePass(result: ScanResult, passFile: string): PassSummary {
  const failed = result.moves.filter((m) => m.status === 'failed').length;
  return {
    dry_run: result.dry_run,
    started_at: result.started_at,
    finished_at: result.finished_at,
    counts: { plans: result.plans.length, moved: result.moves.length - failed, failed, skipped: result.skipped.length },
    pass_file: passFile,
  };
}

export interface PassFileEntry {
  name: string;
  mtimeMs: number;
}

/** Pass files by when they were written, newest first (ties broken by name, for a stable answer). */
export function passFilesNewestFirst(files: readonly PassFileEntry[]): PassFileEntry[] {
  return [...files].sort((a, b) => b.mtimeMs - a.mtimeMs || (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}

/** The names to delete so that the newest `keep` files stay. */
export function passFilesBeyond(files: readonly PassFileEntry[], keep: number): string[] {
  return passFilesNewestFirst(files)
    .slice(keep)
    .map((f) => f.name);
}

/** The pass files under `dir` (not the temps of a write under way), newest first. */
export async function listPassFiles(dir: string): Promise<PassFileEntry[]> {
  const names = (await readdirIfExists(dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
  const files = await Promise.all(
    names.map((name) =>
      stat(join(dir, name)).then(
        (s) => ({ name, mtimeMs: s.mtimeMs }),
        () => null,
      ),
    ),
  );
  return passFilesNewestFirst(files.filter((f): f is PassFileEntry => f !== null));
}

async function prunePassFiles(dir: string, keep: number): Promise<void> {
  await removeStaleTempsIn(dir);
  for (const name of passFilesBeyond(await listPassFiles(dir), keep)) await rm(join(dir, name), { force: true });
}

/**
 * Writes the pass's full result beside the others (atomically: a reader sees all of it or none),
 * keeps the newest `keep`, and answers with the summary the job keeps in Redis.
 */
export async function writePassFile(dataDir: string, jobId: string, result: ScanResult, keep = PASS_FILES_KEPT): Promise<PassSummary> {
  const name = passFileName(jobId);
  const dir = dataFolder(dataDir).path('passes');
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(dataFolder(dataDir).passFile(name), JSON.stringify(result));
  await prunePassFiles(dir, keep);
  return summarisePass(result, name);
}

/** A pass job's full result, or null when its file is gone (pruned, or paths.data moved) or is not one. */
export async function readPassFile(dataDir: string, jobId: string): Promise<ScanResult | null> {
  let text: string;
  try {
    text = await readFile(dataFolder(dataDir).passFile(passFileName(jobId)), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = scanResultSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * A scan job's result as the API answers it (CONTRACT.md's full pass result): read back from the
 * pass file when the job keeps a summary. The file is found from the job's id, never from a path
 * stored in Redis. A result that is not a summary (kept by an older version) is answered as it is;
 * a summary whose file is gone, as the summary.
 */
export async function fullPassResult(dataDir: string, jobId: string, result: unknown): Promise<unknown> {
  if (!passSummarySchema.safeParse(result).success) return result;
  return (await readPassFile(dataDir, jobId)) ?? result;
}
