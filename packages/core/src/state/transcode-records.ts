import { open, mkdir, stat, truncate } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { z } from 'zod';
import { transcodeStatusSchema, type TranscodeStatus } from '@mo/shared';
import { issuePath } from '../errors.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { StateFileError } from './state-store.ts';

export interface TranscodeRecordsView {
  /** Replaced, never changed in place: the same object means nothing changed. */
  transcodes: Readonly<Record<string, TranscodeStatus>>;
  paused: boolean;
}

export type TranscodeChange = { path: string; entry: TranscodeStatus | null } | { paused: boolean };

/**
 * The transcode records and the pause flag, apart from state.json: an append-only log of one line
 * per change, so a transition writes one short line instead of every record, and a reader catches
 * up by reading only the lines added since it last looked. Once the log holds far more lines than
 * records it is rewritten whole (atomically); a reader sees the new inode and reads it afresh.
 */
export interface TranscodeRecords {
  readonly file: string;
  read(): Promise<TranscodeRecordsView>;
  /** Under an inter-process lock: `fn` sees the records as they are and answers the changes to append. */
  update(fn: (current: TranscodeRecordsView) => TranscodeChange[] | Promise<TranscodeChange[]>): Promise<TranscodeRecordsView>;
  /** Changes whenever another process appended or compacted. */
  stamp(): Promise<string>;
}

const lineSchema = z.union([z.strictObject({ path: z.string(), entry: transcodeStatusSchema.nullable() }), z.strictObject({ paused: z.boolean() })]);

/** Compacted once it holds this many lines more than twice its records. */
const SLACK_LINES = 1000;
const STALE_MS = 10_000;

export function recordsLines(view: TranscodeRecordsView): string {
  const lines = Object.entries(view.transcodes).map(([p, entry]) => JSON.stringify({ path: p, entry }));
  if (view.paused) lines.push(JSON.stringify({ paused: true }));
  return lines.map((l) => `${l}\n`).join('');
}

interface Cache extends TranscodeRecordsView {
  ino: number;
  /** Bytes read so far: always just after a newline. */
  offset: number;
  lines: number;
}

const EMPTY: Cache = { ino: -1, offset: 0, lines: 0, transcodes: {}, paused: false };

