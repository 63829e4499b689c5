import { z } from 'zod';
import { HISTORY_MODES } from '@mo/shared';

/** A file as it was when imported: enough to know it again, and to tell whether it changed since. */
const identitySchema = z.object({ dev: z.number(), ino: z.number(), size: z.number(), mtime_ms: z.number() });
export type FileIdentity = z.infer<typeof identitySchema>;

const placedSchema = z.object({
  source: z.string(),
  destination: z.string(),
  /** The download as it was taken. */
  from: identitySchema,
  /** The library file as it was put there (for a move, the same inode as `from`). */
  to: identitySchema,
});
export type PlacedFile = z.infer<typeof placedSchema>;

/** A library file an upgrade sent to the recycle bin: where from, where to, and as it was (what undo checks). */
const replacedFileSchema = z.object({ path: z.string(), recycled_to: z.string(), held: identitySchema });
const replacedSchema = replacedFileSchema.extend({ sidecars: z.array(replacedFileSchema) });
export type ReplacedFile = z.infer<typeof replacedFileSchema>;
export type Replaced = z.infer<typeof replacedSchema>;

export const importLineSchema = placedSchema.extend({
  t: z.literal('import'),
  id: z.number().int().positive(),
  at: z.string(),
  /** `rename`: a library file or folder renamed in place (source its old path, destination its new one), method `rename`. */
  mode: z.enum(HISTORY_MODES),
  method: z.enum(['rename', 'link', 'copy']),
  sidecars: z.array(placedSchema),
  /** Folders the import made, outermost first: undo removes those left empty. */
  created_dirs: z.array(z.string()),
  pass: z.string(),
  /** An upgrade: the held video and its sidecars, in the recycle bin. Absent from lines older than upgrades. */
  replaced: replacedSchema.nullable().optional(),
});

export const undoLineSchema = z.object({ t: z.literal('undo'), id: z.number().int().positive(), at: z.string() });

/** What the media servers were told of imports, once their notify job ended (told all, or gave up). */
export const notifiedSchema = z.object({
  event: z.enum(['imported', 'undone']),
  at: z.string(),
  told: z.array(z.string()),
  /** Target name → why it could not be told. */
  failed: z.record(z.string(), z.string()),
});
export type Notified = z.infer<typeof notifiedSchema>;

export const notifiedLineSchema = notifiedSchema.extend({ t: z.literal('notified'), ids: z.array(z.number().int().positive()) });

export const historyLineSchema = z.discriminatedUnion('t', [importLineSchema, undoLineSchema, notifiedLineSchema]);

export type ImportLine = z.infer<typeof importLineSchema>;
export type HistoryLine = z.infer<typeof historyLineSchema>;
/** An import with its undo and its latest notice, if any, folded in. */
export type ImportRecord = ImportLine & { undone_at: string | null; notified: Notified | null };

/** Imports with their undos and notices folded in, one line at a time (an append costs one line, not the whole log). */
export interface Fold {
  /** Oldest first; a record changed by a later line is replaced, never changed in place. */
  readonly records: ImportRecord[];
  add(line: HistoryLine): void;
  get(id: number): ImportRecord | undefined;
}

export function createFold(lines: readonly HistoryLine[] = []): Fold {
  const records: ImportRecord[] = [];
  const at = new Map<number, number>();
  const update = (id: number, change: Partial<ImportRecord>) => {
    const i = at.get(id);
    if (i !== undefined) records[i] = { ...records[i]!, ...change };
  };
  const fold: Fold = {
    records,
    add(line) {
      if (line.t === 'import') {
        at.set(line.id, records.length);
        records.push({ ...line, undone_at: null, notified: null });
      } else if (line.t === 'undo') {
        update(line.id, { undone_at: line.at });
      } else {
        const { t: _t, ids, ...notified } = line;
        for (const id of ids) update(id, { notified });
      }
    },
    get: (id) => {
      const i = at.get(id);
      return i === undefined ? undefined : records[i];
    },
  };
  for (const line of lines) fold.add(line);
  return fold;
}

/** The lines folded into imports, oldest first: an undo marks its import, a notice each import it names (the latest wins). */
export function foldLines(lines: readonly HistoryLine[]): ImportRecord[] {
  return createFold(lines).records;
}

/** What GET /api/history shows of a record. */
export function historyItem(r: ImportRecord) {
  return {
    id: r.id,
    at: r.at,
    mode: r.mode,
    method: r.method,
    source: r.source,
    destination: r.destination,
    bytes: r.from.size + r.sidecars.reduce((n, s) => n + s.from.size, 0),
    sidecars: r.sidecars.map((s) => ({ source: s.source, destination: s.destination })),
    pass: r.pass,
    undone_at: r.undone_at,
    notified: r.notified,
    replaced: r.replaced
      ? { path: r.replaced.path, recycled_to: r.replaced.recycled_to, sidecars: r.replaced.sidecars.map((s) => ({ path: s.path, recycled_to: s.recycled_to })) }
      : null,
  };
}
