import { z } from 'zod';
import { createNoteFolder, type Note, type NoteDrop } from '../fs/note-folder.ts';

/** A file or folder as it was before its rename: what recovery and undo know it by. */
export const renamedIdentitySchema = z.object({ dev: z.number(), ino: z.number(), size: z.number(), mtime_ms: z.number(), dir: z.boolean() });
export type RenamedIdentity = z.infer<typeof renamedIdentitySchema>;

const noteSchema = z.object({
  /** The organize job: the `pass` of the history item the group becomes. */
  job: z.string(),
  /** A video then its sidecars, or one folder, in the order they are renamed. */
  renames: z.array(z.object({ from: z.string(), to: z.string(), id: renamedIdentitySchema })),
  /** The history item once recorded: from then on only the index is left to patch. */
  recorded: z.number().int().positive().nullable(),
});
export type PendingRenames = z.infer<typeof noteSchema>;

export interface OrganizeJournal {
  /** Notes a group before its first rename; the note stays until the index holds the new names. */
  begin(pending: PendingRenames): Promise<NoteDrop<PendingRenames>>;
  /** What a killed job left, oldest first (an unreadable note's value is null). */
  list(): Promise<Note<PendingRenames>[]>;
}

/** One JSON note per rename group in flight, in `dir` (under paths.data, shared by every worker). */
export function createOrganizeJournal(dir: string): OrganizeJournal {
  const notes = createNoteFolder(dir, noteSchema);
  return { begin: (pending) => notes.add(pending), list: () => notes.list() };
}