export function createTranscodeRecords(file: string): TranscodeRecords {
  file = path.resolve(file);
  let cache: Cache = EMPTY;
  let chain: Promise<unknown> = Promise.resolve();

  function apply(base: Cache, changes: readonly TranscodeChange[]): Cache {
    let transcodes = base.transcodes;
    let paused = base.paused;
    let copied = false;
    for (const c of changes) {
      if ('paused' in c) {
        paused = c.paused;
        continue;
      }
      // One copy for a whole batch of lines: a run-all may claim tens of thousands at once.
      if (!copied) transcodes = { ...transcodes };
      copied = true;
      const mutable = transcodes as Record<string, TranscodeStatus>;
      if (c.entry) mutable[c.path] = c.entry;
      else delete mutable[c.path];
    }
    return { ...base, transcodes, paused, lines: base.lines + changes.length };
  }

  function parse(text: string, startLine: number): TranscodeChange[] {
    return text
      .split('\n')
      .slice(0, -1)
      .map((line, i) => {
        let json: unknown;
        try {
          json = JSON.parse(line);
        } catch (err) {
          throw new StateFileError(file, `Invalid transcode log ${file}: line ${startLine + i + 1} is not JSON`, { cause: err });
        }
        const r = lineSchema.safeParse(json);
        if (!r.success)
          throw new StateFileError(
            file,
            `Invalid transcode log ${file}: line ${startLine + i + 1}: ${r.error.issues.map((x) => `${issuePath(x.path)}: ${x.message}`).join('; ')}`,
          );
        return r.data;
      });
  }

  /** Reads what was added since the last look; a line still being written (no newline yet) waits. */
  async function catchUp(): Promise<Cache> {
    const s = await stat(file).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (!s) return (cache = EMPTY);
    let base = cache;
    if (s.ino !== base.ino || s.size < base.offset) base = { ...EMPTY, ino: s.ino };
    if (s.size === base.offset) return (cache = base);
    const fh = await open(file, 'r');
    try {
      const buf = Buffer.alloc(s.size - base.offset);
      const { bytesRead } = await fh.read(buf, 0, buf.length, base.offset);
      const text = buf.subarray(0, bytesRead).toString('utf8');
      const end = text.lastIndexOf('\n') + 1;
      const next = apply(base, parse(text.slice(0, end), base.lines));
      return (cache = { ...next, offset: base.offset + Buffer.byteLength(text.slice(0, end)) });
    } finally {
      await fh.close();
    }
  }

  async function append(current: Cache, changes: readonly TranscodeChange[]): Promise<Cache> {
    // A line torn by a killed writer is cut before anything is added after it.
    const size = (await stat(file).catch(() => null))?.size ?? 0;
    if (size > current.offset) await truncate(file, current.offset);
    const text = changes.map((c) => `${JSON.stringify(c)}\n`).join('');
    const fh = await open(file, 'a');
    try {
      await fh.write(text);
      await fh.sync();
    } finally {
      await fh.close();
    }
    const s = await stat(file);
    const next = { ...apply(current, changes), ino: s.ino, offset: current.offset + Buffer.byteLength(text) };
    if (next.lines <= 2 * Object.keys(next.transcodes).length + SLACK_LINES) return next;
    const compact = recordsLines(next);
    await writeFileAtomic(file, compact);
    const c = await stat(file);
    return { ...next, ino: c.ino, offset: Buffer.byteLength(compact), lines: compact.split('\n').length - 1 };
  }

  async function lockedUpdate(fn: (current: TranscodeRecordsView) => TranscodeChange[] | Promise<TranscodeChange[]>): Promise<TranscodeRecordsView> {
    await mkdir(path.dirname(file), { recursive: true });
    let compromised: Error | undefined;
    const release = await lockfile
      .lock(file, {
        realpath: false,
        lockfilePath: `${file}.lock`,
        stale: STALE_MS,
        retries: { retries: Math.ceil((3 * STALE_MS) / 200), factor: 1.5, minTimeout: 5, maxTimeout: 200, randomize: true },
        onCompromised: (err) => {
          compromised = err;
        },
      })
      .catch((err: Error) => {
        throw new Error(`Could not lock the transcode log ${file}: ${err.message}`, { cause: err });
      });
    try {
      const current = await catchUp();
      const changes = await fn(current);
      if (changes.length === 0) return current;
      const checked = changes.map((c) => lineSchema.parse(c));
      if (compromised) throw new Error(`Lost the lock on ${file} before writing: ${compromised.message}`);
      return (cache = await append(current, checked));
    } finally {
      await release().catch(() => {});
    }
  }

  return {
    file,
    read: () => catchUp(),
    update(fn) {
      const run = chain.then(
        () => lockedUpdate(fn),
        () => lockedUpdate(fn),
      );
      chain = run.catch(() => {});
      return run;
    },
    async stamp() {
      const s = await stat(file).catch(() => null);
      return s ? `${s.ino}:${s.size}:${s.mtimeMs}` : 'missing';
    },
  };
}

/** The changes that turn `before` into `after`, by reference: an entry not replaced is not written. */
export function transcodeChanges(before: TranscodeRecordsView, after: TranscodeRecordsView): TranscodeChange[] {
  const changes: TranscodeChange[] = [];
  if (after.transcodes !== before.transcodes) {
    for (const [p, entry] of Object.entries(after.transcodes))
      if (!Object.hasOwn(before.transcodes, p) || before.transcodes[p] !== entry) changes.push({ path: p, entry });
    for (const p of Object.keys(before.transcodes)) if (!Object.hasOwn(after.transcodes, p)) changes.push({ path: p, entry: null });
  }
  if (after.paused !== before.paused) changes.push({ paused: after.paused });
  return changes;
}
