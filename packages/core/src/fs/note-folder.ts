import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { removeStaleTempsIn, writeFileAtomic } from './atomic-write.ts';
import { readdirIfExists } from './read-dir.ts';

export interface Note<T> {
  /** null: unreadable (torn by a crash, or written by another version); drop it. */
  value: T | null;
  drop(): Promise<void>;
}

/** Drops the note it was returned for; `rewrite` replaces that note's value in one atomic write. */
export type NoteDrop<T> = (() => Promise<void>) & { rewrite(value: T): Promise<void> };

export interface NoteFolder<T> {
  /** Writes a note durably and returns the function that drops it. */
  add(value: T): Promise<NoteDrop<T>>;
  /** Every note, oldest first, after sweeping the temps of writers killed mid-write. */
  list(): Promise<Note<T>[]>;
}

/**
 * A folder of small JSON notes of work in flight: each is written before the work starts and
 * dropped when it ends, so a killed process leaves a record of what to finish or undo.
 */
export function createNoteFolder<S extends z.ZodType>(dir: string, schema: S): NoteFolder<z.infer<S>> {
  const drop = (path: string) => () => rm(path, { force: true });
  return {
    async add(value) {
      await mkdir(dir, { recursive: true });
      const path = join(dir, `${Date.now()}-${randomBytes(6).toString('hex')}.json`);
      await writeFileAtomic(path, JSON.stringify(value));
      return Object.assign(drop(path), { rewrite: (next: z.infer<S>) => writeFileAtomic(path, JSON.stringify(next)) });
    },

    async list() {
      await removeStaleTempsIn(dir);
      const names = (await readdirIfExists(dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
      return Promise.all(
        names.map(async (name) => {
          const path = join(dir, name);
          let value: z.infer<S> | null = null;
          try {
            value = schema.parse(JSON.parse(await readFile(path, 'utf8')));
          } catch {
            value = null;
          }
          return { value, drop: drop(path) };
        }),
      );
    },
  };
}
