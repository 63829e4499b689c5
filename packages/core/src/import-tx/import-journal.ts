import { z } from 'zod';
import { TRANSFER_MODES } from '@mo/shared';
import { createNoteFolder, type Note } from '../fs/note-folder.ts';

const identitySchema = z.object({ dev: z.number(), ino: z.number(), size: z.number(), mtime_ms: z.number() });
const plannedSchema = z.object({
  source: z.string(),
  destination: z.string(),
  from: identitySchema,
  /** The inode a copy of this file was made on (noted before it is placed): only that file there is the copy. */
  made: z.object({ dev: z.number(), ino: z.number() }).optional(),
});
/** A library file an upgrade replaces: noted before it moves, its bin path once it is in the bin. */
const heldSchema = z.object({ path: z.string(), held: identitySchema, recycled_to: z.string().optional() });
const noteSchema = plannedSchema.extend({
  mode: z.enum(TRANSFER_MODES),
  sidecars: z.array(plannedSchema),
  created_dirs: z.array(z.string()),
  pass: z.string(),
  replaces: z.object({ video: heldSchema, sidecars: z.array(heldSchema) }).optional(),
});

export type PendingImport = z.infer<typeof noteSchema>;
type Planned = z.infer<typeof plannedSchema>;

/** Drops the note of an import in flight. */
export type ImportTicket = (() => Promise<void>) & {
  /** Notes the inode a copy for `destination` (the video's or a sidecar's) is made on, before it is placed. */
  made(destination: string, id: { dev: number; ino: number }): Promise<void>;
  /** Notes where an upgrade's held files went in the recycle bin: the video's first, then each sidecar's. */
  recycled(paths: readonly string[]): Promise<void>;
  /** The note as it stands now. */
  current(): PendingImport;
};

export interface ImportJournal {
  /** Notes an import before its first file is placed. */
  begin(pending: PendingImport): Promise<ImportTicket>;
  /** The records a killed process left, oldest first, for the driver's recovery (an unreadable one's value is null). */
  list(): Promise<Note<PendingImport>[]>;
}

/** One JSON note per import in flight, in `dir` (under paths.data, shared by every worker). */
export function createImportJournal(dir: string): ImportJournal {
  const notes = createNoteFolder(dir, noteSchema);
  return {
    async begin(pending) {
      const drop = await notes.add(pending);
      let value = pending;
      const made: ImportTicket['made'] = async (destination, id) => {
        const mark = <T extends Planned>(f: T): T => (f.destination === destination ? { ...f, made: { dev: id.dev, ino: id.ino } } : f);
        value = { ...mark(value), sidecars: value.sidecars.map(mark) };
        await drop.rewrite(value);
      };
      const recycled: ImportTicket['recycled'] = async (paths) => {
        const r = value.replaces;
        if (!r) return;
        const [video, ...sidecars] = paths;
        value = {
          ...value,
          replaces: { video: { ...r.video, recycled_to: video }, sidecars: r.sidecars.map((s, i) => ({ ...s, recycled_to: sidecars[i] })) },
        };
        await drop.rewrite(value);
      };
      return Object.assign(() => drop(), { made, recycled, current: () => value });
    },

    list: () => notes.list(),
  };
}
