import { lstat, rmdir } from 'node:fs/promises';
import { z } from 'zod';
import { createNoteFolder } from '../fs/note-folder.ts';
import { sidecarsToPlace } from './next-step.ts';

/**
 * Versions before the import record named an import's sidecars kept a second note per video with
 * sidecars (DATA_FILES.legacySidecarJournal). Nothing writes one any more; an install upgraded while
 * a killed pass had left some still gets their sidecars placed: recovery reads them once, as those
 * versions did, drops them, and removes the folder once it is empty.
 */

const fileMoveSchema = z.object({ source: z.string(), destination: z.string() });
const sidecarSchema = fileMoveSchema.extend({ size: z.number(), mtime_ms: z.number() });
// `keep_source` (hardlink and copy modes): the video stays in the downloads once placed, and so
// does each sidecar. Without it (move, and notes older than the modes) the video left.
const noteSchema = z.object({ video: fileMoveSchema, sidecars: z.array(sidecarSchema), keep_source: z.literal(true).optional() });

export type LegacySidecarNote = z.infer<typeof noteSchema>;
export type LegacySidecar = z.infer<typeof sidecarSchema>;

export interface LegacySidecarNotes {
  /**
   * Hands `move` each sidecar a killed pass left behind after placing its video. `move` answers
   * `keep` when it should be tried again by the next pass (a drive not mounted, a file still being
   * written); the note then stays. A note whose video did not get away is only dropped, since the
   * next plan takes the whole group again. Call it under the pass lock, after the copy journal has
   * settled any copy in flight.
   */
  recover(move: (sidecar: LegacySidecar) => Promise<'done' | 'keep'>): Promise<void>;
}

const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  );

/** The legacy notes in `dir`, to be migrated by recovery. */
export function legacySidecarNotes(dir: string): LegacySidecarNotes {
  const notes = createNoteFolder(dir, noteSchema);
  return {
    async recover(move) {
      for (const note of await notes.list()) {
        const n = note.value;
        let keep = false;
        if (n) {
          const disk = {
            videoSource: await exists(n.video.source),
            videoDestination: await exists(n.video.destination),
            sidecarSources: await Promise.all(n.sidecars.map((s) => exists(s.source))),
          };
          for (const s of sidecarsToPlace(n, disk)) if ((await move(s)) === 'keep') keep = true;
        }
        if (!keep) await note.drop();
      }
      // Only once empty (ENOTEMPTY while a note waits; ENOENT when there never was one).
      await rmdir(dir).catch(() => {});
    },
  };
}
