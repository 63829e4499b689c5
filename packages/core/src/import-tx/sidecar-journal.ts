import { lstat } from 'node:fs/promises';
import { z } from 'zod';
import { createNoteFolder } from '../fs/note-folder.ts';
import { sidecarsToPlace } from './next-step.ts';

const fileMoveSchema = z.object({ source: z.string(), destination: z.string() });
const sidecarSchema = fileMoveSchema.extend({ size: z.number(), mtime_ms: z.number() });
// `keep_source` (hardlink and copy modes): the video stays in the downloads once placed, and so
// does each sidecar. Without it (move, and notes older than the modes) the video left.
const noteSchema = z.object({ video: fileMoveSchema, sidecars: z.array(sidecarSchema), keep_source: z.literal(true).optional() });

export type SidecarNote = z.infer<typeof noteSchema>;
export type PendingSidecar = z.infer<typeof sidecarSchema>;

export interface SidecarJournal {
  /** Notes a video's sidecars before the video moves; returns the function that drops the note. */
  begin(note: SidecarNote): Promise<() => Promise<void>>;
  /**
   * Hands `move` each sidecar a killed pass left behind after placing its video. Without this they
   * would stay in the downloads for good: with their video gone, or (kept) already imported,
   * nothing claims them. `move`
   * answers `keep` when it should be tried again by the next pass (a drive not mounted, a file
   * still being written); the note then stays. A note whose video did not get away is only
   * dropped, since the next plan takes the whole group again. Call it under the pass lock, after
   * the transfer journal has settled any copy in flight.
   */
  recover(move: (sidecar: PendingSidecar) => Promise<'done' | 'keep'>): Promise<void>;
}

const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  );

/** One JSON note per video with sidecars being moved, in `dir` (under paths.data). */
export function createSidecarJournal(dir: string): SidecarJournal {
  const notes = createNoteFolder(dir, noteSchema);
  return {
    begin: (note) => notes.add(note),

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
    },
  };
}
