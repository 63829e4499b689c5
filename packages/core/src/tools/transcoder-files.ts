import { lstat } from 'node:fs/promises';
import type { Config } from '@mo/shared';
import { guardMediaPath, mediaRoots, type GuardedPath } from '../fs/path-guard.ts';
import { removeLibraryFile, type Removal } from './remove-library-file.ts';

/**
 * The files the transcoder service looks at and removes, as the API's box mounts them: its only
 * way to the filesystem, so that its decisions are tested without real paths.
 */
export interface TranscoderFiles {
  /** A path checked to be a file with one of `extensions` in the downloads folder or on a drive (guardMediaPath's refusals). */
  guard(path: string, cfg: Config, extensions: readonly string[]): Promise<GuardedPath>;
  /** The device and inode the name itself is (a link is not followed). */
  identity(real: string): Promise<{ dev: number; ino: number }>;
  /** Removes the file, to its drive's recycle bin where `library.recycle_bin` is on, only while its name is still inode `ino` (see removeLibraryFile). */
  remove(real: string, ino: number, cfg: Config): Promise<Removal>;
}

export function transcoderFiles(): TranscoderFiles {
  return {
    guard: (path, cfg, extensions) => guardMediaPath(path, { roots: mediaRoots(cfg), extensions }),
    identity: async (real) => {
      const { dev, ino } = await lstat(real);
      return { dev, ino };
    },
    remove: (real, ino, cfg) => removeLibraryFile({ real, ino, config: cfg }),
  };
}
