import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { removeStaleTempsIn, writeFileAtomic } from '../fs/atomic-write.ts';
import { isAlive } from '../fs/fsync.ts';
import { readdirIfExists } from '../fs/read-dir.ts';
import type { DataDir } from '../data-dir/data-dir.ts';

export type WorkKind = 'remux' | 'transcode';

/**
 * Temp outputs sit beside their target (same filesystem, so the final rename is atomic), hidden,
 * and ending in `.part`, so neither a library scan nor the downloads scanner takes them for a video.
 */
export function workTempPath(target: string, kind: WorkKind, token: string): string {
  return join(dirname(target), `.mo-${kind}-${token}.${basename(target)}.part`);
}

const WORK_TEMP_NAME = /^\.mo-(?:remux|transcode)-[0-9a-f]+\..+\.part$/;

export function isWorkTemp(name: string): boolean {
  return WORK_TEMP_NAME.test(name);
}

/** Tells this process apart from an earlier one that had the same pid (a restarted container). */
const INSTANCE = randomBytes(8).toString('hex');
/** A note this old belongs to a box that never came back; its temp is not being written. */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

const entrySchema = z.object({
  temp: z.string(),
  host: z.string(),
  pid: z.number().int(),
  instance: z.string(),
  job_id: z.string().nullable(),
  created_at: z.string(),
});
type Entry = z.infer<typeof entrySchema>;

export interface WorkTicket {
  temp: string;
  /** Deletes the temp if it is still there, then the note. */
  end(): Promise<void>;
}

export interface WorkJournal {
  /** Notes a temp before anything writes it, so that a crash leaves word of what to delete. */
  begin(target: string, kind: WorkKind, jobId: string | null): Promise<WorkTicket>;
  /** Deletes the temps of processes on this host that are gone, and of notes a day old; returns them. */
  sweep(): Promise<string[]>;
}

function abandoned(entry: Entry, noteAgeMs: number): boolean {
  if (noteAgeMs > ABANDONED_AFTER_MS) return true;
  if (entry.host !== hostname() || entry.instance === INSTANCE) return false;
  return entry.pid === process.pid || !isAlive(entry.pid);
}

/** Notes of in-flight temps, one file each, under `<paths.data>/media-work` (`DataStores.mediaWork()`). */
export function workJournal(data: DataDir): WorkJournal {
  const dir = data.path('mediaWork');
  return {
    async begin(target, kind, jobId) {
      const token = randomBytes(6).toString('hex');
      const temp = workTempPath(target, kind, token);
      const note = join(dir, `${token}.json`);
      const entry: Entry = { temp, host: hostname(), pid: process.pid, instance: INSTANCE, job_id: jobId, created_at: new Date().toISOString() };
      await mkdir(dir, { recursive: true });
      await writeFileAtomic(note, JSON.stringify(entry));
      return {
        temp,
        async end() {
          await rm(temp, { force: true });
          await rm(note, { force: true });
        },
      };
    },

    async sweep() {
      await removeStaleTempsIn(dir);
      const names = await readdirIfExists(dir);
      const removed: string[] = [];
      for (const name of names.filter((n) => n.endsWith('.json'))) {
        const note = join(dir, name);
        const info = await stat(note).catch(() => null);
        if (!info) continue;
        const parsed = entrySchema.safeParse(
          await readFile(note, 'utf8').then(
            (t) => JSON.parse(t) as unknown,
            () => null,
          ),
        );
        const age = Date.now() - info.mtimeMs;
        if (!parsed.success) {
          // Notes are written atomically, so an unreadable one was edited by hand: leave it a day, then drop it.
          if (age > ABANDONED_AFTER_MS) await rm(note, { force: true });
          continue;
        }
        if (!abandoned(parsed.data, age)) continue;
        // A note names the file it deletes; only ever delete what looks like our own temp.
        if (isWorkTemp(basename(parsed.data.temp))) {
          await rm(parsed.data.temp, { force: true });
          removed.push(parsed.data.temp);
        }
        await rm(note, { force: true });
      }
      return removed;
    },
  };
}
