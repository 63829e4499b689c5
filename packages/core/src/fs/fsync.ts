import { open } from 'node:fs/promises';

/** Codes with which some platforms and filesystems refuse to open or fsync a folder; the data is in place. */
const UNSUPPORTED = new Set(['EISDIR', 'EINVAL', 'EPERM', 'ENOTSUP', 'EBADF', 'EACCES']);

/**
 * Flushes a file, or a folder's entries: a rename, link or unlink is durable only once its folder
 * is flushed. Where the filesystem cannot do it, nothing more can be done and no error is raised.
 */
export async function fsyncPath(path: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    await handle.sync();
  } catch (err) {
    if (!UNSUPPORTED.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
  } finally {
    await handle?.close().catch(() => {});
  }
}

/** Whether a process of this pid namespace still runs (EPERM: it does, as another user). */
export function isAlive(pid: number): boolean {
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
