import { constants } from 'node:fs';
import { mkdir, open, readlink } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { realPathOf } from '../config/allowed-roots.ts';

// The linuxserver.io convention: PUID and PGID say who should own what the container creates in
// the user's folders, UMASK which permission bits it leaves out. The worker stays root (it may
// need to read anybody's downloads) and hands what it creates to PUID:PGID.

/** Who gets what the worker creates; null keeps the process's own id. */
export interface Ownership {
  uid: number | null;
  gid: number | null;
}

export const NO_OWNERSHIP: Ownership = { uid: null, gid: null };

const MAX_ID = 2 ** 32 - 2;

function idVar(env: NodeJS.ProcessEnv, name: 'PUID' | 'PGID'): number | null {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return null;
  const n = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!(n <= MAX_ID)) throw new Error(`${name} must be a numeric user or group id, got "${env[name]}"`);
  return n;
}

/** UMASK as an octal string (`022`, `0002`); null when unset. */
export function umaskFromEnv(env: NodeJS.ProcessEnv): number | null {
  const raw = env.UMASK?.trim();
  if (raw === undefined || raw === '') return null;
  if (!/^[0-7]{1,4}$/.test(raw) || parseInt(raw, 8) > 0o777) throw new Error(`UMASK must be an octal mask like 022, got "${env.UMASK}"`);
  return parseInt(raw, 8);
}

/** Sets the process umask from UMASK, so every file and folder this process creates follows it. */
export function applyUmask(env: NodeJS.ProcessEnv): void {
  const mask = umaskFromEnv(env);
  if (mask !== null) process.umask(mask);
}

/**
 * PUID and PGID, checked against what this process may do: only root can give a file away, so an
 * unprivileged worker asked for another owner stops at start instead of failing every move.
 */
export function ownershipFromEnv(
  env: NodeJS.ProcessEnv,
  self: { uid: number; gid: number; groups: readonly number[] } = {
    uid: process.getuid?.() ?? 0,
    gid: process.getgid?.() ?? 0,
    groups: process.getgroups?.() ?? [],
  },
): Ownership {
  const uid = idVar(env, 'PUID');
  const gid = idVar(env, 'PGID');
  if (self.uid !== 0) {
    if (uid !== null && uid !== self.uid) {
      throw new Error(`PUID=${uid} needs the worker to run as root (it runs as uid ${self.uid}); unset PUID or run as root`);
    }
    if (gid !== null && gid !== self.gid && !self.groups.includes(gid)) {
      throw new Error(`PGID=${gid} is not a group of uid ${self.uid}; unset PGID or run the worker as root`);
    }
  }
  return { uid, gid };
}

type MakeDir = (path: string, opts: { recursive: true }) => Promise<string | undefined>;

/**
 * `mkdir -p`, giving each folder it creates to the owner; folders that existed are left alone.
 * Each new folder is opened (not followed if it is a link) and given away through its descriptor,
 * once the kernel says the descriptor is that folder at the path it was made at: whoever may write
 * a parent (PUID's own programs, a downloads folder) could otherwise put a link there between the
 * mkdir and the chown, and a root worker would give away the folder it leads to (`/etc`).
 * `make` is mkdir; tests pass one that swaps a folder in that window.
 */
export async function makeDirs(dir: string, owner: Ownership, make: MakeDir = mkdir): Promise<void> {
  const want = resolve(dir);
  if (owner.uid === null && owner.gid === null) {
    await make(want, { recursive: true });
    return;
  }
  // Before anything is made: where each new folder must turn out to be.
  const real = await realPathOf(want);
  const first = await make(want, { recursive: true });
  if (first === undefined) return;
  const created: string[] = [];
  for (let d = want; d.length >= first.length; d = dirname(d)) {
    created.push(d);
    if (d === first) break;
  }
  for (const d of created.reverse()) {
    const expected = join(real, relative(want, d));
    const handle = await open(d, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW).catch((err: NodeJS.ErrnoException) => {
      throw new Error(`${d} changed while it was made (${err.code ?? err.message}); its owner was not set`);
    });
    try {
      const opened = await readlink(`/proc/self/fd/${handle.fd}`);
      if (opened !== expected) throw new Error(`${d} changed while it was made (it leads to ${opened}); its owner was not set`);
      await handle.chown(owner.uid ?? -1, owner.gid ?? -1);
    } finally {
      await handle.close();
    }
  }
}
