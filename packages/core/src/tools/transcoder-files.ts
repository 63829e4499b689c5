import { lstat } from 'node:fs/promises';
import type { Config } from '@mo/shared';
import { guardMediaPath, mediaRoots, type GuardedPath } from '../fs/path-guard.ts';
import { removeSource } from '../media/safe-replace.ts';

/**
 * The files the transcoder service looks at and removes, as the API's box mounts them: its only
 * way to the filesystem, so that its decisions are tested without real paths.
 */
export interface TranscoderFiles {
  /** A path checked to be a file with one of `extensions` in the downloads folder or on a drive (guardMediaPath's refusals). */
  guard(path: string, cfg: Config, extensions: readonly string[]): Promise<GuardedPath>;
  /** The device and inode the name itself is (a link is not followed). */
  identity(real: string): Promise<{ dev: number; ino: number }>;
  /** Removes the file only while its name is still inode `ino` (see removeSource): false when it was left. */
  remove(real: string, ino: number): Promise<boolean>;
}

export function transcoderFiles(): TranscoderFiles {
  return {
    guard: (path, cfg, extensions) => guardMediaPath(path, { roots: mediaRoots(cfg), extensions }),
    identity: async (real) => {
      const { dev, ino } = await lstat(real);
      return { dev, ino };
    },
    remove: removeSource,
  };
}
