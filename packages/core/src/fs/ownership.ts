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
