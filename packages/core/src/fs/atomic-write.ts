import { randomBytes } from 'node:crypto';
import { lstat, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fsyncPath, isAlive } from './fsync.ts';
import { readdirIfExists } from './read-dir.ts';

const STALE_TEMP_AGE_MS = 60 * 60 * 1000;

function tempPattern(file: string): RegExp {
  const base = path.basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\.${base}\\.(\\d+)\\.[0-9a-z]+\\.tmp$`);
}

/** A temp file's name beside `file`, one that `removeStaleTemps(file)` sweeps once its process is gone. */
export function tempPathFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Replaces `file` so that a reader (or a crash) only ever sees the old or the new content.
 * Without `mode`, an existing file keeps its permissions (state.json may hold an api key).
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, opts: { mode?: number } = {}): Promise<void> {
  const dir = path.dirname(file);
  const tmp = tempPathFor(file);
  const mode =
    opts.mode ??
    (await stat(file).then(
      (s) => s.mode & 0o7777,
      () => 0o666,
    ));
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(tmp, 'wx', mode);
    await handle.writeFile(data);
    // Without this, a power loss after the rename can leave a renamed but empty file.
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(tmp, file);
  } catch (err) {
    await handle?.close().catch(() => {});
    await rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
  await fsyncPath(dir);
}

/**
 * Removes temp files left by writeFileAtomic(file) in processes that died mid-write.
 * A pid only means something inside one pid namespace (container), so callers that share the folder
 * across containers should call this while holding the file's lock; the age rule catches the rest.
 */
export async function removeStaleTemps(file: string): Promise<string[]> {
  return sweepTemps(path.dirname(file), tempPattern(file));
}

/**
 * The same for every file of a folder whose files are each written with writeFileAtomic (journal
 * notes): a note's writer killed mid-write leaves a temp that no note names.
 */
export function removeStaleTempsIn(dir: string): Promise<string[]> {
  return sweepTemps(dir, /^\..+\.(\d+)\.[0-9a-z]+\.tmp$/);
}

async function sweepTemps(dir: string, pattern: RegExp): Promise<string[]> {
  const names = await readdirIfExists(dir);
  const removed: string[] = [];
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1] ?? 0);
    // pid 0 would make process.kill signal our own process group.
    if (!(pid > 0)) continue;
    const tmp = path.join(dir, name);
    const info = await lstat(tmp).catch(() => undefined);
    if (!info) continue;
    const old = Date.now() - info.mtimeMs > STALE_TEMP_AGE_MS;
    if (!old && isAlive(pid)) continue;
    await rm(tmp, { force: true });
    removed.push(tmp);
  }
  return removed;
}
