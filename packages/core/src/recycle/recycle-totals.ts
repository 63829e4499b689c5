import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { DataDir } from '../data-dir/data-dir.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import type { RecycleTotals } from './recycle-bin.ts';

const totalsSchema = z.object({ files: z.number().int().min(0), bytes: z.number().min(0), counted_at: z.string() });
export type CountedRecycleTotals = z.infer<typeof totalsSchema>;

/**
 * The dashboard reads the cache only, so the bin's size is written down whenever the bin is listed,
 * recycled into, restored from, emptied or purged; null before the first count.
 */
export async function readRecycleTotals(dir: DataDir): Promise<CountedRecycleTotals | null> {
  const text = await readFile(dir.path('recycleTotals'), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const parsed = totalsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function writeRecycleTotals(dir: DataDir, totals: RecycleTotals, now = new Date()): Promise<void> {
  await mkdir(dirname(dir.path('recycleTotals')), { recursive: true });
  await writeFileAtomic(dir.path('recycleTotals'), JSON.stringify({ ...totals, counted_at: now.toISOString() }));
}
