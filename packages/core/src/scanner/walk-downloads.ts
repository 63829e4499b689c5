import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import type { DownloadFile } from './plan-pass.ts';

/** Entries between yields to the event loop, so lock heartbeats and job renewals keep running. */
const YIELD_EVERY = 2000;

export interface WalkOptions {
  signal?: AbortSignal;
  /** Folders not to enter, as `dev:ino`: the library folders, should a drive lie inside the downloads. */
  exclude?: ReadonlySet<string>;
  /** A folder that could not be read; it is left out. */
  onSkip?: (path: string, error: string) => void;
  /** Only this folder below the root (`/`-separated), for a manual import; paths and `rel` stay the root's. */
  from?: string;
}

/**
 * Every regular file under the downloads folder, sorted by path. Symbolic links are not followed
 * nor listed: moving a link would move the link, not the download. Synchronous calls in batches:
 * for many small metadata reads they are several times faster than promises.
 * A missing downloads folder (an unmounted disk) is an empty one.
 */
/**
 * Whether `from` is a folder below the root reached without a link or a library folder on the way:
 * a manual import's folder checked by its real path may have been swapped for a link since.
 */
function reachable(root: string, from: string, exclude: ReadonlySet<string> | undefined): boolean {
  let dir = root;
  for (const part of from.split('/')) {
    dir = join(dir, part);
    const st = lstatSync(dir, { throwIfNoEntry: false });
    if (!st || !st.isDirectory() || exclude?.has(`${st.dev}:${st.ino}`)) return false;
  }
  return true;
}

export async function walkDownloads(root: string, opts: WalkOptions = {}): Promise<DownloadFile[]> {
  const files: DownloadFile[] = [];
  const from = opts.from ?? '';
  if (from !== '' && !reachable(root, from, opts.exclude)) return files;
  const stack: { dir: string; rel: string }[] = [{ dir: from === '' ? root : join(root, from), rel: from }];
  let sinceYield = 0;
  while (stack.length > 0) {
    const { dir, rel } = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? String(err);
      if (!(rel === from && code === 'ENOENT')) opts.onSkip?.(dir, code);
      continue;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isSymbolicLink()) continue;
      // Dirent types are unknown on some network and FUSE filesystems, so lstat decides.
      const st = lstatSync(path, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) {
        if (!opts.exclude?.has(`${st.dev}:${st.ino}`)) stack.push({ dir: path, rel: childRel });
      } else if (st.isFile()) files.push({ path, rel: childRel, size: st.size, mtimeMs: st.mtimeMs, dev: st.dev, ino: st.ino });
      if (++sinceYield >= YIELD_EVERY) {
        sinceYield = 0;
        opts.signal?.throwIfAborted();
        await new Promise((r) => setImmediate(r));
      }
    }
  }
  return files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}
