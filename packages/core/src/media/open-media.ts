import { constants, type Stats } from 'node:fs';
import { open, readlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { AppError } from '../errors.ts';
import { requireDemuxer, type Demuxer } from './containers.ts';
import { notMediaReason, SNIFF_BYTES } from './sniff.ts';

// Checking a path and then letting ffmpeg open it by name leaves a window in which a folder on
// the way can become a link to anywhere. Instead the file is opened here once, the descriptor's
// own path (which the kernel keeps, whatever the names do afterwards) is checked against the
// path that was checked, and ffmpeg gets the descriptor. Outputs go into a folder pinned the
// same way.

/** Where Linux shows what an open descriptor refers to. */
const procFd = (fd: number) => `/proc/self/fd/${fd}`;

/** The path the kernel records for an open descriptor; /proc must be mounted (it always is on Linux). */
async function openedPath(handle: FileHandle): Promise<string> {
  try {
    return await readlink(procFd(handle.fd));
  } catch (err) {
    throw new Error(`cannot tell which file descriptor ${handle.fd} refers to (is /proc mounted?): ${(err as Error).message}`);
  }
}

const forbidden = (message: string) => new AppError('forbidden', `path: ${message}`, { key: 'path' });
const bad = (message: string) => new AppError('bad_request', `path: ${message}`, { key: 'path' });

function openError(err: unknown, path: string, what: 'file' | 'folder'): unknown {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return new AppError('not_found', `path: no such ${what}: ${path}`, { key: 'path' });
    case 'ENOTDIR':
      // O_DIRECTORY on what became a link or a file.
      return what === 'folder'
        ? forbidden(`${path} is not a folder now; nothing was written`)
        : new AppError('not_found', `path: no such file: ${path}`, { key: 'path' });
    case 'ELOOP':
      return forbidden(`${path} is a symbolic link now; nothing was read`);
    default:
      return err;
  }
}

/** A folder held open, so that names inside it are reached through it and not through its path. */
export interface PinnedFolder {
  /** The real path it was opened by and checked against. */
  path: string;
  fd: number;
  /** `name` inside this folder, reached through the descriptor: for this process's own calls. */
  at(name: string): string;
  close(): Promise<void>;
}

/**
 * Opens the folder at `path` (a real path: symlinks resolved, checked against the roots) and
 * checks that what was opened is that folder, not something a swapped link on the way points at.
 */
export async function pinFolder(path: string): Promise<PinnedFolder> {
  const want = resolve(path);
  const handle = await open(want, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW).catch((err: unknown) => {
    throw openError(err, want, 'folder');
  });
  try {
    const got = await openedPath(handle);
    if (got !== want) throw forbidden(`${want} changed while it was opened (it leads to ${got} now); nothing was written`);
  } catch (err) {
    await handle.close();
    throw err;
  }
  return {
    path: want,
    fd: handle.fd,
    at(name) {
      if (name.includes('/') || name === '' || name === '.' || name === '..') throw new Error(`not a plain file name: ${name}`);
      return join(procFd(handle.fd), name);
    },
    close: () => handle.close(),
  };
}

/** A media file opened once for everything that reads it. */
export interface OpenedMedia {
  /** The real path it was opened by; messages and planned commands name it. */
  path: string;
  /** The demuxer its extension names; ffmpeg reads it with this one only. */
  demuxer: Demuxer;
  fd: number;
  /** The open file's own status: the size, inode and times of what ffmpeg reads. */
  stat: Stats;
  close(): Promise<void>;
}

export interface OpenMediaOptions {
  /** A name whose extension names the demuxer, for a temp whose own name ends in `.part`. */
  as?: string;
  /** Open `basename(path)` through this folder rather than by its path. */
  folder?: PinnedFolder;
}

/**
 * Opens the media file at `path` (a real path, checked against the roots) for reading, and
 * refuses it unless the open file is that very path, a regular file, in a container we name a
 * demuxer for, and not a text playlist or list of other files.
 */
export async function openMedia(path: string, opts: OpenMediaOptions = {}): Promise<OpenedMedia> {
  const want = resolve(path);
  const demuxer = requireDemuxer(opts.as ?? want);
  if (opts.folder && dirname(want) !== opts.folder.path) throw new Error(`${want} is not in the pinned folder ${opts.folder.path}`);
  const by = opts.folder ? opts.folder.at(basename(want)) : want;
  // O_NONBLOCK: a FIFO put in the file's place must not hang the open; it is refused below.
  const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
  const handle = await open(by, flags).catch((err: unknown) => {
    throw openError(err, want, 'file');
  });
  try {
    // A plain name opened through a pinned folder without following links lies in that folder,
    // which was checked when it was pinned (its path may have changed since; the folder has not).
    if (!opts.folder) {
      const got = await openedPath(handle);
      if (got !== want) throw forbidden(`${want} changed while it was opened (it leads to ${got} now); nothing was read`);
    }
    const stat = await handle.stat();
    if (!stat.isFile()) throw bad(`${want} is not a regular file`);
    const head = Buffer.alloc(Math.min(SNIFF_BYTES, stat.size));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const reason = notMediaReason(head.subarray(0, bytesRead));
    // Worded as ffprobe's own failures are: to the client it is one more file that is no media.
    if (reason) throw bad(`ffprobe cannot read ${want} as media: it is ${reason}, refused before ffmpeg runs`);
    return { path: want, demuxer, fd: handle.fd, stat, close: () => handle.close() };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** Pins `file`'s folder, opens `file` through it, runs `work`, and closes both whatever happens. */
export async function withMediaInFolder<T>(file: string, work: (source: OpenedMedia, folder: PinnedFolder) => Promise<T>): Promise<T> {
  const folder = await pinFolder(dirname(resolve(file)));
  try {
    const source = await openMedia(file, { folder });
    try {
      return await work(source, folder);
    } finally {
      await source.close();
    }
  } finally {
    await folder.close();
  }
}
