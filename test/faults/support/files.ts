// What is on disk, exactly: tree snapshots to prove a rejected request changed nothing, hashes to
// prove an original survived, and the temp-file patterns a killed worker may leave behind.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir, readlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';

export async function sha256(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

export async function sha256OrNull(file: string): Promise<string | null> {
  try {
    return await sha256(file);
  } catch {
    return null;
  }
}

/**
 * Every entry under `root`: type, mode, size, mtime, inode, owner, a symlink's target and a regular
 * file's sha256. Symlinks are not followed and FIFOs are never opened.
 */
export async function snapshot(root: string, opts: { skip?: (path: string) => boolean } = {}): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string) => {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      const p = join(dir, name);
      if (opts.skip?.(p)) continue;
      const st = await lstat(p).catch(() => null);
      if (!st) continue;
      const common = `mode=${st.mode.toString(8)} uid=${st.uid} gid=${st.gid} ino=${st.ino} mtime=${st.mtimeMs}`;
      if (st.isSymbolicLink()) out.set(p, `link -> ${await readlink(p)} ${common}`);
      else if (st.isDirectory()) {
        // A folder's mtime moves with every entry made or removed in it; the entries themselves are compared.
        out.set(p, `dir mode=${st.mode.toString(8)} uid=${st.uid} gid=${st.gid} ino=${st.ino}`);
        await walk(p);
      } else if (st.isFile()) out.set(p, `file size=${st.size} ${common} sha256=${await sha256(p)}`);
      else out.set(p, `other ${common}`);
    }
  };
  await walk(root);
  return out;
}

/** Lines describing what differs between two snapshots; empty when they are the same. */
export function diffSnapshots(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [p, d] of before) {
    const now = after.get(p);
    if (now === undefined) out.push(`removed ${p} (${d})`);
    else if (now !== d) out.push(`changed ${p}: ${d} => ${now}`);
  }
  for (const [p, d] of after) if (!before.has(p)) out.push(`added ${p} (${d})`);
  return out;
}

/**
 * The names a killed worker may leave and the next pass must remove: cross-filesystem copies
 * (`.mo-partial-*`), remux and transcode outputs (`.mo-remux-*`, `.mo-transcode-*`), and the temps
 * of atomic writes (`.<file>.<pid>.<hex>.tmp`: state.json, journal notes, the library index).
 */
export const LEFTOVER = /^\.mo-partial-|^\.mo-(?:remux|transcode)-|\.tmp$/;

export async function findLeftovers(roots: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (LEFTOVER.test(e.name)) found.push(p);
      if (e.isDirectory()) await walk(p);
    }
  };
  for (const r of roots) await walk(r);
  return found.sort();
}

/** Files (not folders) directly in `dir`; [] when it does not exist. */
export async function filesIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((e) => !e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * Ages proper-lockfile lock folders as if `ms` had passed since their holder last touched them.
 * Only for locks whose holder is known dead (SIGKILLed): a live holder would lose its lock.
 */
export async function ageLocks(paths: readonly string[], ms = 60_000): Promise<string[]> {
  const aged: string[] = [];
  const then = new Date(Date.now() - ms);
  for (const p of paths) {
    try {
      await utimes(p, then, then);
      aged.push(p);
    } catch {
      // Not there: nothing to age.
    }
  }
  return aged;
}
